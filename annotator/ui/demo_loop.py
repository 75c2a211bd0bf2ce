"""The demo's training loop in the status bar: export, tiny-sft, tiny-grpo and evaluation run in the background
once the demo workspace is open (annotator.demo.workspace.loop), and a label says how far they are, with Cancel.

The loop runs on a thread of its own (its `Jobs` pool of one), waiting for the `trainer-bridge` commands it starts;
its progress comes back to the GUI thread as a queued signal. Quitting the app cancels it and waits for its
commands to end, so no training process outlives the window.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMainWindow, QPushButton, QWidget

from annotator.demo.workspace.loop import (
    Cancelled,
    DemoLoop,
    LoopProgress,
    LoopReport,
    TrainingNotInstalled,
)
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.workers import Jobs, describe

QUIT_WAIT_MS = 60_000  # `train` stops its run's processes within 20 s; then the loop's thread ends


class DemoLoopBar(Retranslating, QWidget):
    """A label saying which step of the loop runs (and how far it is) and a Cancel button."""

    progressed = Signal(object)  # LoopProgress, emitted on the loop's thread
    # "done", "nothing" (every result was there), "cancelled", "failed" or "no-training" (the extra is missing)
    finished = Signal(str)

    def __init__(self, data_dir: Path, parent: QWidget | None = None, settings: tuple[str, ...] = ()) -> None:
        super().__init__(parent)
        self.setObjectName("demoLoop")
        self.loop = DemoLoop(data_dir, on_progress=self.progressed.emit, settings=settings)
        self.jobs = Jobs(self, max_threads=1)
        self.state, self.error = "starting", ""
        self.progress: LoopProgress | None = None
        self.report: LoopReport | None = None
        self.label, self.cancel_button = QLabel(), QPushButton()
        self.cancel_button.clicked.connect(self.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.cancel_button)
        self.progressed.connect(self._progressed)
        self.retranslate()

    def start(self) -> None:
        self.jobs.submit("demo training loop", self._run, on_result=self._ended, on_error=self._failed)

    def cancel(self) -> None:
        if self.state in ("starting", "running"):
            self.state = "cancelling"
            self.loop.cancel()
            self.retranslate()

    def shutdown(self, wait_ms: int = QUIT_WAIT_MS) -> bool:
        """Cancel and wait for the loop's thread (the app quits): True once it has ended."""
        self.cancel()
        return self.jobs.wait(wait_ms)

    @property
    def running(self) -> bool:
        return self.state in ("starting", "running", "cancelling")

    def _run(self) -> LoopReport | None:
        try:
            return self.loop.run()
        except Cancelled:
            return None  # not a failure: the person asked for it

    def _progressed(self, progress: LoopProgress) -> None:
        if self.state == "cancelling":
            return
        self.state, self.progress = "running", progress
        self.retranslate()

    def _ended(self, report: LoopReport | None) -> None:
        self.report = report
        self.state = "cancelled" if report is None else "done" if report.ran else "nothing"
        self._show_end()

    def _failed(self, error: BaseException) -> None:  # logged with its traceback by Jobs
        self.state = "no-training" if isinstance(error, TrainingNotInstalled) else "failed"
        self.error = describe(error)
        self._show_end()

    def _show_end(self) -> None:
        self.cancel_button.hide()
        self.setVisible(self.state != "nothing")  # opening a finished demo again: nothing to say
        self.retranslate()
        self.finished.emit(self.state)

    def retranslate(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setEnabled(self.state != "cancelling")
        self.cancel_button.setToolTip(self.tr("Stop the demo's training loop; opening the demo again goes on"))
        self.label.setText(self._text())
        self.label.setToolTip(
            fill(
                self.tr(
                    "The demo closes the loop: it exports the accepted trajectories, trains "
                    "tiny-sft, then tiny-grpo, evaluates the untrained model and both results "
                    "on the trained steps, and runs the trained agent on a virtual phone. "
                    "Commands and their output: %1"
                ),
                self.loop.paths.log,
            )
        )

    def _text(self) -> str:
        if self.state == "starting":
            return self.tr("Demo: starting the training loop…")
        if self.state == "cancelling":
            return self.tr("Demo: cancelling the training loop…")
        if self.state == "cancelled":
            return self.tr("Demo: training loop cancelled; opening the demo again goes on.")
        if self.state == "no-training":
            return self.tr(
                "Demo: exported; to train and evaluate, install the training packages: "
                "pip install 'mobile-annotator[train]'"
            )
        if self.state == "failed":
            return fill(self.tr("Demo: the training loop failed: %1"), self.error)
        if self.state in ("done", "nothing"):
            seconds = round(self.report.total_s) if self.report else 0
            return fill(
                self.tr(
                    "Demo: loop closed in %1 s; see the Runs and Models views. The tiny model memorises "
                    "the steps and tasks it was trained on; it does not generalise to others."
                ),
                seconds,
            )
        return self._running_text()

    def _running_text(self) -> str:
        progress = self.progress
        if progress is None:
            return self.tr("Demo: starting the training loop…")
        step = self._step_name(progress.step)
        if progress.done is None or progress.state != "running":
            return fill(self.tr("Demo: %1 (%2/%3)…"), step, progress.number, progress.total)
        if progress.step == "evaluate":
            template = self.tr("Demo: %1 (%2/%3), %4 of %5 steps…")
        elif progress.step == "online":
            template = self.tr("Demo: %1 (%2/%3), %4 of %5 tasks…")
        else:
            template = self.tr("Demo: %1 (%2/%3), step %4 of %5…")
        return fill(template, step, progress.number, progress.total, progress.done, progress.of or "?")

    def _step_name(self, step: str) -> str:
        names = {
            "export": self.tr("exporting the accepted trajectories"),
            "tiny-sft": self.tr("training tiny-sft"),
            "tiny-grpo": self.tr("training tiny-grpo"),
            "evaluate": self.tr("evaluating the models"),
            "online": self.tr("running the trained agent on a virtual phone"),
        }
        return names.get(step, step)


def attach_demo_loop(window: QMainWindow, data_dir: Path) -> DemoLoopBar:
    """Put the loop's bar in the window's status bar and start it; once per window (the demo's workspace)."""
    existing = window.findChild(DemoLoopBar)
    if existing is not None:
        return existing
    bar = DemoLoopBar(data_dir, window)
    window.statusBar().addPermanentWidget(bar)
    app = QCoreApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(bar.shutdown)
    bar.start()
    return bar
