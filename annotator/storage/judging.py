"""Writing and reading judge configurations, runs and scores; each function is one short transaction.

A score row is kept per (configuration, trajectory). Asking again (a later run retrying a reply that was
not usable) updates that row and counts the attempt, so what a trajectory cost stays visible.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from annotator.domain.endpoint_url import safe_url
from annotator.domain.judge_settings import JudgeSettings
from annotator.domain.reply_text import capped_optional
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.models import utcnow
from annotator.storage.owners import this_process

S = models.JudgeScore


@dataclass(frozen=True)
class ScoreRecord:
    """What one request to the judge gave: a reward and reason, or an error saying why there is none."""

    reward: int | None
    reason: str | None
    raw_reply: str | None
    error: str | None
    usage: dict[str, Any] | None
    latency_ms: float | None
    images: int


@dataclass(frozen=True)
class ConfigSummary:
    id: int
    prompt_name: str
    model: str
    temperature: float
    seed: int | None
    images: dict[str, Any]
    created_at: datetime
    scored: int
    unusable: int
    mean_reward: float | None
    # answers left out of scored, unusable and the mean: about trajectories of an open study the person asking rates
    hidden: int = 0


def ensure_config(db: Database, settings: JudgeSettings) -> int:
    """The id of the stored configuration with these settings, created on first use."""
    fingerprint = settings.fingerprint()
    stored = select(models.JudgeConfig.id).where(models.JudgeConfig.fingerprint == fingerprint)
    with db.session() as session:
        found = session.scalar(stored)
        if found is not None:
            return found
        row = models.JudgeConfig(
            fingerprint=fingerprint,
            prompt_name=settings.prompt_name,
            prompt_text=settings.prompt_text,
            model=settings.model,
            temperature=settings.temperature,
            seed=settings.seed,
            image_policy=asdict(settings.images),
        )
        session.add(row)
        try:
            session.commit()
        except IntegrityError:  # another process stored the same configuration a moment ago
            session.rollback()
            return session.scalars(stored).one()
        return row.id


def scored_trajectories(db: Database, config_id: int) -> set[int]:
    """Trajectories with a usable score under this configuration: a run never asks about them again."""
    return set(rewards(db, config_id))


def rewards(db: Database, config_id: int) -> dict[int, int]:
    """trajectory id -> reward (0-4) of the usable scores of a configuration."""
    with db.session() as session:
        query = select(S.trajectory_id, S.reward).where(S.config_id == config_id, S.reward.is_not(None))
        return {trajectory: reward for trajectory, reward in session.execute(query) if reward is not None}


def answer_rewards(db: Database, config_id: int) -> dict[int, int | None]:
    """trajectory id -> reward (0-4, None: the answer was not usable) of every answer of a configuration."""
    with db.session() as session:
        query = select(S.trajectory_id, S.reward).where(S.config_id == config_id)
        return {trajectory: reward for trajectory, reward in session.execute(query)}


def start_run(
    db: Database, config_id: int, base_url: str, concurrency: int, selection: dict[str, Any], requested: int
) -> int:
    with db.session() as session:
        run = models.JudgeRun(
            config_id=config_id,
            base_url=safe_url(base_url),
            concurrency=concurrency,
            selection=selection,
            requested=requested,
            **this_process().columns(),
        )
        session.add(run)
        session.commit()
        return run.id


def finish_run(db: Database, run_id: int, *, counts: dict[str, int], status: str, message: str | None) -> None:
    with db.session() as session:
        run = session.get(models.JudgeRun, run_id)
        if run is None:
            raise LookupError(f"no judge run {run_id}")
        run.scored, run.failed, run.skipped = counts["scored"], counts["failed"], counts["skipped"]
        run.screens_dropped = counts.get("screens_dropped", 0)
        run.trajectories_with_screens_dropped = counts.get("trajectories_with_screens_dropped", 0)
        run.status, run.message, run.ended_at = status, message, utcnow()
        session.commit()


def save_score(db: Database, config_id: int, run_id: int | None, trajectory_id: int, record: ScoreRecord) -> None:
    """Store one answer; a second answer for the same configuration and trajectory replaces the first. The run's
    heartbeat goes with it: the run's owner is alive."""
    values = asdict(record) | {"raw_reply": capped_optional(record.raw_reply), "reason": capped_optional(record.reason)}
    for _try in range(2):  # an insert can lose a race with another process's insert of the same row
        with db.session() as session:
            if run_id is not None:
                session.execute(
                    update(models.JudgeRun).where(models.JudgeRun.id == run_id).values(heartbeat_at=utcnow())
                )
            row = session.scalar(select(S).where(S.config_id == config_id, S.trajectory_id == trajectory_id))
            if row is None:
                session.add(S(config_id=config_id, trajectory_id=trajectory_id, run_id=run_id, **values))
            else:
                for key, value in values.items():
                    setattr(row, key, value)
                row.run_id, row.attempts, row.updated_at = run_id, row.attempts + 1, utcnow()
            try:
                session.commit()
                return
            except IntegrityError:
                session.rollback()
    raise RuntimeError(f"the score of trajectory {trajectory_id} could not be stored")


def config_summaries(db: Database) -> list[ConfigSummary]:
    """Every configuration with how many trajectories it scored, how many replies were unusable, its mean."""
    with db.session() as session:
        counts = {
            config: (scored, unusable, mean)
            for config, scored, unusable, mean in session.execute(
                select(
                    S.config_id,
                    func.count(S.reward),
                    func.count(S.id) - func.count(S.reward),
                    func.avg(S.reward),
                ).group_by(S.config_id)
            )
        }
        rows = session.scalars(select(models.JudgeConfig).order_by(models.JudgeConfig.id)).all()
        summaries = []
        for row in rows:
            scored, unusable, mean = counts.get(row.id, (0, 0, None))
            summary = ConfigSummary(
                row.id,
                row.prompt_name,
                row.model,
                row.temperature,
                row.seed,
                dict(row.image_policy),
                row.created_at,
                int(scored),
                int(unusable),
                float(mean) if mean is not None else None,
            )
            summaries.append(summary)
        return summaries


@dataclass(frozen=True)
class TrajectoryScore:
    """One judge's answer about one trajectory, with what identifies the trajectory to a person."""

    trajectory_id: int
    app: str
    instruction: str
    reward: int | None
    reason: str | None
    error: str | None  # why there is no reward
    images: int  # screenshots sent
    attempts: int
    updated_at: datetime
    config_id: int = 0
    judge: str = ""  # "prompt · model"


def _answers(where: Any) -> Any:
    T, Ins, A, C = models.Trajectory, models.Instruction, models.App, models.JudgeConfig
    return (
        select(
            S.trajectory_id,
            A.name,
            Ins.text,
            S.reward,
            S.reason,
            S.error,
            S.images,
            S.attempts,
            S.updated_at,
            S.config_id,
            C.prompt_name,
            C.model,
        )
        .join(T, T.id == S.trajectory_id)
        .join(Ins, Ins.id == T.instruction_id)
        .join(A, A.id == Ins.app_id)
        .join(C, C.id == S.config_id)
        .where(where)
    )


def _score(row: Any) -> TrajectoryScore:
    trajectory_id, app, instruction, reward, reason, error, images, attempts, updated_at, config_id, prompt, model = row
    return TrajectoryScore(
        trajectory_id,
        app,
        instruction,
        reward,
        reason,
        error,
        images,
        attempts,
        updated_at,
        config_id,
        f"{prompt} · {model}",
    )


def answers_of(db: Database, config_id: int) -> list[TrajectoryScore]:
    """Every answer of a judge configuration, usable or not, newest trajectory first."""
    with db.session() as session:
        rows = session.execute(_answers(S.config_id == config_id).order_by(S.trajectory_id.desc()))
        return [_score(row) for row in rows]


def answers_about(db: Database, trajectory_id: int) -> list[TrajectoryScore]:
    """Every judge's answer about one trajectory, the newest judge first."""
    with db.session() as session:
        rows = session.execute(_answers(S.trajectory_id == trajectory_id).order_by(S.config_id.desc()))
        return [_score(row) for row in rows]


def image_policy(db: Database, config_id: int) -> dict[str, Any]:
    """The screenshots policy a configuration was run with (domain.judge_settings.ImagePolicy as a dict)."""
    with db.session() as session:
        config = session.get(models.JudgeConfig, config_id)
        if config is None:
            raise LookupError(f"no judge {config_id}; `annotator judge list` shows them")
        return dict(config.image_policy)
