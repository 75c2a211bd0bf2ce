"""Teleoperation beyond touches: the system buttons, typing text, waiting, and ending the task."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDoubleSpinBox, QGridLayout, QHBoxLayout, QLineEdit, QPushButton, QWidget

from annotator.domain import actions as act
from annotator.ui.i18n import Retranslating, fill


class TeleopBar(Retranslating, QWidget):
    """Emits `action(act.Action)`; `set_state` says which buttons make sense now."""

    action = Signal(object)
    refresh_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.buttons = {name: QPushButton(self) for name in act.SYSTEM_BUTTONS}
        for name, button in self.buttons.items():
            button.setObjectName(f"collect-button-{name.lower()}")
            button.clicked.connect(
                lambda _checked=False, pressed=name: self.action.emit(act.SystemButton(button=pressed))
            )
        self.refresh = QPushButton(self)
        self.refresh.clicked.connect(self.refresh_requested)
        self.text = QLineEdit(self)
        self.text.setObjectName("collect-type-text")
        self.text.returnPressed.connect(self._type)
        self.type = QPushButton(self)
        self.type.clicked.connect(self._type)
        self.seconds = QDoubleSpinBox(self)
        self.seconds.setRange(0.5, 30)
        self.seconds.setSingleStep(0.5)
        self.seconds.setValue(2)
        self.wait = QPushButton(self)
        self.wait.clicked.connect(lambda: self.action.emit(act.Wait(time=self.seconds.value())))
        self.success = QPushButton(self)
        self.success.setObjectName("collect-success")
        self.success.clicked.connect(lambda: self.action.emit(act.Terminate(status="success")))
        self.failure = QPushButton(self)
        self.failure.setObjectName("collect-failure")
        self.failure.clicked.connect(lambda: self.action.emit(act.Terminate(status="failure")))
        self._lay_out()
        self.set_state(phone=False, recording=False)
        self.retranslate()

    def _lay_out(self) -> None:
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        columns = 3  # two rows of phone buttons: the centre pane stays narrow enough for a 1024-px screen
        for place, button in enumerate([*self.buttons.values(), self.refresh]):
            grid.addWidget(button, place // columns, place % columns)
        rows = (len(self.buttons) + columns) // columns
        typing = QHBoxLayout()
        typing.addWidget(self.text, 1)
        typing.addWidget(self.type)
        grid.addLayout(typing, rows, 0, 1, columns)
        ending = QHBoxLayout()
        ending.addWidget(self.seconds)
        ending.addWidget(self.wait)
        ending.addStretch(1)
        ending.addWidget(self.success)
        ending.addWidget(self.failure)
        grid.addLayout(ending, rows + 1, 0, 1, columns)

    def set_state(self, *, phone: bool, recording: bool) -> None:
        """Buttons and typing work on a chosen phone; waiting and ending the task only while recording."""
        for widget in (*self.buttons.values(), self.text, self.type, self.refresh):
            widget.setEnabled(phone)
        for widget in (self.seconds, self.wait, self.success, self.failure):
            widget.setEnabled(phone and recording)

    def _type(self) -> None:
        text = self.text.text()
        if text:
            self.action.emit(act.Type(text=text))
            self.text.clear()

    def retranslate(self) -> None:
        names = {"Back": self.tr("Back"), "Home": self.tr("Home"), "Menu": self.tr("Menu"), "Enter": self.tr("Enter")}
        for name, button in self.buttons.items():
            button.setText(names[name])
            button.setToolTip(fill(self.tr("Press the phone's %1 button"), names[name]))
        self.refresh.setText(self.tr("Refresh screen"))
        self.refresh.setToolTip(self.tr("Take a new screenshot (after using the phone by hand)"))
        self.text.setPlaceholderText(self.tr("Text to type into the focused field"))
        self.type.setText(self.tr("Type"))
        self.seconds.setSuffix(self.tr(" s"))
        self.wait.setText(self.tr("Wait"))
        self.wait.setToolTip(self.tr("Record a wait step: the phone is loading"))
        self.success.setText(self.tr("Task done"))
        self.success.setToolTip(self.tr("End the recording: the task is completed (terminate success)"))
        self.failure.setText(self.tr("Task failed"))
        self.failure.setToolTip(self.tr("End the recording: the task cannot be completed (terminate failure)"))
