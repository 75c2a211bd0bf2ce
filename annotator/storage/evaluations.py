"""Writing and reading evaluations, their predictions and rollouts; each function is one short transaction.

An evaluation is found again by its fingerprint (the policy and the settings that decide its answers), so the
same command run again goes on where it stopped: the steps answered are not asked again, the failed requests
are. A prediction row is kept per (evaluation, step, level, sample); asking again replaces it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update

from annotator.domain.endpoint_url import safe_url
from annotator.domain.evaluation import StepScore, current_online_summary
from annotator.domain.reply_text import capped_optional
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.models import utcnow
from annotator.storage.owners import this_process

E, P, R = models.Evaluation, models.EvaluationPrediction, models.EvaluationRollout
RUNNING = "running"
STATUSES = ("running", "complete", "stopped", "failed")


@dataclass(frozen=True)
class EvaluationInfo:
    id: int
    kind: str
    name: str
    policy: dict[str, Any]
    settings: dict[str, Any]
    selection: dict[str, Any] | None
    status: str
    message: str | None
    summary: dict[str, Any] | None
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True)
class PredictionRecord:
    """One answer, or the reason there is none (`error`, no scores)."""

    step_id: int
    level: str
    sample: int
    reply: str | None
    predicted: dict[str, Any] | None
    error: str | None
    format_ok: bool | None = None
    type_match: bool | None = None
    exact_match: bool | None = None
    grounded: bool | None = None
    step_success: bool | None = None
    reward: float | None = None
    latency_ms: float | None = None
    usage: dict[str, Any] | None = None


@dataclass(frozen=True)
class RolloutRecord:
    instruction_id: int
    run: int
    trajectory_id: int | None
    device_serial: str | None
    steps: int
    stop: str | None
    claimed_success: bool | None
    checked_by: str | None
    done: bool | None
    judge_score: int | None
    error: str | None = None


@dataclass(frozen=True)
class StoredRollout(RolloutRecord):
    app: str = ""
    instruction: str = ""


@dataclass(frozen=True)
class StoredPrediction:
    """A prediction with where its step is: for reports and the app's drill-down."""

    record: PredictionRecord
    trajectory_id: int
    position: int
    app: str
    instruction: str


def _info(row: models.Evaluation) -> EvaluationInfo:
    summary = current_online_summary(row.summary) if row.kind == "online" else row.summary
    return EvaluationInfo(
        row.id,
        row.kind,
        row.name,
        row.policy,
        row.settings,
        row.selection,
        row.status,
        row.message,
        summary,
        row.created_at,
        row.finished_at,
    )


def start_or_resume(
    db: Database,
    *,
    kind: str,
    name: str,
    fingerprint: str,
    policy: dict[str, Any],
    settings: dict[str, Any],
    selection: dict[str, Any] | None,
    resume: bool = True,
) -> tuple[int, bool]:
    """The evaluation to write to and whether it was resumed: the newest one with this fingerprint that is not
    running in another live process (with `resume`), else a new one. Either way this process owns it now."""
    if isinstance(policy.get("base_url"), str):  # the endpoint without the credentials written into its URL
        policy = policy | {"base_url": safe_url(policy["base_url"])}
    with db.session() as session:
        if resume:
            found = session.scalars(
                select(E).where(E.kind == kind, E.fingerprint == fingerprint, E.status != RUNNING).order_by(E.id.desc())
            ).first()
            if found is not None:
                found.status, found.message, found.finished_at = RUNNING, None, None
                for key, value in this_process().columns().items():
                    setattr(found, key, value)
                found.selection = selection
                session.commit()
                return found.id, True
        row = E(
            kind=kind,
            name=name,
            fingerprint=fingerprint,
            policy=policy,
            settings=settings,
            selection=selection,
            status=RUNNING,
            **this_process().columns(),
        )
        session.add(row)
        session.commit()
        return row.id, False


def answered(db: Database, evaluation_id: int) -> set[tuple[int, str, int]]:
    """(step, level, sample) of the predictions that have an answer: a resumed run does not ask for them again."""
    query = select(P.step_id, P.level, P.sample).where(P.evaluation_id == evaluation_id, P.error.is_(None))
    with db.session() as session:
        return {(step, level, sample) for step, level, sample in session.execute(query)}


def save_prediction(db: Database, evaluation_id: int, record: PredictionRecord) -> None:
    """Store one answer (replacing an earlier one for the same step, level and sample) and beat the heartbeat."""
    values = asdict(record) | {"reply": capped_optional(record.reply)}  # a runaway reply: its head and tail
    key = (
        P.evaluation_id == evaluation_id,
        P.step_id == record.step_id,
        P.level == record.level,
        P.sample == record.sample,
    )
    with db.session() as session:
        session.execute(update(E).where(E.id == evaluation_id).values(heartbeat_at=utcnow()))
        row = session.scalar(select(P).where(*key))
        if row is None:
            session.add(P(evaluation_id=evaluation_id, **values))
        else:
            for name, value in values.items():
                setattr(row, name, value)
            row.created_at = utcnow()
        session.commit()


def finish(
    db: Database, evaluation_id: int, *, status: str, message: str | None, summary: dict[str, Any] | None
) -> None:
    if status not in STATUSES:
        raise ValueError(f"status {status!r}: expected one of {', '.join(STATUSES)}")
    with db.session() as session:
        row = session.get(E, evaluation_id)
        if row is None:
            raise LookupError(f"no evaluation {evaluation_id}")
        row.status, row.message, row.finished_at = status, message, utcnow()
        if summary is not None:
            row.summary = summary
        session.commit()


def get_evaluation(db: Database, evaluation_id: int) -> EvaluationInfo:
    with db.session() as session:
        row = session.get(E, evaluation_id)
        if row is None:
            raise LookupError(f"no evaluation {evaluation_id}; see `trainer-bridge eval list`")
        return _info(row)


def list_evaluations(db: Database, kind: str | None = None) -> list[EvaluationInfo]:
    """Every evaluation (of `kind`), newest first."""
    query = select(E).order_by(E.id.desc())
    if kind is not None:
        query = query.where(E.kind == kind)
    with db.session() as session:
        return [_info(row) for row in session.scalars(query)]


def running_in(db: Database, host: str, pid: int) -> int | None:
    """The evaluation that the process `pid` on `host` is running, once it has started (or resumed) one."""
    query = select(E.id).where(E.status == RUNNING, E.owner_host == host, E.owner_pid == pid).order_by(E.id.desc())
    with db.session() as session:
        return session.scalars(query).first()


def prediction_counts(db: Database, evaluation_id: int) -> dict[str, int]:
    """How many predictions have an answer and how many failed."""
    query = select(P.error.is_(None), func.count()).where(P.evaluation_id == evaluation_id).group_by(P.error.is_(None))
    with db.session() as session:
        counts = {bool(ok): count for ok, count in session.execute(query)}
    return {"answered": counts.get(True, 0), "failed": counts.get(False, 0)}


def _where_step() -> Any:
    S, T, Ins, A = models.Step, models.Trajectory, models.Instruction, models.App
    columns = (P, S.trajectory_id, S.index, A.name, Ins.text)
    return (
        select(*columns)
        .join(S, S.id == P.step_id)
        .join(T, T.id == S.trajectory_id)
        .join(Ins, Ins.id == T.instruction_id)
        .join(A, A.id == Ins.app_id)
    )


def _record(row: models.EvaluationPrediction) -> PredictionRecord:
    return PredictionRecord(
        row.step_id,
        row.level,
        row.sample,
        row.reply,
        row.predicted,
        row.error,
        row.format_ok,
        row.type_match,
        row.exact_match,
        row.grounded,
        row.step_success,
        row.reward,
        row.latency_ms,
        row.usage,
    )


def predictions(
    db: Database, evaluation_id: int, *, level: str | None = None, step_ids: Sequence[int] = ()
) -> list[StoredPrediction]:
    """The predictions (answers and failures), in trajectory, step and sample order."""
    S = models.Step
    query = _where_step().where(P.evaluation_id == evaluation_id)
    if level is not None:
        query = query.where(P.level == level)
    if step_ids:
        query = query.where(P.step_id.in_(list(step_ids)))
    query = query.order_by(S.trajectory_id, S.index, P.level, P.sample)
    with db.session() as session:
        return [
            StoredPrediction(_record(row), trajectory_id, index, app, text)
            for row, trajectory_id, index, app, text in session.execute(query)
        ]


def step_scores(db: Database, evaluation_id: int, level: str = "task") -> list[StepScore]:
    """The scored answers at `level` (failed requests left out), as the metrics read them."""
    scores = []
    for stored in predictions(db, evaluation_id, level=level):
        record = stored.record
        if record.error is not None or record.format_ok is None:
            continue
        scores.append(
            StepScore(
                stored.trajectory_id,
                record.step_id,
                stored.position,
                stored.app,
                record.sample,
                bool(record.format_ok),
                bool(record.type_match),
                bool(record.exact_match),
                record.grounded,
                bool(record.step_success),
            )
        )
    return scores


def save_rollout(db: Database, evaluation_id: int, record: RolloutRecord) -> None:
    """Store one online run (replacing an earlier record of the same instruction and run)."""
    values = asdict(record)
    key = (R.evaluation_id == evaluation_id, R.instruction_id == record.instruction_id, R.run == record.run)
    with db.session() as session:
        session.execute(update(E).where(E.id == evaluation_id).values(heartbeat_at=utcnow()))
        row = session.scalar(select(R).where(*key))
        if row is None:
            session.add(R(evaluation_id=evaluation_id, **values))
        else:
            for name, value in values.items():
                setattr(row, name, value)
        session.commit()


def rollouts(db: Database, evaluation_id: int) -> list[StoredRollout]:
    Ins, A = models.Instruction, models.App
    query = (
        select(R, A.name, Ins.text)
        .join(Ins, Ins.id == R.instruction_id)
        .join(A, A.id == Ins.app_id)
        .where(R.evaluation_id == evaluation_id)
        .order_by(A.name, R.instruction_id, R.run)
    )
    with db.session() as session:
        return [
            StoredRollout(
                row.instruction_id,
                row.run,
                row.trajectory_id,
                row.device_serial,
                row.steps,
                row.stop,
                row.claimed_success,
                row.checked_by,
                row.done,
                row.judge_score,
                row.error,
                app=app,
                instruction=text,
            )
            for row, app, text in session.execute(query)
        ]
