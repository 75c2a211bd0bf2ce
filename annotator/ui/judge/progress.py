"""How a judge run goes: the run on a worker (``work``), and on screen a bar, "12 of 40 judged: …", the last
error, and the summary when it ends.

The run's progress comes from its worker threads; ``ProgressRelay`` carries it to the GUI thread through a
queued signal. ``RunPanel`` keeps what it shows as data, so a language change renders it again.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QLocale, QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QVBoxLayout, QWidget

from annotator.judge.runner import RunProgress, RunSummary
from annotator.services.judging import run_judge
from annotator.storage.workspace import Workspace
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill
from annotator.ui.judge.form import RunRequest

CONTEXT = "RunPanel"
STATUS = {  # RunSummary.status as a person reads it
    "complete": QT_TRANSLATE_NOOP("RunPanel", "complete"),
    "stopped": QT_TRANSLATE_NOOP("RunPanel", "stopped"),
    "failed": QT_TRANSLATE_NOOP("RunPanel", "failed"),
}


class ProgressRelay(QObject):
    """Call it from any thread with ``(run id, RunProgress)``; `progressed` reaches the GUI thread queued."""

    progressed = Signal(object)

    def send(self, run_id: int, progress: RunProgress) -> None:
        self.progressed.emit((run_id, progress))


@dataclass
class Run:
    id: int
    workspace: Workspace
    stop: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)  # set by the worker, whatever the end
    stopping: bool = False


def work(run: Run, request: RunRequest, relay: ProgressRelay) -> RunSummary:
    """The run, on a worker thread; `run.finished` is set however it ends."""
    try:
        return run_judge(
            run.workspace,
            request.settings,
            request.endpoint,
            request.selection,
            concurrency=request.concurrency,
            on_progress=lambda progress: relay.send(run.id, progress),
            stop=run.stop,
        )
    finally:
        run.finished.set()


def status_text(status: str) -> str:
    source = STATUS.get(status)
    return QCoreApplication.translate(CONTEXT, source) if source else status


class RunPanel(Retranslating, QWidget):
    """The state of the current or the last run; empty before the first one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("judge-run-panel")
        self.progress: RunProgress | None = None
        self.summary: RunSummary | None = None
        self.last_error: tuple[int, str] | None = None  # trajectory id, why it has no usable score
        self.running = self.stopping = False
        self.message_text = ""  # an error of the run or of starting it (already in the user's language)
        self.bar = QProgressBar(self)
        self.bar.setObjectName("judge-progress-bar")
        self.bar.setTextVisible(True)
        self.line = self._label("judge-progress")
        self.error = self._label("judge-last-error")
        self.error.setStyleSheet("color: #b3261e")
        self.result = self._label("judge-summary")
        self.message = self._label("judge-message")
        self.message.setStyleSheet("color: #b3261e")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.bar, self.line, self.error, self.result, self.message):
            layout.addWidget(widget)
        self.show_progress()

    def _label(self, name: str) -> QLabel:
        label = QLabel(self)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # error texts can be copied
        return label

    # what happens ---------------------------------------------------------------------------------------------

    def started(self) -> None:
        self.progress, self.summary, self.last_error, self.message_text = None, None, None, ""
        self.running, self.stopping = True, False
        self.show_progress()

    def advanced(self, progress: RunProgress) -> None:
        if self.progress is not None and progress.done < self.progress.done:
            return  # worker threads may report out of order; the larger count is the newer
        self.progress = progress
        if progress.last.error:
            self.last_error = (progress.last.trajectory_id, progress.last.error)
        self.show_progress()

    def stop_requested(self) -> None:
        self.stopping = True
        self.show_progress()

    def finished(self, summary: RunSummary) -> None:
        self.summary, self.running, self.stopping = summary, False, False
        self.show_progress()

    def failed(self, message: str) -> None:
        """The run could not start, broke, or was left when the workspace closed (an endpoint that refuses is
        not this: that run ends with a summary that holds the reason)."""
        self.message_text, self.running, self.stopping = message, False, False
        self.show_progress()

    # showing --------------------------------------------------------------------------------------------------

    def summary_text(self) -> str:
        summary = self.summary
        if summary is None:
            return ""
        if summary.message:  # ended early: the endpoint refused, or stayed unavailable
            text = self.tr("Judge %1, run %2 ended early (%3 scored, %4 without a usable score): %5")
            return fill(text, summary.config_id, summary.run_id, summary.scored, summary.failed, summary.message)
        text = self.tr("Judge %1, run %2: %3 scored, %4 without a usable score, %5 scored before; %6 in %7 s")
        seconds = QLocale().toString(summary.seconds, "f", 1)
        shown = fill(
            text,
            summary.config_id,
            summary.run_id,
            summary.scored,
            summary.failed,
            summary.skipped,
            status_text(summary.status),
            seconds,
        )
        if summary.screens_dropped:
            dropped = self.tr("The image cap left out %1 screenshots in %2 trajectories (the first and last are kept).")
            shown += " " + fill(dropped, summary.screens_dropped, summary.trajectories_with_screens_dropped)
        return shown

    def show_progress(self) -> None:
        progress, summary = self.progress, self.summary
        if summary is not None:
            total = summary.requested - summary.skipped
            self.bar.setRange(0, max(total, 1))
            self.bar.setValue(summary.scored + summary.failed if total else 1)
        elif progress is not None:
            self.bar.setRange(0, max(progress.total, 1))
            self.bar.setValue(progress.done)
        elif self.running:
            self.bar.setRange(0, 0)  # busy: choosing the trajectories, or the first answer is on its way
        else:
            self.bar.setRange(0, 1)
            self.bar.setValue(0)
        self.bar.setVisible(self.running or progress is not None or summary is not None)
        line = ""
        if progress is not None:
            text = self.tr("%1 of %2 judged: %3 scored, %4 without a usable score")
            line = fill(text, progress.done, progress.total, progress.scored, progress.failed)
        elif self.running:
            line = self.tr("Starting the run…")
        if self.stopping:
            line += "\n" + self.tr("Stopping after the requests in flight…")
        self.line.setText(line.strip())
        self.line.setVisible(bool(line.strip()))
        if self.last_error is not None:
            self.error.setText(fill(self.tr("Last error (trajectory %1): %2"), *self.last_error))
        self.error.setVisible(self.last_error is not None)
        self.result.setText(self.summary_text())
        self.result.setVisible(summary is not None)
        self.message.setText(self.message_text)
        self.message.setVisible(bool(self.message_text))

    def retranslate(self) -> None:
        self.show_progress()
