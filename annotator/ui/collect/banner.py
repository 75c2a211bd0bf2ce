"""The banner at the top of the Collect view when a phone is gone: what happened, what is safe, what to do."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from annotator.ui.i18n import Retranslating, fill


@dataclass(frozen=True)
class LostRun:
    """A trajectory that a disconnection interrupted: it stays open until resumed or closed."""

    trajectory_id: int
    steps: int
    agent: bool  # resumed by the agent (else by the person)


class DisconnectBanner(Retranslating, QFrame):
    resume_requested = Signal()
    close_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("collect-banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        # Amber with dark text: readable in light and dark themes, and unlike any other part of the view.
        self.setStyleSheet(
            "#collect-banner { background: #fff4ce; border: 1px solid #e0b400; border-radius: 4px; }"
            "#collect-banner QLabel { color: #3b2f00; }"
        )
        self.serial = ""
        self.lost: LostRun | None = None
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.resume = QPushButton(self)
        self.resume.setObjectName("collect-banner-resume")
        self.resume.clicked.connect(self.resume_requested)
        self.close_run = QPushButton(self)
        self.close_run.setObjectName("collect-banner-close")
        self.close_run.clicked.connect(self.close_requested)
        self.dismiss = QPushButton(self)
        self.dismiss.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.addWidget(self.message, 1)
        for button in (self.resume, self.close_run, self.dismiss):
            layout.addWidget(button)
        self.hide()
        self.retranslate()

    def show_lost(self, serial: str, lost: LostRun | None) -> None:
        """Tell that `serial` is gone; with `lost`, also that its trajectory is safe and can go on."""
        self.serial, self.lost = serial, lost
        self.retranslate()
        self.show()

    def clear(self) -> None:
        self.lost = None
        self.hide()

    def retranslate(self) -> None:
        if self.lost is None:
            text = self.tr("The phone %1 is disconnected. Reconnect it, then refresh the device list.")
        else:
            text = self.tr(
                "The phone %1 is disconnected. The trajectory so far (%n step(s)) is saved; "
                "reconnect and resume, or close it.",
                "",
                self.lost.steps,
            )
        self.message.setText(fill(text, self.serial))
        self.resume.setVisible(self.lost is not None)
        self.close_run.setVisible(self.lost is not None)
        self.resume.setText(self.tr("Resume"))
        self.resume.setToolTip(self.tr("Go on with the trajectory on the chosen phone, from its current screen"))
        self.close_run.setText(self.tr("Close it"))
        self.close_run.setToolTip(self.tr("Keep the trajectory as it is, interrupted, and stop offering to resume it"))
        self.dismiss.setText(self.tr("Hide"))
