"""Annotating one trajectory: label changes with revisions, corrected and removed steps, outcome, undo/redo.

Like Anki, undo lives here and not in the GUI: an undo is a change like any other, written with its own
revisions, so the history shows it and a crash loses nothing. One ``Editor`` belongs to one person working
on one trajectory; its methods each run one short transaction (``annotator.storage.labels``) and are meant to
be called from one worker queue. What it hands back is the labelled trajectory (``annotator.domain``) or one
of its steps, as stored after the change.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from annotator.device.hierarchy import UiNode, parse_hierarchy
from annotator.domain.drafts import fill_values
from annotator.domain.review_ready import ReviewGaps, review_gaps
from annotator.domain.trajectory import LabelledStep, LabelledTrajectory, ReviewStatus
from annotator.services.roles import acting_role
from annotator.storage import drafts, labels
from annotator.storage.blobs import BlobStore
from annotator.storage.database import Database
from annotator.storage.labels import OUTCOME_FIELD, LabelChange, LabelError, Revision, StaleLabelError
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

__all__ = [
    "Editor",
    "LabelError",
    "Revision",
    "StaleLabelError",
    "load_elements",
    "load_trajectory",
    "read_for_editing",
    "with_label",
]


SUBMIT_ANYWAY_ROLES = ("reviewer", "admin")


class IncompleteWork(ValueError):
    """A trajectory that is not ready for review, and what it lacks."""

    def __init__(self, gaps: ReviewGaps) -> None:
        super().__init__(f"not ready for review: {gaps.describe()}")
        self.gaps = gaps


class Editor:
    """One person's edits to one trajectory.

    It keeps the label version each step's values (and the outcome) were read at, `bases`, and saves on top of
    that version only: a save after someone else's newer change is refused with StaleLabelError (theirs and mine),
    to be merged (`rebase` to their version, then save again). `load` reads the whole trajectory and its versions;
    a step the editor never read (a script's editor that writes without reading) is saved unchecked.
    """

    def __init__(self, workspace: Workspace, trajectory_id: int, person: str, role: str = "annotator") -> None:
        if not person.strip():
            raise ValueError("say who you are first: every change is saved under a name")
        self.workspace, self.trajectory_id = workspace, trajectory_id
        self.person, self.role = person.strip(), role
        self._undo: list[LabelChange] = []
        self._redo: list[LabelChange] = []
        self.bases: dict[int | None, int] = {}  # step id (None: the outcome) -> the version its values were read at
        self._refused: set[int | None] = set()  # steps (None: the outcome) whose save was refused as stale

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def record(self) -> LabelledTrajectory:
        return load_trajectory(self.workspace.database, self.trajectory_id)

    def load(self) -> LabelledTrajectory:
        """The trajectory as stored, its values the base of the next saves (read after their versions, so that a
        change in between makes a save refused, never lost)."""
        versions, record = read_for_editing(self.workspace.database, self.trajectory_id)
        self.adopt(versions)
        return record

    def adopt(self, versions: dict[int | None, int]) -> None:
        """Base the next saves on these versions, read with the values now shown; never below a base this editor
        reached by its own saves since (those were read before them), nor for a step whose save was refused and
        waits for the person's merge (their text is still shown, not the values read)."""
        for key, version in versions.items():
            if key not in self._refused:
                self.bases[key] = max(version, self.bases.get(key, version))

    def rebase(self, stale: StaleLabelError) -> None:
        """After a refused save: the person has seen theirs, so the next save goes on top of their version."""
        self.bases[stale.step_id] = stale.their_version
        self._refused.discard(stale.step_id)

    # changes -----------------------------------------------------------------------------------------------

    def change(self, step_id: int, changes: dict[str, Any]) -> LabelledStep:
        """Set label fields of a step; raises LabelError (in words) for a bad value; a no-op writes nothing."""
        self._push(self._write(step_id, changes))
        return self.record().step(step_id)

    def accept_draft(self, step_id: int, draft_id: int) -> LabelledStep:
        """Take a model draft into the step's label: each stage still empty gets the draft's value, one revision by
        this person per stage, each naming the draft; a stage someone filled is left as it is. Undone like any
        change; LookupError when the step has no such draft."""
        draft = drafts.step_draft(self.workspace.database, step_id, draft_id)
        label = self.record().step(step_id).label
        values = fill_values(
            draft, {"think": label.think, "action_text": label.action_text, "tool_call": label.tool_call}
        )
        if values:
            self._push(self._write(step_id, values, draft_id=draft_id))
        return self.record().step(step_id)

    def set_outcome(self, outcome: str | None) -> LabelledTrajectory:
        """The outcome set; the whole trajectory read again (`load`: what it shows is what the next saves base on)."""
        self._push(self._write(None, {OUTCOME_FIELD: outcome}))
        return self.load()

    def remove_step(self, step_id: int) -> LabelledStep:
        return self.change(step_id, {"removed": True})

    def restore_step(self, step_id: int) -> LabelledStep:
        return self.change(step_id, {"removed": False})

    def insert_corrected_step(self, after_step_id: int) -> LabelledStep:
        """A new step after the wrong one, on its screen; undo leaves it out again (rows are never deleted)."""
        who = {"person": self.person, "role": self.role}
        new_id = labels.insert_correction(self.workspace.database, self.trajectory_id, after_step_id, **who)
        self.bases[new_id] = 0
        self._push(LabelChange(self.trajectory_id, new_id, {"removed": True}, {"removed": False}))
        return self.record().step(new_id)

    def restore(self, revision_id: int) -> int | None:
        """Give a field back the value that revision wrote; returns the step id (None: the outcome)."""
        revision = labels.revision(self.workspace.database, self.trajectory_id, revision_id)
        field, value = (revision.field, revision.new) if revision.field != "inserted" else ("removed", False)
        self._push(self._write(revision.step_id, {field: value}))
        return revision.step_id

    def submit(self, *, anyway: bool = False) -> LabelledTrajectory:
        """Hand the trajectory to review. IncompleteWork when a kept step lacks a stage or a verdict, or the outcome
        is not set; `anyway` submits it all the same, for a reviewer or an admin only, and records what was missing."""
        gaps = review_gaps(self.record())
        if gaps.complete:
            labels.submit_for_review(self.workspace.database, self.trajectory_id)
        elif anyway and (role := acting_role(self.workspace.database, self.person, self.role)) in SUBMIT_ANYWAY_ROLES:
            note = f"submitted incomplete by {self.person} ({role}): {gaps.describe()}"
            labels.set_review(
                self.workspace.database, self.trajectory_id, ReviewStatus.ANNOTATED, reviewer=self.person, comment=note
            )
        else:
            raise IncompleteWork(gaps)
        return self.load()

    # undo --------------------------------------------------------------------------------------------------

    def undo(self) -> int | None:
        """Write back what the newest change replaced; a refused write (stale) leaves it to undo."""
        if not self._undo:
            return None
        change = self._undo[-1]
        self._write(change.step_id, change.before)
        self._redo.append(self._undo.pop())
        return change.step_id

    def redo(self) -> int | None:
        if not self._redo:
            return None
        change = self._redo[-1]
        self._write(change.step_id, change.after, draft_id=change.draft_id)
        self._undo.append(self._redo.pop())
        return change.step_id

    def _push(self, change: LabelChange | None) -> None:
        if change is not None:
            self._undo.append(change)
            self._redo.clear()

    # history -----------------------------------------------------------------------------------------------

    def history(self, step_id: int | None = None) -> list[Revision]:
        """Newest first, each with its step's place in the labelled order; the whole trajectory's when `step_id`
        is None."""
        positions = {step.id: step.position for step in self.record().steps}
        found = labels.revisions(self.workspace.database, self.trajectory_id, step_id)
        return [replace(r, step_position=positions.get(r.step_id)) if r.step_id else r for r in found]

    # writing -----------------------------------------------------------------------------------------------

    def _write(self, step_id: int | None, values: dict[str, Any], *, draft_id: int | None = None) -> LabelChange | None:
        """Apply `values` (a draft's, when `draft_id` is given) in one transaction on top of the version they were
        based on; the change set of what really changed, or None. StaleLabelError when someone else's is newer."""
        who: dict[str, Any] = {"person": self.person, "role": self.role, "expected_version": self.bases.get(step_id)}
        db = self.workspace.database
        try:
            if step_id is None:
                change = labels.write_outcome(db, self.trajectory_id, values[OUTCOME_FIELD], **who)
            else:
                change = labels.write_step_label(db, self.trajectory_id, step_id, values, draft_id=draft_id, **who)
        except StaleLabelError:
            self._refused.add(step_id)
            raise
        if change is not None and change.version is not None and step_id in self.bases:
            self.bases[step_id] = change.version  # what it saved is what the person sees now
        return change


def read_for_editing(db: Database, trajectory_id: int) -> tuple[dict[int | None, int], LabelledTrajectory]:
    """A trajectory and the versions of its labels (step id, None for the outcome), read before it: a change in
    between makes the next save refused, never lost."""
    versions = labels.label_versions(db, trajectory_id).as_bases()
    return versions, load_trajectory(db, trajectory_id)


def load_elements(blobs: BlobStore, step: LabelledStep) -> list[UiNode]:
    """The UI hierarchy of a step's screen; [] when none was dumped or it cannot be read."""
    sha256 = step.raw.hierarchy_sha256
    if sha256 is None:
        return []
    try:
        return parse_hierarchy(blobs.read_bytes(sha256).decode("utf-8", errors="replace"))
    except (OSError, ValueError):
        return []  # a damaged dump only costs the hover help; the screenshot still shows


def with_label(step: LabelledStep, changes: dict[str, Any]) -> LabelledStep:
    """The step with some label fields changed, as the editors hold them before they are saved."""
    return replace(step, label=step.label.with_values(changes))
