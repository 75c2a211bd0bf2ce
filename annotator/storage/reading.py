"""Reading stored trajectories back as the domain's plain types."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.trajectory import (
    CollectorKind,
    Outcome,
    RawStep,
    ReviewStatus,
    Step,
    StepLabel,
    Trajectory,
    TrajectoryStatus,
    Verdict,
)
from annotator.storage import models
from annotator.storage.database import Database


def privacy_regions(row: models.Step) -> tuple[Box, ...]:
    """The privacy regions an annotator marked on a step's screenshot, in its device pixels (``row.screen_width``
    x ``row.screen_height``), x1 < x2 and y1 < y2, in the order they were drawn; () when there are none."""
    return tuple(Box.from_list(region) for region in row.privacy_regions or ())


def to_domain_step(row: models.Step) -> Step:
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
    )
    label = StepLabel(
        think=row.think,
        action_text=row.action_text,
        tool_call=row.tool_call,
        target_box=Box.from_list(row.target_box) if row.target_box else None,
        verdict=Verdict(row.verdict) if row.verdict else None,
        privacy_regions=privacy_regions(row),
    )
    return Step(raw=raw, label=label, id=row.id)


def load_trajectory(db: Database, trajectory_id: int) -> Trajectory:
    """The collected steps with their labels; corrected steps that people inserted are left out (the labelled
    sequence, with them, is ``services.annotation_records.labelled_order``)."""
    with db.session() as session:
        row = session.scalar(
            select(models.Trajectory)
            .where(models.Trajectory.id == trajectory_id)
            .options(
                selectinload(models.Trajectory.steps),
                selectinload(models.Trajectory.instruction).selectinload(models.Instruction.app),
            )
        )
        if row is None:
            raise LookupError(f"no trajectory with id {trajectory_id}")
        return Trajectory(
            instruction=row.instruction.text,
            app=row.instruction.app.name,
            steps=[to_domain_step(step) for step in row.steps if step.origin is None],
            collector=CollectorKind(row.collector_kind),
            status=TrajectoryStatus(row.status),
            outcome=Outcome(row.outcome) if row.outcome else None,
            review=ReviewStatus(row.review_status),
            id=row.id,
            uid=row.uid,
        )
