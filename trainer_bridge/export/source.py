"""Reading the trajectories to export from a workspace's database (through annotator.storage)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from annotator.domain.geometry import Box, ScreenSize
from annotator.storage import models
from annotator.storage.database import Database
from trainer_bridge.export.record import SourceStep, SourceTrajectory
from trainer_bridge.export.splits import TrajectoryKey

BATCH = 200  # trajectories loaded per query: bounded memory on a 25,000-step workspace


@dataclass(frozen=True)
class Selection:
    """Which trajectories to export. Empty tuples mean "any"."""

    review_states: tuple[str, ...] = ("accepted",)
    apps: tuple[str, ...] = ()
    trajectory_ids: tuple[int, ...] = ()
    judge_config_id: int | None = None  # whose scores go into the records (default: the newest judge's)
    min_judge_score: int | None = None
    annotators: tuple[str, ...] = field(default=())
    since: datetime | None = None  # collected at or after
    until: datetime | None = None  # collected before

    def as_json(self) -> dict[str, object]:
        return {
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
            "review_states": list(self.review_states),
            "apps": list(self.apps),
            "trajectory_ids": list(self.trajectory_ids),
            "judge_config_id": self.judge_config_id,
            "min_judge_score": self.min_judge_score,
            "annotators": list(self.annotators),
        }


def _selected_keys(session: Session, selection: Selection, judge_id: int | None) -> list[TrajectoryKey]:
    trajectory = models.Trajectory
    query = (
        select(trajectory.id, trajectory.instruction_id, models.App.name)
        .select_from(trajectory)
        .join(models.Instruction, trajectory.instruction_id == models.Instruction.id)
        .join(models.App, models.Instruction.app_id == models.App.id)
    )
    if selection.since is not None:
        query = query.where(trajectory.started_at >= selection.since)
    if selection.until is not None:
        query = query.where(trajectory.started_at < selection.until)
    if selection.review_states:
        query = query.where(models.Trajectory.review_status.in_(selection.review_states))
    if selection.apps:
        query = query.where(models.App.name.in_(selection.apps))
    if selection.trajectory_ids:
        query = query.where(models.Trajectory.id.in_(selection.trajectory_ids))
    if selection.min_judge_score is not None:
        scored = select(models.JudgeScore.trajectory_id).where(
            models.JudgeScore.config_id == judge_id, models.JudgeScore.reward >= selection.min_judge_score
        )
        query = query.where(models.Trajectory.id.in_(scored))
    if selection.annotators:  # every label revision names its trajectory, step revisions too
        labelled = (
            select(models.LabelRevision.trajectory_id)
            .join(models.Person)
            .where(models.Person.name.in_(selection.annotators))
        )
        query = query.where(trajectory.id.in_(labelled))
    return [TrajectoryKey(*row) for row in session.execute(query.order_by(trajectory.id))]


def judge_in_use(session: Session, selection: Selection) -> int | None:
    if selection.judge_config_id is not None:
        return selection.judge_config_id
    return session.scalar(select(func.max(models.JudgeScore.config_id)))


def _source_step(row: models.Step) -> SourceStep:
    return SourceStep(
        step_id=row.id,
        index=row.index,
        screenshot_sha256=row.screenshot_sha256,
        screen=ScreenSize(row.screen_width, row.screen_height),
        think=row.think,
        action_text=row.action_text,
        tool_call=row.tool_call,
        target_box=Box.from_list(row.target_box) if row.target_box else None,
        verdict=row.verdict,
        removed=bool(row.removed),
        inserted=row.origin == "inserted",
        corrects_index=row.corrects_index,
        raw_tool_call=row.raw_tool_call,
        package=row.package,
        activity=row.activity,
        privacy_regions=tuple(Box.from_list(box) for box in row.privacy_regions or ()),
    )


def _app_package(row: models.Trajectory) -> str | None:
    """The app's package as the app list records it, else as the phone the run was on named it."""
    app = row.instruction.app
    phone_packages = row.device.app_packages if row.device is not None else None
    return app.package or (phone_packages or {}).get(app.name)


def _load(session: Session, ids: Sequence[int], judge_id: int | None) -> list[SourceTrajectory]:
    rows = session.scalars(
        select(models.Trajectory)
        .where(models.Trajectory.id.in_(ids))
        .options(
            selectinload(models.Trajectory.steps),
            selectinload(models.Trajectory.instruction).selectinload(models.Instruction.app),
            selectinload(models.Trajectory.device),
        )
        .order_by(models.Trajectory.id)
    )
    scored = select(models.JudgeScore.trajectory_id, models.JudgeScore.reward).where(
        models.JudgeScore.config_id == judge_id, models.JudgeScore.trajectory_id.in_(ids)
    )
    scores = {trajectory_id: reward for trajectory_id, reward in session.execute(scored)}
    return [
        SourceTrajectory(
            trajectory_id=row.id,
            uid=row.uid,
            app=row.instruction.app.name,
            instruction=row.instruction.text,
            review_status=row.review_status,
            judge_score=scores.get(row.id),
            steps=tuple(_source_step(step) for step in row.steps),
            instruction_uid=row.instruction.uid,
            outcome=row.label_outcome or row.outcome,
            restart_app=bool((row.settings or {}).get("restart_app", True)),
            app_package=_app_package(row),
        )
        for row in rows
    ]


def selected_keys(db: Database, selection: Selection) -> tuple[int | None, list[TrajectoryKey]]:
    """(the judge whose scores are used, the selected trajectories' keys in id order)."""
    with db.session() as session:
        judge_id = judge_in_use(session, selection)
        return judge_id, _selected_keys(session, selection, judge_id)


def load_trajectories(db: Database, ids: Sequence[int], judge_id: int | None) -> Iterator[SourceTrajectory]:
    """The trajectories `ids`, in that order, loaded a batch at a time."""
    for start in range(0, len(ids), BATCH):
        with db.session() as session:
            yield from _load(session, ids[start : start + BATCH], judge_id)
