"""Annotating one trajectory: label changes with revisions, corrected and removed steps, outcome, undo/redo.

Like Anki, undo lives here and not in the GUI: an undo is a change like any other, written with its own
revisions, so the history shows it and a crash loses nothing. One ``Editor`` belongs to one person working
on one trajectory; its methods each run one short transaction and are meant to be called from one worker
queue. Records come from ``annotation_records``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from annotator.domain.trajectory import ReviewStatus
from annotator.services.annotation_records import (
    Label,
    Revision,
    StepRecord,
    TrajectoryRecord,
    labelled_order,
    load_elements,
    load_trajectory,
    trajectory_row,
)
from annotator.storage import labels, models
from annotator.storage.collection import ensure_person
from annotator.storage.labels import LabelError
from annotator.storage.workspace import Workspace

__all__ = [
    "Editor", "Label", "LabelError", "Revision", "StepRecord", "TrajectoryRecord", "load_elements",
    "load_trajectory", "review_status_after_edit",
]  # fmt: skip

OUTCOME = "outcome"  # the field name of trajectory-level revisions


def review_status_after_edit(status: str) -> str:
    """A label edit starts the labelling of an unlabelled trajectory; every other review state stays."""
    return str(ReviewStatus.IN_PROGRESS) if status == ReviewStatus.UNLABELLED else status


@dataclass(frozen=True)
class _Change:
    """One undoable change set: field values before and after, of a step (or of the trajectory when None)."""

    step_id: int | None
    before: dict[str, Any]
    after: dict[str, Any]


class Editor:
    """One person's edits to one trajectory."""

    def __init__(self, workspace: Workspace, trajectory_id: int, person: str, role: str = "annotator") -> None:
        if not person.strip():
            raise ValueError("say who you are first: every change is saved under a name")
        self.workspace, self.trajectory_id = workspace, trajectory_id
        self.person, self.role = person.strip(), role
        self._undo: list[_Change] = []
        self._redo: list[_Change] = []

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def record(self) -> TrajectoryRecord:
        return load_trajectory(self.workspace, self.trajectory_id)

    # changes -----------------------------------------------------------------------------------------------

    def change(self, step_id: int, changes: dict[str, Any]) -> StepRecord:
        """Set label fields of a step; raises LabelError (in words) for a bad value; a no-op writes nothing."""
        change = self._write(step_id, changes)
        if change is not None:
            self._push(change)
        return self.record().step(step_id)

    def set_outcome(self, outcome: str | None) -> TrajectoryRecord:
        change = self._write(None, {OUTCOME: outcome})
        if change is not None:
            self._push(change)
        return self.record()

    def remove_step(self, step_id: int) -> StepRecord:
        return self.change(step_id, {"removed": True})

    def restore_step(self, step_id: int) -> StepRecord:
        return self.change(step_id, {"removed": False})

    def insert_corrected_step(self, after_step_id: int) -> StepRecord:
        """A new step after the wrong one, on its screen; undo leaves it out again (rows are never deleted)."""
        with self.workspace.database.session() as session, session.begin():
            wrong = self._step(session, after_step_id)
            who = ensure_person(session, self.person, self.role)
            step = labels.insert_corrected_step(session, wrong, who)
            self._mark_started(wrong.trajectory)
            session.flush()
            new_id = step.id
        self._push(_Change(new_id, {"removed": True}, {"removed": False}))
        return self.record().step(new_id)

    def restore(self, revision_id: int) -> int | None:
        """Give a field back the value that revision wrote; returns the step id (None: the outcome)."""
        with self.workspace.database.session() as session:
            revision = session.get(models.LabelRevision, revision_id)
            if revision is None or revision.trajectory_id != self.trajectory_id:
                raise LookupError(f"revision {revision_id} is not one of this trajectory's")
            step_id, field, value = revision.step_id, revision.field, revision.new_value
        if field == "inserted":
            field, value = "removed", False
        change = self._write(step_id, {field: value})
        if change is not None:
            self._push(change)
        return step_id

    def submit(self) -> TrajectoryRecord:
        """Hand the trajectory to review."""
        with self.workspace.database.session() as session, session.begin():
            trajectory = session.get(models.Trajectory, self.trajectory_id)
            if trajectory is None:
                raise LookupError(f"no trajectory with id {self.trajectory_id}")
            trajectory.review_status = str(ReviewStatus.ANNOTATED)
        return self.record()

    # undo --------------------------------------------------------------------------------------------------

    def undo(self) -> int | None:
        if not self._undo:
            return None
        change = self._undo.pop()
        self._write(change.step_id, change.before)
        self._redo.append(change)
        return change.step_id

    def redo(self) -> int | None:
        if not self._redo:
            return None
        change = self._redo.pop()
        self._write(change.step_id, change.after)
        self._undo.append(change)
        return change.step_id

    def _push(self, change: _Change) -> None:
        self._undo.append(change)
        self._redo.clear()

    # history -----------------------------------------------------------------------------------------------

    def history(self, step_id: int | None = None) -> list[Revision]:
        """Newest first; the whole trajectory's when `step_id` is None."""
        revision = models.LabelRevision
        with self.workspace.database.session() as session:
            row = trajectory_row(session, self.trajectory_id)
            positions = {step.id: n for n, step in enumerate(labelled_order(row.steps), start=1)}
            query = (
                select(revision)
                .where(revision.trajectory_id == self.trajectory_id)
                .options(selectinload(revision.person))
                .order_by(revision.created_at.desc(), revision.id.desc())
            )
            if step_id is not None:
                query = query.where(revision.step_id == step_id)
            return [
                Revision(
                    id=r.id, step_id=r.step_id, step_position=positions.get(r.step_id) if r.step_id else None,
                    field=r.field, old=r.old_value, new=r.new_value,
                    person=r.person.name if r.person else None, at=r.created_at,
                )
                for r in session.scalars(query)
            ]  # fmt: skip

    # writing -----------------------------------------------------------------------------------------------

    def _write(self, step_id: int | None, values: dict[str, Any]) -> _Change | None:
        """Apply `values` in one transaction; the change set of what really changed, or None."""
        with self.workspace.database.session() as session, session.begin():
            who = ensure_person(session, self.person, self.role)
            if step_id is None:
                trajectory = self._trajectory(session)
                old = trajectory.label_outcome
                written = labels.apply_outcome(session, trajectory, values[OUTCOME], who)
                if written is None:
                    return None
                self._mark_started(trajectory)
                return _Change(None, {OUTCOME: old}, {OUTCOME: trajectory.label_outcome})
            step = self._step(session, step_id)
            before = {field: getattr(step, field) for field in values if field in labels.EDITABLE_FIELDS}
            revisions = labels.apply_label_changes(session, step, values, who)
            if not revisions:
                return None
            self._mark_started(step.trajectory)
            changed = {r.field for r in revisions}
            return _Change(
                step_id,
                {f: before[f] for f in changed},
                {f: getattr(step, f) for f in changed},
            )

    def _trajectory(self, session: Session) -> models.Trajectory:
        trajectory = session.get(models.Trajectory, self.trajectory_id)
        if trajectory is None:
            raise LookupError(f"no trajectory with id {self.trajectory_id}")
        return trajectory

    def _step(self, session: Session, step_id: int) -> models.Step:
        step = session.get(models.Step, step_id)
        if step is None or step.trajectory_id != self.trajectory_id:
            raise LookupError(f"step {step_id} is not in trajectory {self.trajectory_id}")
        return step

    @staticmethod
    def _mark_started(trajectory: models.Trajectory) -> None:
        trajectory.review_status = review_status_after_edit(trajectory.review_status)
