"""Saving labels without a save button: typing is saved after half a second of quiet, everything else at once.

Every write goes through one ``annotation.Editor`` on the Jobs queue "annotate", so saves, undo and reloads
run in the order they were asked for and never on the GUI thread. The saver knows which fields have an
unsaved or unconfirmed edit, so that a result coming back never overwrites what was typed meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QTimer, Signal

from annotator.domain.trajectory import LabelledStep
from annotator.services.annotation import Editor, LabelError
from annotator.storage.workspace import Workspace
from annotator.ui.workers import Jobs, describe

QUEUE = "annotate"
TYPING_PAUSE_MS = 500  # how long typing must pause before the text is saved
Key = tuple[int, str]  # (step id, field)


class LabelSaver(QObject):
    """One person's writes to one trajectory, in order, off the GUI thread."""

    step_saved = Signal(int, object)  # trajectory id, the LabelledStep as saved
    save_failed = Signal(int, str, object)  # step id, what went wrong, the error (the edit stays in its editor)

    def __init__(self, jobs: Jobs, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self.editor: Editor | None = None
        self._pending: dict[Key, Any] = {}
        self._sending: dict[Key, int] = {}  # saves submitted and not yet answered, per field
        self._queued = 0  # jobs of this saver on the queue, saves or not
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(TYPING_PAUSE_MS)
        self.timer.timeout.connect(self.flush)

    def start(self, workspace: Workspace, trajectory_id: int, person: str, role: str) -> None:
        """Write to this trajectory as this person from now on (after what is pending is saved)."""
        self.flush()
        self.editor = Editor(workspace, trajectory_id, person, role)

    def stop(self) -> None:
        self.flush()
        self.editor = None

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
        return key in self._pending or self._sending.get(key, 0) > 0

    def _send(self, step_id: int, changes: dict[str, Any]) -> None:
        editor = self.editor
        if editor is None:
            return
        keys = [(step_id, field) for field in changes]
        for key in keys:
            self._sending[key] = self._sending.get(key, 0) + 1

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
            if not isinstance(error, LabelError):  # a passing failure (a locked database): send it again later
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
        self.submit(title, lambda: operation(editor), on_result)
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
        return self._queued == 0
