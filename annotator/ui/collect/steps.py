"""The step list: each recorded step as it is stored, with a thumbnail of the screen it acted on."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QImage, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget

from annotator.collect.session import StepEvent
from annotator.ui.i18n import fill

STEP_ROLE = Qt.ItemDataRole.UserRole


class StepList(QListWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("collect-steps")
        self.setIconSize(QSize(32, 72))
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)

    def add_step(self, event: StepEvent, thumbnail: QImage, run: int | None = None) -> None:
        """Append a recorded step; `run` numbers it within a session of several agent runs."""
        text = f"{event.index + 1}. {event.action}"
        if run is not None:
            text = fill(self.tr("Run %1 · %2"), run, text)
        if event.note:
            text += "\n⚠ " + event.note
        item = QListWidgetItem(text)
        item.setData(STEP_ROLE, event)
        if not thumbnail.isNull():
            item.setIcon(QIcon(QPixmap.fromImage(thumbnail)))
        total = event.timings_ms.get("total")
        if total is not None:
            item.setToolTip(
                fill(
                    self.tr("Trajectory %1, step %2: recorded in %3 ms"),
                    event.trajectory_id,
                    event.index + 1,
                    round(total),
                )
            )
        self.addItem(item)
        self.scrollToBottom()

    def events(self) -> list[StepEvent]:
        return [self.item(row).data(STEP_ROLE) for row in range(self.count())]
