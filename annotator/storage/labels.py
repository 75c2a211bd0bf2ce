"""Changing labels and reviews. Every label change writes a revision in the same transaction."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from numbers import Real
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from annotator.domain.geometry import Box
from annotator.domain.trajectory import LABEL_FIELDS, ReviewStatus, Verdict, review_status_after_edit
from annotator.storage import models
from annotator.storage.collection import action_name, ensure_person
from annotator.storage.database import Database
from annotator.storage.label_versions import LabelVersions as LabelVersions  # re-exported: what editors base saves on
from annotator.storage.label_versions import StaleLabelError as StaleLabelError
from annotator.storage.label_versions import check_base, lock_version, raise_version
from annotator.storage.label_versions import label_versions as label_versions
from annotator.storage.models import utcnow
from annotator.storage.writing import retrying

# A step's editable fields: the labels, and whether the step is left out of the labelled trajectory.
EDITABLE_FIELDS: tuple[str, ...] = (*LABEL_FIELDS, "removed")
OUTCOMES: tuple[str, ...] = ("success", "failure")
OUTCOME_FIELD = "outcome"  # the field name of trajectory-level revisions


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
        if isinstance(value, (list, tuple)) and len(value) == 0:
            return []  # a person's "this step has no target box": the suggestion no longer applies
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
        if not isinstance(region, list | tuple | Box):
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
    session: Session,
    step: models.Step,
    changes: dict[str, Any],
    person: models.Person | None,
    *,
    draft_id: int | None = None,
    expected_version: int | None = None,
) -> list[models.LabelRevision]:
    """Set label fields on a step and add one revision per field that really changed, raising the step's label
    version once; `draft_id` names the model draft the values were taken from (its origin, kept with each revision).
    StaleLabelError, with nothing changed, when `expected_version` is given and the stored version is newer."""
    values = {field: _check_value(field, raw_value, step) for field, raw_value in changes.items()}
    stored = lock_version(session, step)
    check_base(session, step, stored, expected_version, values)
    revisions = []
    for field, value in values.items():
        old = getattr(step, field)
        if old == value:
            continue
        setattr(step, field, value)
        if field == "tool_call":
            step.label_action = action_name(value)
        revision = models.LabelRevision(
            step=step,
            trajectory_id=step.trajectory_id,
            field=field,
            old_value=old,
            new_value=value,
            person=person,
            draft_id=draft_id,
        )
        session.add(revision)
        revisions.append(revision)
    if revisions:
        step.label_updated_at = utcnow()
        raise_version(session, step, stored, values)
    return revisions


def update_label(
    db: Database,
    step_id: int,
    changes: dict[str, Any],
    *,
    person: str | None = None,
    role: str = "annotator",
    expected_version: int | None = None,
) -> int:
    """Change label fields of one step; returns how many revisions were written."""

    def write(session: Session) -> int:
        step = session.get(models.Step, step_id)
        if step is None:
            raise LookupError(f"no step with id {step_id}")
        who = ensure_person(session, person, role) if person else None
        return len(apply_label_changes(session, step, changes, who, expected_version=expected_version))

    return retrying(db, write)


def set_review(
    db: Database,
    trajectory_id: int,
    status: ReviewStatus,
    *,
    reviewer: str | None = None,
    comment: str | None = None,
) -> None:
    def write(session: Session) -> None:
        trajectory = session.get(models.Trajectory, trajectory_id)
        if trajectory is None:
            raise LookupError(f"no trajectory with id {trajectory_id}")
        who = ensure_person(session, reviewer, "reviewer") if reviewer else None
        status_value = str(ReviewStatus(status))
        session.add(models.Review(trajectory=trajectory, status=status_value, reviewer=who, comment=comment))
        trajectory.review_status = status_value

    retrying(db, write)  # a busy database is waited out: a decision is saved or reported, never dropped


def apply_outcome(
    session: Session,
    trajectory: models.Trajectory,
    outcome: str | None,
    person: models.Person | None,
    *,
    expected_version: int | None = None,
) -> models.LabelRevision | None:
    """Set the labelled outcome (did the trajectory complete its task?) with a trajectory-level revision, raising the
    trajectory's label version; StaleLabelError when `expected_version` is given and the stored one is newer."""
    if outcome is not None and outcome not in OUTCOMES:
        raise LabelError(f"outcome: {outcome!r} is not one of {', '.join(OUTCOMES)}")
    stored = lock_version(session, trajectory)
    check_base(session, trajectory, stored, expected_version, {OUTCOME_FIELD: outcome})
    old = trajectory.label_outcome
    if old == outcome:
        return None
    trajectory.label_outcome = outcome
    revision = models.LabelRevision(
        trajectory=trajectory, field=OUTCOME_FIELD, old_value=old, new_value=outcome, person=person
    )
    session.add(revision)
    raise_version(session, trajectory, stored, {OUTCOME_FIELD: outcome})
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
            step=step,
            trajectory=wrong.trajectory,
            field="inserted",
            old_value=None,
            new_value={"corrects_index": wrong.index},
            person=person,
        )
    )
    return step


# One person's edits, each in its own transaction (annotator.services.annotation.Editor undoes and redoes them) --


@dataclass(frozen=True)
class LabelChange:
    """What one write changed: field values before and after, of a step (or, `step_id` None, the outcome)."""

    trajectory_id: int
    step_id: int | None
    before: dict[str, Any]
    after: dict[str, Any]
    draft_id: int | None = None  # the model draft the `after` values came from (a redo names it again)
    version: int | None = None  # the label version this write left (of the step, or of the outcome)


@dataclass(frozen=True)
class Revision:
    """One entry of a trajectory's label history (who, when, old, new); `step_id` None: the outcome."""

    id: int
    step_id: int | None
    field: str
    old: Any
    new: Any
    person: str | None
    at: datetime
    step_position: int | None = None  # the step's place in the labelled order, when the reader worked it out
    draft_id: int | None = None  # the model draft this change took into the label


def _trajectory_row(session: Session, trajectory_id: int) -> models.Trajectory:
    trajectory = session.get(models.Trajectory, trajectory_id)
    if trajectory is None:
        raise LookupError(f"no trajectory with id {trajectory_id}")
    return trajectory


def _step_of(session: Session, trajectory_id: int, step_id: int) -> models.Step:
    step = session.get(models.Step, step_id)
    if step is None or step.trajectory_id != trajectory_id:
        raise LookupError(f"step {step_id} is not in trajectory {trajectory_id}")
    return step


def _mark_started(trajectory: models.Trajectory) -> None:
    trajectory.review_status = review_status_after_edit(trajectory.review_status)


def write_step_label(
    db: Database,
    trajectory_id: int,
    step_id: int,
    values: dict[str, Any],
    *,
    person: str,
    role: str,
    draft_id: int | None = None,
    expected_version: int | None = None,
) -> LabelChange | None:
    """Set label fields of one step with a revision each, in one transaction; None when nothing changed.
    `draft_id`: the values are a model draft's, taken by this person (recorded with each revision).
    `expected_version`: the step's version the values were based on (StaleLabelError when it is not the newest)."""

    def write(session: Session) -> LabelChange | None:
        who = ensure_person(session, person, role)
        step = _step_of(session, trajectory_id, step_id)
        revisions = apply_label_changes(
            session, step, values, who, draft_id=draft_id, expected_version=expected_version
        )
        if not revisions:
            return None
        _mark_started(step.trajectory)
        before = {r.field: r.old_value for r in revisions}  # as read under the row's lock, not before it
        after = {r.field: getattr(step, r.field) for r in revisions}
        return LabelChange(trajectory_id, step_id, before, after, draft_id, step.label_version)

    return retrying(db, write)


def write_outcome(
    db: Database,
    trajectory_id: int,
    outcome: str | None,
    *,
    person: str,
    role: str,
    expected_version: int | None = None,
) -> LabelChange | None:
    """Set the labelled outcome with a trajectory-level revision; None when it was already so."""

    def write(session: Session) -> LabelChange | None:
        who = ensure_person(session, person, role)
        trajectory = _trajectory_row(session, trajectory_id)
        old = trajectory.label_outcome
        if apply_outcome(session, trajectory, outcome, who, expected_version=expected_version) is None:
            return None
        _mark_started(trajectory)
        after = {OUTCOME_FIELD: trajectory.label_outcome}
        return LabelChange(trajectory_id, None, {OUTCOME_FIELD: old}, after, version=trajectory.label_version)

    return retrying(db, write)


def insert_correction(db: Database, trajectory_id: int, wrong_step_id: int, *, person: str, role: str) -> int:
    """A corrected step after a wrong one, on its screen (insert_corrected_step); returns the new step's id."""

    def write(session: Session) -> int:
        # The trajectory's row locked first (PostgreSQL): two insertions at once then take the next free index in
        # turn instead of both taking the same one. SQLite's BEGIN IMMEDIATE serialises them already.
        T = models.Trajectory
        session.execute(select(T.id).where(T.id == trajectory_id).with_for_update())
        wrong = _step_of(session, trajectory_id, wrong_step_id)
        step = insert_corrected_step(session, wrong, ensure_person(session, person, role))
        _mark_started(wrong.trajectory)
        session.flush()
        return step.id

    return retrying(db, write)


def submit_for_review(db: Database, trajectory_id: int) -> None:
    def write(session: Session) -> None:
        _trajectory_row(session, trajectory_id).review_status = str(ReviewStatus.ANNOTATED)

    retrying(db, write)


def revision(db: Database, trajectory_id: int, revision_id: int) -> Revision:
    with db.session() as session:
        row = session.get(models.LabelRevision, revision_id)
        if row is None or row.trajectory_id != trajectory_id:
            raise LookupError(f"revision {revision_id} is not one of trajectory {trajectory_id}'s")
        return _revision(row)


def revisions(db: Database, trajectory_id: int, step_id: int | None = None) -> list[Revision]:
    """Newest first; the whole trajectory's when `step_id` is None."""
    R = models.LabelRevision
    query = (
        select(R)
        .where(R.trajectory_id == trajectory_id)
        .options(selectinload(R.person))
        .order_by(R.created_at.desc(), R.id.desc())
    )
    if step_id is not None:
        query = query.where(R.step_id == step_id)
    with db.session() as session:
        return [_revision(row) for row in session.scalars(query)]


def _revision(row: models.LabelRevision) -> Revision:
    person = row.person.name if row.person else None
    return Revision(
        row.id, row.step_id, row.field, row.old_value, row.new_value, person, row.created_at, draft_id=row.draft_id
    )
