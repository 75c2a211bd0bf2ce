"""The right pane of the Collect view: what to collect, the recording and agent controls, progress, the steps."""

from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from annotator.ui.collect.forms import AgentForm, TaskForm
from annotator.ui.collect.progress import ProgressLabel
from annotator.ui.collect.steps import StepList
from annotator.ui.i18n import Retranslating


class RunPanel(Retranslating, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.task = TaskForm(self)
        self.record_button = QPushButton(self)
        self.record_button.setObjectName("collect-record")
        self.stop_button = QPushButton(self)
        self.stop_button.setObjectName("collect-stop")
        self.agent = AgentForm(self)
        self.progress = ProgressLabel(self)
        self.steps_box = QGroupBox(self)
        self.steps = StepList(self.steps_box)
        QVBoxLayout(self.steps_box).addWidget(self.steps)
        buttons = QHBoxLayout()
        buttons.addWidget(self.record_button, 1)
        buttons.addWidget(self.stop_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.task)
        layout.addLayout(buttons)
        layout.addWidget(self.agent)
        layout.addWidget(self.progress)
        layout.addWidget(self.steps_box, 1)
        self.retranslate()

    def set_running(self, running: bool, can_start: bool) -> None:
        self.record_button.setEnabled(can_start)
        self.agent.start.setEnabled(can_start)
        self.stop_button.setEnabled(running)
        self.task.setEnabled(not running)

    def retranslate(self) -> None:
        self.record_button.setText(self.tr("Start recording"))
        self.record_button.setToolTip(self.tr("Record a teleoperated trajectory for the chosen instruction"))
        self.stop_button.setText(self.tr("Stop"))
        self.stop_button.setToolTip(self.tr("End the recording or the agent run after the current step"))
        self.steps_box.setTitle(self.tr("Recorded steps"))
