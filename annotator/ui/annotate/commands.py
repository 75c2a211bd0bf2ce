"""The annotation view's commands that write: verdicts, keep-original, undo/redo, corrected and removed steps,
the outcome, submitting, the history and the next trajectory of the annotator's queue.

Each one saves the typing that waits first and then runs through the one ``annotation.Editor`` on the
"annotate" queue (``LabelSaver.run``), so it sees every earlier edit; its result comes back to the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox

from annotator.domain.review_ready import ReviewGaps, steps_without_box
from annotator.domain.trajectory import LabelledStep, LabelledTrajectory, Verdict
from annotator.services import review
from annotator.services.annotation import SUBMIT_ANYWAY_ROLES, Editor, IncompleteWork
from annotator.services.changes import Changes
from annotator.ui import identity
from annotator.ui.annotate.editors import STAGES
from annotator.ui.i18n import fill

if TYPE_CHECKING:
    from annotator.ui.annotate.view import AnnotationView


@dataclass(frozen=True)
class Reloaded:
    """What an operation that may touch any step hands back: the whole record and the step to show."""

    record: LabelledTrajectory
    step_id: int | None
    done: bool = True  # False: there was nothing to do (nothing to undo, say)


def _undo(editor: Editor) -> Reloaded:
    if not editor.can_undo:
        return Reloaded(editor.load(), None, done=False)
    step_id = editor.undo()
    return Reloaded(editor.load(), step_id)  # load: the record shown is what the next saves are based on


def _redo(editor: Editor) -> Reloaded:
    if not editor.can_redo:
        return Reloaded(editor.load(), None, done=False)
    step_id = editor.redo()
    return Reloaded(editor.load(), step_id)


def _submit(editor: Editor, anyway: bool, outcome: str | None) -> LabelledTrajectory | IncompleteWork:
    if outcome is not None and editor.record().label_outcome != outcome:
        editor.set_outcome(outcome)  # its own change: Ctrl+Z takes it back if the submission is refused
    try:
        return editor.submit(anyway=anyway)
    except IncompleteWork as refused:
        return refused


def _keep_original(editor: Editor, step_id: int) -> tuple[LabelledStep, list[str]]:
    """Copy the collected think, action and tool call into the stages that are still empty."""
    step = editor.record().step(step_id)
    changes = {
        stage: getattr(step.original, stage)
        for stage in STAGES
        if getattr(step.label, stage) is None and getattr(step.original, stage) is not None
    }
    return (editor.change(step_id, changes) if changes else step), list(changes)


class AnnotationCommands(QObject):
    def __init__(self, view: AnnotationView) -> None:
        super().__init__(view)
        self.view = view
        self.opened: list[int] = []  # trajectories opened in this session, the newest last (Previous Trajectory)

    # one step ------------------------------------------------------------------------------------------------

    def set_verdict(self, verdict: str) -> None:
        view = self.view
        if view.step_id is None or not view.editable():
            return
        view.edit({"verdict": verdict}, now=True)
        position = view.steps[view.step_id].position
        hints = {
            Verdict.CORRECT: self.tr("Step %1 is correct."),
            Verdict.WRONG: self.tr("Step %1 is wrong: Ctrl+I inserts the step that should have been taken."),
            Verdict.REDUNDANT: self.tr("Step %1 is redundant: Ctrl+Shift+Delete leaves it out."),
        }
        view.status_message.emit(fill(hints[Verdict(verdict)], position))

    def keep_original(self) -> None:
        view, step_id = self.view, self.view.step_id
        if step_id is None or not view.editable():
            return
        view.saver.run(self.tr("Keeping the original"), lambda e: _keep_original(e, step_id), self._kept)

    def _kept(self, result: tuple[LabelledStep, list[str]]) -> None:
        step, kept = result
        self.view.apply_saved_step(self.view.current_trajectory() or 0, step)
        if not kept:
            self.view.status_message.emit(self.tr("Nothing to keep: every stage with an original is labelled."))
            return
        names = {"think": self.tr("think"), "action_text": self.tr("action"), "tool_call": self.tr("tool call")}
        kept_text = ", ".join(names[stage] for stage in kept)
        self.view.status_message.emit(fill(self.tr("Kept the original %1 of step %2."), kept_text, step.position))

    def insert_corrected_step(self) -> None:
        view, step_id = self.view, self.view.step_id
        if step_id is None or not view.editable():
            return
        if view.steps[step_id].origin != "collected":
            view.status_message.emit(self.tr("A corrected step follows a collected step; this one was inserted."))
            return

        def insert(editor: Editor) -> Reloaded:
            inserted = editor.insert_corrected_step(step_id)
            return Reloaded(editor.load(), inserted.id)

        view.saver.run(self.tr("Inserting a corrected step"), insert, self._inserted)

    def _inserted(self, result: Reloaded) -> None:
        self.view.show_reloaded(result.record, result.step_id)
        step = self.view.steps.get(result.step_id) if result.step_id is not None else None
        if step is not None:
            message = self.tr("Inserted step %1: label what should have been done on this screen.")
            self.view.status_message.emit(fill(message, step.position))
            self.view.show_stage("think")

    def remove_step(self) -> None:
        """Leave the step out of the labelled trajectory, or take a removed step back."""
        view, step_id = self.view, self.view.step_id
        if step_id is None or not view.editable():
            return
        removed = view.steps[step_id].removed

        def toggle(editor: Editor) -> LabelledStep:
            return editor.restore_step(step_id) if removed else editor.remove_step(step_id)

        view.saver.run(self.tr("Removing the step"), toggle, self._removed)

    def _removed(self, step: LabelledStep) -> None:
        self.view.apply_saved_step(self.view.current_trajectory() or 0, step)
        message = (
            self.tr("Step %1 is left out of the labelled trajectory; the collected record stays.")
            if step.removed
            else self.tr("Step %1 is back in the labelled trajectory.")
        )
        self.view.status_message.emit(fill(message, step.position))

    # undo ---------------------------------------------------------------------------------------------------

    def undo(self) -> None:
        if self.view.editable():
            self.view.saver.run(self.tr("Undoing"), _undo, lambda result: self._stepped(result, undo=True))

    def redo(self) -> None:
        if self.view.editable():
            self.view.saver.run(self.tr("Redoing"), _redo, lambda result: self._stepped(result, undo=False))

    def _stepped(self, result: Reloaded, undo: bool) -> None:
        if not result.done:
            nothing = self.tr("Nothing to undo.") if undo else self.tr("Nothing to redo.")
            self.view.status_message.emit(nothing)
            return
        self.view.show_reloaded(result.record, result.step_id)
        step = self.view.steps.get(result.step_id) if result.step_id is not None else None
        if step is None:
            done = self.tr("Undid the outcome.") if undo else self.tr("Redid the outcome.")
        else:
            done = fill(
                self.tr("Undid a change of step %1.") if undo else self.tr("Redid a change of step %1."), step.position
            )
        self.view.status_message.emit(done)

    # the trajectory -------------------------------------------------------------------------------------------

    def set_outcome(self, outcome: str) -> None:
        if self.view.editable():
            self.view.saver.run(
                self.tr("Saving the outcome"), lambda e: e.set_outcome(outcome), lambda r: self.view.show_reloaded(r)
            )

    def submit_for_review(self, anyway: bool = False, outcome: str | None = None) -> None:
        """Hand the trajectory to review; with an `outcome`, set it first (Task Completed and Submit)."""
        if self.view.editable():
            submit = lambda e: _submit(e, anyway, outcome)  # noqa: E731
            done = lambda result: self._submitted(result, outcome_set=outcome is not None)  # noqa: E731
            self.view.saver.run(self.tr("Submitting for review"), submit, done)

    def complete_and_submit(self) -> None:
        self.submit_for_review(outcome="success")

    def _submitted(self, record: LabelledTrajectory | IncompleteWork, outcome_set: bool = False) -> None:
        if isinstance(record, IncompleteWork):
            if outcome_set and self.view.record is not None:  # the outcome was saved on the way: the header shows it
                self.view.open_trajectory(self.view.record.id or 0)
            self._incomplete(record.gaps)
            return
        self.view.show_reloaded(record)
        self.view.announce(Changes.of([record.id] if record.id is not None else [], review=True))
        open_steps = sum(1 for s in record.steps if not s.removed and s.label.verdict is None)
        notes = [self.tr("Submitted for review.")]
        if record.label_outcome is None:
            notes.append(self.tr("The outcome is not set."))
        if open_steps:
            notes.append(self.tr("%n step(s) have no verdict.", "", open_steps))
        unboxed = steps_without_box(record)
        if unboxed:
            notes.append(
                fill(
                    self.tr("No target box on step %1: their clicks are scored by distance only."),
                    ", ".join(str(position) for position in unboxed),
                )
            )
        self.view.status_message.emit(" ".join(notes))

    def _incomplete(self, gaps: ReviewGaps) -> None:
        """Say what is missing; a reviewer or an admin may submit all the same (recorded with the review)."""
        names = {
            "think": self.tr("think"),
            "action_text": self.tr("action"),
            "tool_call": self.tr("tool call"),
            "verdict": self.tr("verdict"),
        }
        lines = [
            fill(self.tr("Step %1: %2"), position, ", ".join(names[m] for m in missing))
            for position, missing in gaps.steps
        ]
        lines += [self.tr("The outcome (task completed or not) is not set.")] if gaps.outcome else []
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Not ready for review"), "", parent=self.view)
        box.setObjectName("incomplete-submit")
        box.setText(self.tr("This trajectory is not finished. What is missing:"))
        box.setInformativeText("\n".join(lines[:12] + (["…"] if len(lines) > 12 else [])))
        box.addButton(QMessageBox.StandardButton.Ok)
        anyway = None
        if identity.current_person()[1] in SUBMIT_ANYWAY_ROLES:
            anyway = box.addButton(self.tr("Submit Anyway"), QMessageBox.ButtonRole.DestructiveRole)
        box.exec()
        if anyway is not None and box.clickedButton() is anyway:
            self.submit_for_review(anyway=True)
        else:
            self.view.status_message.emit(self.tr("Not submitted: finish the steps listed, then submit again."))

    def next_trajectory(self) -> None:
        view = self.view
        workspace, name = view.workspace, identity.current_person()[0]
        if workspace is None:
            view.status_message.emit(self.tr("Open a workspace first."))
            return
        if not name:
            view.status_message.emit(view.who_first())
            return
        current = view.current_trajectory()
        view.saver.flush()
        view.jobs.submit(
            self.tr("Finding your next trajectory"),
            lambda: review.work_queue(workspace, name),
            on_result=lambda items: self._next_found(items, current),
        )

    def previous_trajectory(self) -> None:
        """Back to the trajectory opened before this one (this session's trail)."""
        view = self.view
        current = view.current_trajectory()
        trail = [i for i in self.opened if i != current]
        if not trail:
            view.status_message.emit(self.tr("No trajectory was opened before this one."))
            return
        self.opened.remove(trail[-1])
        if current is not None and current in self.opened:
            self.opened.remove(current)  # the one left is opened again and comes last on the trail
        view.open_trajectory(trail[-1])

    def opening(self, trajectory_id: int) -> None:
        if trajectory_id in self.opened:
            self.opened.remove(trajectory_id)
        self.opened.append(trajectory_id)

    def _next_found(self, items: list[review.QueueItem], current: int | None) -> None:
        ids = [item.trajectory_id for item in items]
        following = ids[ids.index(current) + 1 :] if current in ids else ids
        choice = next((i for i in following if i != current), None)
        if choice is None:
            self.view.status_message.emit(self.tr("Your queue is empty: nothing else to label."))
            return
        item = items[ids.index(choice)]
        if item.comment and item.review_status == "rejected":
            self.view.status_message.emit(fill(self.tr("Rejected, to fix: %1"), item.comment))
        self.view.open_trajectory(choice)

    # history --------------------------------------------------------------------------------------------------

    def toggle_history(self) -> None:
        self.view.panel.show_history(self.view.panel.history.isHidden())  # isHidden: the pane's own switch
        self.refresh_history()

    def refresh_history(self) -> None:
        history, editor = self.view.panel.history, self.view.saver.editor
        if not history.isHidden() and editor is not None:
            # submit, not run: reading must not hurry the typing that waits for its pause
            self.view.saver.submit(self.tr("Reading the history"), editor.history, history.set_revisions)

    def restore_revision(self, revision_id: int) -> None:
        if not self.view.editable():
            return

        def restore(editor: Editor) -> Reloaded:
            step_id = editor.restore(revision_id)
            return Reloaded(editor.load(), step_id)

        self.view.saver.run(self.tr("Restoring a value from the history"), restore, self._restored)

    def _restored(self, result: Reloaded) -> None:
        self.view.show_reloaded(result.record, result.step_id)
        self.view.status_message.emit(self.tr("Restored the value from the history (Ctrl+Z takes it back)."))
