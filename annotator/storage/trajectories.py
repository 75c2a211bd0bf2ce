"""Loading labelled trajectories (annotator.domain.trajectory): the one read model of a stored trajectory.

Rows become `LabelledTrajectory` values here and nowhere else. One trajectory loads with its newest review
(the annotation view, the judge, the collection run's history); many load a batch at a time with the scores
of one judge (an export of 25,000 steps in bounded memory).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.strategy_options import _AbstractLoad

from annotator.domain.drafts import Draft
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.target_box import SuggestedBox
from annotator.domain.trajectory import (
    LABEL_FIELDS,
    CollectorKind,
    Label,
    LabelledStep,
    LabelledTrajectory,
    Outcome,
    RawStep,
    ReviewNote,
    ReviewStatus,
    Screenshot,
    StepOrigin,
    TrajectoryStatus,
)
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.drafts import drafts_by_step

BATCH = 200  # trajectories loaded per query when loading many


def step_label(row: models.Step) -> Label:
    return Label.of(**{name: getattr(row, name) for name in LABEL_FIELDS})


def suggested_box(row: models.Step) -> SuggestedBox | None:
    if not row.suggested_box:
        return None
    return SuggestedBox(Box.from_list(row.suggested_box), row.suggested_box_source or "unknown")


def labelled_step(row: models.Step, drafts: tuple[Draft, ...] = ()) -> LabelledStep:
    raw = RawStep(
        index=row.index,
        screenshot_sha256=row.screenshot_sha256,
        screen=ScreenSize(row.screen_width, row.screen_height),
        tool_call=row.raw_tool_call,
        hierarchy_sha256=row.hierarchy_sha256,
        package=row.package,
        activity=row.activity,
        rotation=row.rotation,
        model_reply=row.model_reply,
        observed_at=row.observed_at,
        timings_ms=dict(row.timings_ms or {}),
        suggested_box=suggested_box(row),
    )
    return LabelledStep(
        raw=raw,
        label=step_label(row),
        id=row.id,
        origin=StepOrigin(row.origin or StepOrigin.COLLECTED),
        corrects_index=row.corrects_index,
        removed=bool(row.removed),
        drafts=drafts,
    )


def _app_package(row: models.Trajectory) -> str | None:
    """The app's package as the app list records it, else as the phone the run was on named it."""
    app = row.instruction.app
    phone_packages = row.device.app_packages if row.device is not None else None
    return app.package or (phone_packages or {}).get(app.name)


def _review_note(row: models.Trajectory) -> ReviewNote | None:
    review = row.reviews[-1] if row.reviews else None
    if review is None:
        return None
    reviewer = review.reviewer.name if review.reviewer else None
    return ReviewNote(ReviewStatus(review.status), review.comment, reviewer, review.created_at)


def labelled_trajectory(
    row: models.Trajectory,
    *,
    judge_score: int | None = None,
    with_review: bool = False,
    drafts: dict[int, tuple[Draft, ...]] | None = None,
) -> LabelledTrajectory:
    """The trajectory of a row; `drafts` are its steps' model drafts by step id (storage.drafts.drafts_by_step)."""
    drafts = drafts or {}
    return LabelledTrajectory(
        instruction=row.instruction.text,
        app=row.instruction.app.name,
        steps=tuple(labelled_step(step, drafts.get(step.id, ())) for step in row.steps),
        id=row.id,
        uid=row.uid,
        instruction_uid=row.instruction.uid,
        app_package=_app_package(row),
        collector=CollectorKind(row.collector_kind),
        status=TrajectoryStatus(row.status),
        collected_outcome=Outcome(row.outcome) if row.outcome else None,
        label_outcome=Outcome(row.label_outcome) if row.label_outcome else None,
        review_status=ReviewStatus(row.review_status),
        last_review=_review_note(row) if with_review else None,
        restart_app=bool((row.settings or {}).get("restart_app", True)),
        judge_score=judge_score,
        final_screen=_final_screen(row.final_screenshot),
    )


def _final_screen(blob: models.Blob | None) -> Screenshot | None:
    if blob is None or not blob.width or not blob.height:
        return None
    return Screenshot(blob.sha256, ScreenSize(blob.width, blob.height))


def _loading() -> tuple[_AbstractLoad, ...]:
    T = models.Trajectory
    return (
        selectinload(T.steps),
        selectinload(T.instruction).selectinload(models.Instruction.app),
        selectinload(T.device),
        selectinload(T.final_screenshot),
    )


def load_trajectory(db: Database, trajectory_id: int) -> LabelledTrajectory:
    """One trajectory with every step (collected and inserted) and its newest review."""
    with db.session() as session:
        row = session.scalar(
            select(models.Trajectory)
            .where(models.Trajectory.id == trajectory_id)
            .options(*_loading(), selectinload(models.Trajectory.reviews).selectinload(models.Review.reviewer))
        )
        if row is None:
            raise LookupError(f"no trajectory with id {trajectory_id}")
        drafts = drafts_by_step(session, [step.id for step in row.steps])
        return labelled_trajectory(row, with_review=True, drafts=drafts)


def _load_batch(session: Session, ids: Sequence[int], judge_id: int | None) -> list[LabelledTrajectory]:
    rows = session.scalars(select(models.Trajectory).where(models.Trajectory.id.in_(ids)).options(*_loading())).all()
    scores: dict[int, int | None] = {}
    if judge_id is not None:
        scored = select(models.JudgeScore.trajectory_id, models.JudgeScore.reward).where(
            models.JudgeScore.config_id == judge_id, models.JudgeScore.trajectory_id.in_(ids)
        )
        scores = {trajectory_id: reward for trajectory_id, reward in session.execute(scored)}
    drafts = drafts_by_step(session, [step.id for row in rows for step in row.steps])
    by_id = {row.id: labelled_trajectory(row, judge_score=scores.get(row.id), drafts=drafts) for row in rows}
    return [by_id[i] for i in ids if i in by_id]


def load_trajectories(db: Database, ids: Sequence[int], *, judge_id: int | None = None) -> Iterator[LabelledTrajectory]:
    """The trajectories `ids`, in that order, loaded a batch at a time, each with `judge_id`'s score."""
    for start in range(0, len(ids), BATCH):
        with db.session() as session:
            yield from _load_batch(session, ids[start : start + BATCH], judge_id)


def count_trajectories(db: Database) -> int:
    with db.session() as session:
        return session.scalar(select(func.count()).select_from(models.Trajectory)) or 0


def stored_counts(db: Database) -> dict[str, int]:
    """How many apps, instructions, trajectories and steps are stored, read in one transaction: the totals of
    `annotator stats --every-row` (services.stats), without its tables and pandas, for `annotator db info`."""
    tables = {
        "apps": models.App,
        "instructions": models.Instruction,
        "trajectories": models.Trajectory,
        "steps": models.Step,
    }
    with db.session() as session, session.begin():
        return {name: session.scalar(select(func.count()).select_from(model)) or 0 for name, model in tables.items()}
