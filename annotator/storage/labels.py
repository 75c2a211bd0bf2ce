"""Changing labels and reviews. Every label change writes a revision in the same transaction."""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

from sqlalchemy.orm import Session

from annotator.domain.geometry import Box
from annotator.domain.trajectory import LABEL_FIELDS, ReviewStatus, Verdict
from annotator.storage import models
from annotator.storage.collection import action_name, ensure_person
from annotator.storage.database import Database
from annotator.storage.models import utcnow

# A step's editable fields: the labels, and whether the step is left out of the labelled trajectory.
EDITABLE_FIELDS: tuple[str, ...] = (*LABEL_FIELDS, "removed")
OUTCOMES: tuple[str, ...] = ("success", "failure")


class LabelError(ValueError):
    pass


def _check_value(field: str, value: Any, step: models.Step) -> Any:
    """Return the value as stored, or raise LabelError naming the field."""
    if value is None:
        return None
    if field == "privacy_regions":
        return check_privacy_regions(value, step.screen_width, step.screen_height)
    if field in ("think", "action_text"):
        if not isinstance(value, str):
            raise LabelError(f"{field}: expected text, got {type(value).__name__}")
        return value
    if field == "tool_call":
        if not isinstance(value, dict):
            raise LabelError(f"tool_call: expected a JSON object, got {type(value).__name__}")
        return value
    if field == "target_box":
        try:
            return Box.from_list([float(v) for v in value]).as_list()
        except (TypeError, ValueError) as error:
            raise LabelError(f"target_box: {error}") from error
    if field == "removed":
        if not isinstance(value, bool):
            raise LabelError(f"removed: expected true or false, got {value!r}")
        return value
    if field == "verdict":
        try:
            return str(Verdict(value))
        except ValueError:
            allowed = ", ".join(v.value for v in Verdict)
            raise LabelError(f"verdict: {value!r} is not one of {allowed}") from None
    raise LabelError(f"{field!r} is not a label field (label fields: {', '.join(EDITABLE_FIELDS)})")


def _coordinate(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ValueError(f"{value!r} is not a finite number")
    return float(value)


def check_privacy_regions(value: Any, width: int, height: int) -> list[list[float]] | None:
    """Privacy regions as stored: ``[[x1, y1, x2, y2], ...]`` in device pixels of a `width` x `height` screen,
    each with x1 < x2 and y1 < y2 and wholly on the screen, in the order given; None when there are none."""
    if value is None:
        return None
    if not isinstance(value, list | tuple):
        raise LabelError(f"privacy_regions: expected a list of boxes, got {type(value).__name__}")
    boxes = []
    for number, region in enumerate(value, start=1):
        where = f"privacy_regions: region {number}"
        if not isinstance(region, list | tuple):
            raise LabelError(f"{where}: expected [x1, y1, x2, y2], got {region!r}")
        try:
            box = Box.from_list([_coordinate(v) for v in region])
        except ValueError as error:
            raise LabelError(f"{where}: {error}") from error
        if box.x1 == box.x2 or box.y1 == box.y2:
            raise LabelError(f"{where}: {box.as_list()} covers no pixel")
        if box.x1 < 0 or box.y1 < 0 or box.x2 > width or box.y2 > height:
            raise LabelError(f"{where}: {box.as_list()} is not within the {width}x{height} screen")
        boxes.append(box.as_list())
    return boxes or None


def apply_label_changes(
    session: Session, step: models.Step, changes: dict[str, Any], person: models.Person | None
) -> list[models.LabelRevision]:
    """Set label fields on a step and add one revision per field that really changed."""
    revisions = []
    for field, raw_value in changes.items():
        value = _check_value(field, raw_value, step)
        old = getattr(step, field)
        if old == value:
            continue
        setattr(step, field, value)
        if field == "tool_call":
            step.label_action = action_name(value)
        revision = models.LabelRevision(
            step=step, trajectory_id=step.trajectory_id, field=field, old_value=old, new_value=value, person=person
        )
        session.add(revision)
        revisions.append(revision)
    if revisions:
        step.label_updated_at = utcnow()
    return revisions


def update_label(
    db: Database, step_id: int, changes: dict[str, Any], *, person: str | None = None, role: str = "annotator"
) -> int:
    """Change label fields of one step; returns how many revisions were written."""
    with db.session() as session, session.begin():
        step = session.get(models.Step, step_id)
        if step is None:
            raise LookupError(f"no step with id {step_id}")
        who = ensure_person(session, person, role) if person else None
        return len(apply_label_changes(session, step, changes, who))


def set_review(
    db: Database,
    trajectory_id: int,
    status: ReviewStatus,
    *,
    reviewer: str | None = None,
    comment: str | None = None,
) -> None:
    with db.session() as session, session.begin():
        trajectory = session.get(models.Trajectory, trajectory_id)
        if trajectory is None:
            raise LookupError(f"no trajectory with id {trajectory_id}")
        who = ensure_person(session, reviewer, "reviewer") if reviewer else None
        status_value = str(ReviewStatus(status))
        session.add(models.Review(trajectory=trajectory, status=status_value, reviewer=who, comment=comment))
        trajectory.review_status = status_value


def apply_outcome(
    session: Session, trajectory: models.Trajectory, outcome: str | None, person: models.Person | None
) -> models.LabelRevision | None:
    """Set the labelled outcome (did the trajectory complete its task?) with a trajectory-level revision."""
    if outcome is not None and outcome not in OUTCOMES:
        raise LabelError(f"outcome: {outcome!r} is not one of {', '.join(OUTCOMES)}")
    old = trajectory.label_outcome
    if old == outcome:
        return None
    trajectory.label_outcome = outcome
    revision = models.LabelRevision(
        trajectory=trajectory, field="outcome", old_value=old, new_value=outcome, person=person
    )
    session.add(revision)
    return revision


def insert_corrected_step(session: Session, wrong: models.Step, person: models.Person | None) -> models.Step:
    """Add a step after `wrong` that says what should have been done on the same screen.

    It shares the wrong step's screenshot and hierarchy (the state in which the mistake was made) and gets
    the next free index; its place in the labelled sequence comes from ``corrects_index``.
    """
    if wrong.origin is not None:
        raise LabelError("a corrected step is inserted after a collected step, not after another inserted one")
    last = max(step.index for step in wrong.trajectory.steps)
    step = models.Step(
        trajectory=wrong.trajectory,
        index=last + 1,
        screenshot_sha256=wrong.screenshot_sha256,
        hierarchy_sha256=wrong.hierarchy_sha256,
        hierarchy_error=wrong.hierarchy_error,
        package=wrong.package,
        activity=wrong.activity,
        screen_width=wrong.screen_width,
        screen_height=wrong.screen_height,
        rotation=wrong.rotation,
        origin="inserted",
        corrects_index=wrong.index,
    )
    session.add(step)
    session.add(
        models.LabelRevision(
            step=step, trajectory=wrong.trajectory, field="inserted", old_value=None,
            new_value={"corrects_index": wrong.index}, person=person,
        )
    )  # fmt: skip
    return step
