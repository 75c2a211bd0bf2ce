"""What the annotation view shows: a trajectory's steps in labelled order, each with its original and its label.

Read-only; `annotation.Editor` writes. Records are frozen plain data so that a worker thread can build them
and the GUI thread can keep them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from annotator.device.hierarchy import UiNode, parse_hierarchy
from annotator.domain.response import parse_response
from annotator.storage import models
from annotator.storage.workspace import Workspace

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Label:
    think: str | None = None
    action_text: str | None = None
    tool_call: dict[str, Any] | None = None
    target_box: Box | None = None
    verdict: str | None = None
    privacy_regions: tuple[Box, ...] = ()  # device pixels; not one of the three stages


@dataclass(frozen=True)
class StepRecord:
    id: int
    index: int  # collection order
    position: int  # 1-based place in the labelled sequence
    origin: str  # "collected" | "inserted"
    corrects_step_id: int | None
    removed: bool
    screenshot: Path
    width: int
    height: int
    original: Label
    label: Label
    stages: tuple[bool, bool, bool]  # think, action_text, tool_call labelled


@dataclass(frozen=True)
class ReviewNote:
    status: str
    comment: str | None
    reviewer: str | None
    at: datetime


@dataclass(frozen=True)
class TrajectoryRecord:
    id: int
    instruction: str
    app: str
    status: str
    collected_outcome: str | None
    outcome: str | None
    review_status: str
    last_review: ReviewNote | None
    steps: list[StepRecord]

    def step(self, step_id: int) -> StepRecord:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise LookupError(f"step {step_id} is not in trajectory {self.id}")


@dataclass(frozen=True)
class Revision:
    id: int
    step_id: int | None
    step_position: int | None
    field: str
    old: Any
    new: Any
    person: str | None
    at: datetime


def labelled_order(steps: list[models.Step]) -> list[models.Step]:
    """Collected steps by index, each followed by the corrected steps inserted after it (in insertion order)."""
    inserted: dict[int, list[models.Step]] = {}
    for step in steps:
        if step.origin == "inserted" and step.corrects_index is not None:
            inserted.setdefault(step.corrects_index, []).append(step)
    ordered: list[models.Step] = []
    for step in sorted((s for s in steps if s.origin is None), key=lambda s: s.index):
        ordered.append(step)
        ordered.extend(sorted(inserted.get(step.index, []), key=lambda s: s.index))
    return ordered


def original_label(step: models.Step) -> Label:
    """What was collected: the agent's think/action from its reply (leniently read), and the raw tool call."""
    if step.origin == "inserted" or not step.model_reply:
        return Label(tool_call=step.raw_tool_call)
    parsed = parse_response(step.model_reply, strict=False)
    return Label(think=parsed.think, action_text=parsed.action, tool_call=step.raw_tool_call)


def step_record(step: models.Step, position: int, ids_by_index: dict[int, int], workspace: Workspace) -> StepRecord:
    box = tuple(step.target_box) if step.target_box else None
    regions = tuple(tuple(region) for region in step.privacy_regions or ())
    label = Label(step.think, step.action_text, step.tool_call, box, step.verdict, regions)  # type: ignore[arg-type]
    return StepRecord(
        id=step.id,
        index=step.index,
        position=position,
        origin=step.origin or "collected",
        corrects_step_id=ids_by_index.get(step.corrects_index) if step.corrects_index is not None else None,
        removed=bool(step.removed),
        screenshot=workspace.blobs.screenshot_path(step.screenshot_sha256),
        width=step.screen_width,
        height=step.screen_height,
        original=original_label(step),
        label=label,
        stages=(step.think is not None, step.action_text is not None, step.tool_call is not None),
    )


def trajectory_row(session: Session, trajectory_id: int) -> models.Trajectory:
    row = session.scalar(
        select(models.Trajectory)
        .where(models.Trajectory.id == trajectory_id)
        .options(
            selectinload(models.Trajectory.steps),
            selectinload(models.Trajectory.reviews).selectinload(models.Review.reviewer),
            selectinload(models.Trajectory.instruction).selectinload(models.Instruction.app),
        )
    )
    if row is None:
        raise LookupError(f"no trajectory with id {trajectory_id}")
    return row


def trajectory_record(row: models.Trajectory, workspace: Workspace) -> TrajectoryRecord:
    ids_by_index = {step.index: step.id for step in row.steps}
    steps = [step_record(s, n, ids_by_index, workspace) for n, s in enumerate(labelled_order(row.steps), start=1)]
    review = row.reviews[-1] if row.reviews else None
    note = None
    if review is not None:
        reviewer = review.reviewer.name if review.reviewer else None
        note = ReviewNote(review.status, review.comment, reviewer, review.created_at)
    return TrajectoryRecord(
        id=row.id,
        instruction=row.instruction.text,
        app=row.instruction.app.name,
        status=row.status,
        collected_outcome=row.outcome,
        outcome=row.label_outcome,
        review_status=row.review_status,
        last_review=note,
        steps=steps,
    )


def load_trajectory(workspace: Workspace, trajectory_id: int) -> TrajectoryRecord:
    with workspace.database.session() as session:
        return trajectory_record(trajectory_row(session, trajectory_id), workspace)


def load_elements(workspace: Workspace, step_id: int) -> list[UiNode]:
    """The UI hierarchy of a step's screen; [] when none was dumped or it cannot be read."""
    with workspace.database.session() as session:
        step = session.get(models.Step, step_id)
        if step is None:
            raise LookupError(f"no step with id {step_id}")
        sha256 = step.hierarchy_sha256
    if sha256 is None:
        return []
    try:
        return parse_hierarchy(workspace.blobs.read_bytes(sha256).decode("utf-8", errors="replace"))
    except (OSError, ValueError):
        return []  # a damaged dump only costs the hover help; the screenshot still shows
