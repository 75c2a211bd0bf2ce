"""Saving labels without a save button: typing is saved after half a second of quiet, everything else at once.

Every write goes through one ``annotation.Editor`` on the Jobs queue "annotate", so saves, undo and reloads
run in the order they were asked for and never on the GUI thread. The saver knows which fields have an
unsaved or unconfirmed edit, so that a result coming back never overwrites what was typed meanwhile.

A save refused because someone else changed the step meanwhile (StaleLabelError) is held, not sent again: the
edit stays in the view as unsaved until the person merges it (``resolve``, from the merge dialog) or changes it
again (which offers the merge again). A save that failed for a passing reason (a busy database) is sent again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QTimer, Signal

from annotator.domain.trajectory import LabelledStep
from annotator.services.annotation import Editor, LabelError, StaleLabelError
from annotator.storage.workspace import Workspace
from annotator.ui.workers import Jobs, describe

log = logging.getLogger(__name__)
QUEUE = "annotate"
TYPING_PAUSE_MS = 500  # how long typing must pause before the text is saved
Key = tuple[int, str]  # (step id, field)


class LabelSaver(QObject):
    """One person's writes to one trajectory, in order, off the GUI thread."""

    step_saved = Signal(int, object)  # trajectory id, the LabelledStep as saved
    save_failed = Signal(int, str, object)  # step id, what went wrong, the error (the edit stays in its editor)
    reloaded = Signal(object)  # the whole LabelledTrajectory, read again after a merge of the outcome
    held_changed = Signal(int)  # trajectory id: its edits waiting for a merge changed (kept in `unmerged`)

    def __init__(self, jobs: Jobs, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self.editor: Editor | None = None
        self._pending: dict[Key, Any] = {}
        self._sending: dict[Key, int] = {}  # saves submitted and not yet answered, per field
        self._held: dict[Key, Any] = {}  # edits refused as stale, waiting for the person to merge them
        self._read: tuple[int, dict[int | None, int]] | None = None  # a trajectory's versions read with its values
        self._queued = 0  # jobs of this saver on the queue, saves or not
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(TYPING_PAUSE_MS)
        self.timer.timeout.connect(self.flush)

    def start(self, workspace: Workspace, trajectory_id: int, person: str, role: str) -> None:
        """Write to this trajectory as this person from now on (after what is pending is saved)."""
        self.flush()
        previous = self.editor
        self.editor = Editor(workspace, trajectory_id, person, role)
        if previous is not None and previous.trajectory_id == trajectory_id:
            self.editor.adopt(previous.bases)  # another person at the same screen: the same values shown
        elif self._read is not None and self._read[0] == trajectory_id:
            self.editor.adopt(self._read[1])

    def stop(self) -> None:
        self.flush()
        self.editor = None
        self._held.clear()

    def read(self, trajectory_id: int, versions: dict[int | None, int]) -> None:
        """The versions read with the values the view now shows: the next saves are based on them (in order with
        the saves already on the queue)."""
        self._read = (trajectory_id, versions)
        editor = self.editor
        if editor is not None and editor.trajectory_id == trajectory_id:
            self.submit(self.tr("Reading the label versions"), lambda: editor.adopt(versions), lambda _none: None)

    @property
    def trajectory_id(self) -> int | None:
        return self.editor.trajectory_id if self.editor else None

    # edits --------------------------------------------------------------------------------------------------

    def type_text(self, step_id: int, field: str, value: Any) -> None:
        """An edit made by typing: saved when typing pauses (each keystroke restarts the wait)."""
        self._pending[(step_id, field)] = value
        self.timer.start()

    def change_now(self, step_id: int, changes: dict[str, Any]) -> None:
        """A deliberate edit (a click, a choice): typing waiting to be saved goes first, as its own change."""
        self.flush()
        for field in changes:
            self._pending.pop((step_id, field), None)
        self._send(step_id, dict(changes))

    def flush(self) -> None:
        """Submit every waiting edit now, one change per step."""
        self.timer.stop()
        by_step: dict[int, dict[str, Any]] = {}
        for (step_id, field), value in self._pending.items():
            by_step.setdefault(step_id, {})[field] = value
        self._pending.clear()
        for step_id, changes in by_step.items():
            self._send(step_id, changes)

    def unsaved(self, step_id: int, field: str) -> bool:
        """True while an edit of this field waits or is on its way: the editor shows newer text than the record."""
        key = (step_id, field)
        return key in self._pending or key in self._held or self._sending.get(key, 0) > 0

    def unmerged_steps(self) -> int:
        """How many steps have edits refused as stale and not merged yet."""
        return len({step_id for step_id, _field in self._held})

    def held(self, step_id: int) -> bool:
        """True while an edit of the step, refused as stale, waits for the person to merge it."""
        return any(key[0] == step_id for key in self._held)

    def held_values(self) -> dict[int, dict[str, Any]]:
        """The steps' edits waiting for a merge, by step (the outcome's, step 0, is not among them)."""
        values: dict[int, dict[str, Any]] = {}
        for (step_id, field), value in self._held.items():
            if step_id:
                values.setdefault(step_id, {})[field] = value
        return values

    def hold(self, step_id: int, values: dict[str, Any]) -> None:
        """Edits kept from before (another trajectory opened meanwhile, or the app closed) wait again, unsent."""
        self._held.update({(step_id, field): value for field, value in values.items()})
        self._held_changed()

    def _held_changed(self) -> None:
        if self.editor is not None:
            self.held_changed.emit(self.editor.trajectory_id)

    def resolve(self, stale: StaleLabelError, values: dict[str, Any] | None) -> None:
        """The person's merge of a refused save: `values` saved on top of theirs, or (None) theirs taken as they are.
        The result comes back like any save (a step) or, for the outcome, as `reloaded`."""
        editor, step_id = self.editor, stale.step_id
        if editor is None:
            return
        for field in stale.mine:
            self._held.pop((step_id or 0, field), None)
        self._held_changed()

        def merge() -> Any:
            editor.rebase(stale)
            if step_id is None:
                if values is not None:
                    editor.set_outcome(values.get("outcome"))
                return editor.load()
            return editor.change(step_id, values) if values else editor.record().step(step_id)

        def merged(result: Any) -> None:
            if step_id is None:
                self.reloaded.emit(result)
            else:
                self.step_saved.emit(editor.trajectory_id, result)

        self.submit(self.tr("Saving the merge"), merge, merged, self._refused)

    def _refused(self, error: BaseException) -> None:
        """A refused operation other than a typed save (undo, the outcome, a merge): the merge is offered."""
        if isinstance(error, StaleLabelError):
            self.save_failed.emit(error.step_id or 0, describe(error), error)

    def _send(self, step_id: int, changes: dict[str, Any]) -> None:
        editor = self.editor
        if editor is None:
            return
        keys = [(step_id, field) for field in changes]
        was_held = any(key in self._held for key in keys)
        for key in keys:
            self._sending[key] = self._sending.get(key, 0) + 1
            self._held.pop(key, None)  # sent again: a second refusal holds the newest text
        if was_held:
            self._held_changed()

        def answered() -> None:
            for key in keys:
                self._sending[key] -= 1
                if not self._sending[key]:
                    del self._sending[key]

        def saved(step: LabelledStep) -> None:
            answered()
            self.step_saved.emit(editor.trajectory_id, step)

        def failed(error: BaseException) -> None:
            answered()
            if isinstance(error, StaleLabelError):  # someone else's is newer: held until the person merges
                self._held.update({(step_id, field): value for field, value in changes.items()})
                self._held_changed()
            elif not isinstance(error, LabelError):  # a passing failure (a locked database): send it again later
                for field, value in changes.items():
                    self._pending.setdefault((step_id, field), value)
            self.save_failed.emit(step_id, describe(error), error)

        self.submit(self.tr("Saving the label"), lambda: editor.change(step_id, changes), saved, failed)

    # other operations ---------------------------------------------------------------------------------------

    def run(self, title: str, operation: Callable[[Editor], Any], on_result: Callable[[Any], None]) -> bool:
        """Run `operation(editor)` on the queue after the waiting edits; False when no trajectory is open."""
        editor = self.editor
        if editor is None:
            return False
        self.flush()
        self.submit(title, lambda: operation(editor), on_result, self._refused)
        return True

    def submit(
        self,
        title: str,
        function: Callable[[], Any],
        on_result: Callable[[Any], None],
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None:
        """Any job that must keep its place among the saves (loading the trajectory that is being edited)."""
        self._queued += 1

        def result(value: Any) -> None:
            self._queued -= 1
            on_result(value)

        def error(problem: BaseException) -> None:
            self._queued -= 1
            if on_error is not None:
                on_error(problem)

        self.jobs.submit(title, function, on_result=result, on_error=error, queue=QUEUE)

    def idle(self) -> bool:
        return not self._pending and self._queued == 0

    def wait(self, timeout_ms: int = 10_000) -> bool:
        """Save everything now and wait until it is written (closing): results are still delivered.

        The queue starts its next job from the GUI thread, so events are processed while waiting.
        """
        self.flush()
        deadline = time.monotonic() + timeout_ms / 1000
        while self._queued and time.monotonic() < deadline:
            self.jobs.wait(20)
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        if self._held:  # refused as stale and not merged: at least the log keeps the text
            log.warning("edits not saved (someone else changed these steps; not merged): %s", self._held)
        return self._queued == 0
