"""The line that says how collecting goes: which run, which step, how the last one ended, what gestures do."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from annotator.collect.session import RunResult
from annotator.services.live_collect import Phone
from annotator.ui import labels
from annotator.ui.collect.session import SessionThread
from annotator.ui.i18n import fill


class ProgressLabel(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("collect-progress")
        self.setWordWrap(True)

    def show_progress(
        self, session: SessionThread | None, session_phone: Phone | None, phone: Phone | None, stopping: bool, last: str
    ) -> None:
        """The running session's progress; else the last outcome and what gestures do now."""
        if session is None or session_phone is None:
            if phone is None or not phone.usable:
                idle = self.tr("Choose a phone on the left.")
            else:
                idle = self.tr("Not recording: gestures and buttons move the phone, nothing is saved.")
            self.setText(f"{last}\n{idle}" if last else idle)
            return
        if session.agent:
            run = min(session.finished_runs + 1, session.runs)
            step = session.steps_in_run if len(session.run_ids) > session.finished_runs else 0
            text = fill(self.tr("Agent on %1: run %2 of %3, step %4"), session_phone.serial, run, session.runs, step)
        else:
            text = fill(self.tr("Recording on %1: %n step(s) so far", "", session.steps_in_run), session_phone.serial)
        if stopping:
            text += "\n" + self.tr("Stopping after the current step…")
        self.setText(text)

    def summary(self, result: RunResult, with_reason: bool = True) -> str:
        """E.g. "Trajectory 12 saved: 4 steps, complete, task completed (terminate)"; the reason (the engine's
        words) can be left out where something else explains it, such as the disconnection banner."""
        status = labels.label(labels.STATUS, str(result.status))
        outcome = labels.label(labels.OUTCOME, str(result.outcome) if result.outcome else None)
        state = f"{status}, {outcome}" if outcome else status
        if not with_reason:
            return fill(self.tr("Trajectory %1 saved: %n step(s), %2.", "", result.steps), result.trajectory_id, state)
        text = self.tr("Trajectory %1 saved: %n step(s), %2 (%3).", "", result.steps)
        return fill(text, result.trajectory_id, state, result.stop_reason)
