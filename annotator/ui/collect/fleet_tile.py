"""One phone of the several-phones grid: its latest screen, the task it runs, its step and its state."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from annotator.domain.trajectory import TrajectoryStatus
from annotator.services.parallel_collecting import (
    PhoneEvent,
    PhoneFinished,
    PhoneLost,
    RunEnded,
    RunStarted,
    StepRecorded,
)
from annotator.ui import labels
from annotator.ui.i18n import fill

SCREEN_HEIGHT = 300
# The tile's frame says the phone's state at a glance: working, lost, done.
BORDERS = {"running": "#2e7d32", "lost": "#c62828", "finished": "#9e9e9e", "waiting": "#bdbdbd"}


def screen_thumbnail(screen: QImage) -> QImage:
    """The screen at the tile's size (made on the phone's thread: the GUI thread only draws it)."""
    return screen.scaledToHeight(SCREEN_HEIGHT, Qt.TransformationMode.SmoothTransformation)


class PhoneTile(QFrame):
    def __init__(self, serial: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"fleet-tile-{serial}")
        self.serial = serial
        self.state = "waiting"
        self.title = QLabel(f"<b>{serial}</b>", self)
        self.picture = QLabel(self)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setMinimumHeight(SCREEN_HEIGHT)
        self.task = QLabel(self)
        self.task.setWordWrap(True)
        self.step = QLabel(self)
        self.step.setWordWrap(True)
        self.status = QLabel(self.tr("waiting for a run"), self)
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        for widget in (self.title, self.picture, self.task, self.step, self.status):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.setMinimumWidth(220)
        self._show_state("waiting")

    def show_screen(self, thumbnail: QImage) -> None:
        self.picture.setPixmap(QPixmap.fromImage(thumbnail))

    def show_event(self, event: PhoneEvent) -> None:
        if isinstance(event, RunStarted):
            self.task.setText(fill(self.tr("Run %1 of “%2”"), event.job.number, event.job.task.text))
            self.task.setToolTip(event.job.task.text)
            self.step.setText(fill(self.tr("trajectory %1"), event.trajectory_id))
            self.status.setText(self.tr("running"))
            self._show_state("running")
        elif isinstance(event, StepRecorded):
            self.step.setText(fill(self.tr("step %1: %2"), event.step.index, event.step.action))
        elif isinstance(event, RunEnded):
            result = event.result
            status = labels.label(labels.STATUS, str(result.status))
            outcome = labels.label(labels.OUTCOME, str(result.outcome)) if result.outcome else ""
            shown = f"{status}, {outcome}" if outcome else status
            self.status.setText(
                fill(self.tr("trajectory %1: %2 after %3 steps"), result.trajectory_id, shown, result.steps)
            )
            self.status.setToolTip(result.stop_reason)
            if result.status == TrajectoryStatus.INTERRUPTED:
                self.status.setText(self.status.text() + " · " + result.stop_reason)
        elif isinstance(event, PhoneLost):
            self.status.setText(fill(self.tr("phone lost: %1"), event.reason))
            self._show_state("lost")
        elif isinstance(event, PhoneFinished):
            summary = event.summary
            if summary.lost is None:
                self.status.setText(
                    fill(
                        self.tr("done: %1 of %2 runs complete, %3 steps"), summary.complete, summary.runs, summary.steps
                    )
                )
                self._show_state("finished")

    def _show_state(self, state: str) -> None:
        self.state = state
        self.setStyleSheet(f"PhoneTile {{ border: 2px solid {BORDERS[state]}; border-radius: 4px; }}")
