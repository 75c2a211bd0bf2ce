"""Changing labels and reviews. Every label change writes a revision in the same transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from annotator.domain.geometry import Box
from annotator.domain.trajectory import LABEL_FIELDS, ReviewStatus, Verdict
from annotator.storage import models
from annotator.storage.collection import action_name, ensure_person
from annotator.storage.database import Database
from annotator.storage.models import utcnow


class LabelError(ValueError):
    pass


def _check_value(field: str, value: Any) -> Any:
    """Return the value as stored, or raise LabelError naming the field."""
    if value is None:
        return None
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
    if field == "verdict":
        try:
            return str(Verdict(value))
        except ValueError:
            allowed = ", ".join(v.value for v in Verdict)
            raise LabelError(f"verdict: {value!r} is not one of {allowed}") from None
    raise LabelError(f"{field!r} is not a label field (label fields: {', '.join(LABEL_FIELDS)})")


def apply_label_changes(
    session: Session, step: models.Step, changes: dict[str, Any], person: models.Person | None
) -> list[models.LabelRevision]:
    """Set label fields on a step and add one revision per field that really changed."""
    revisions = []
    for field, raw_value in changes.items():
        value = _check_value(field, raw_value)
        old = getattr(step, field)
        if old == value:
            continue
        setattr(step, field, value)
        if field == "tool_call":
            step.label_action = action_name(value)
        revision = models.LabelRevision(step=step, field=field, old_value=old, new_value=value, person=person)
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
