"""The top of the several-phones dialog: which phones (every usable one ticked), and what to run on them."""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from annotator.collect.session import Settings
from annotator.services.collecting import AgentEndpoint
from annotator.services.live_collect import Phone, TaskChoice
from annotator.ui.i18n import Retranslating, fill

PHONE_ROLE = Qt.ItemDataRole.UserRole


@dataclass(frozen=True)
class FleetPlan:
    """What the dialog runs: the agent, the task (or every pending one of its app), runs and step settings."""

    endpoint: AgentEndpoint
    choice: TaskChoice
    runs: int
    settings: Settings


class FleetChoice(Retranslating, QGroupBox):
    changed = Signal()

    def __init__(self, phones: list[Phone], plan: FleetPlan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.base_plan = plan
        self.phones = QListWidget(self)
        self.phones.setObjectName("fleet-phones")
        self.phones.setFlow(QListWidget.Flow.LeftToRight)
        self.phones.setWrapping(True)
        self.phones.setMaximumHeight(4 * self.fontMetrics().height())
        for phone in phones:
            item = QListWidgetItem(phone.serial)
            item.setData(PHONE_ROLE, phone)
            item.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
            item.setCheckState(Qt.CheckState.Checked if phone.usable else Qt.CheckState.Unchecked)
            if not phone.usable:
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                item.setToolTip(phone.info.error or phone.info.state)
            self.phones.addItem(item)
        self.phones.itemChanged.connect(lambda _item: self.changed.emit())
        self.this_one = QRadioButton(self)
        self.this_one.setObjectName("fleet-this-instruction")
        self.every_pending = QRadioButton(self)
        self.every_pending.setObjectName("fleet-every-pending")
        self.this_one.setChecked(True)
        self.runs = QSpinBox(self)
        self.runs.setObjectName("fleet-runs")
        self.runs.setRange(1, 100)
        self.runs.setValue(plan.runs)
        self.labels = [QLabel(self) for _ in range(3)]
        scope = QHBoxLayout()
        scope.addWidget(self.this_one)
        scope.addWidget(self.every_pending)
        scope.addStretch(1)
        form = QFormLayout(self)
        form.addRow(self.labels[0], self.phones)
        form.addRow(self.labels[1], scope)
        form.addRow(self.labels[2], self.runs)
        self.retranslate()

    def chosen_phones(self) -> list[Phone]:
        items = [self.phones.item(row) for row in range(self.phones.count())]
        return [item.data(PHONE_ROLE) for item in items if item.checkState() == Qt.CheckState.Checked]

    def plan(self) -> FleetPlan:
        return replace(self.base_plan, runs=self.runs.value())

    def retranslate(self) -> None:
        self.setTitle(self.tr("Phones and runs"))
        texts = (self.tr("Phones:"), self.tr("Instructions:"), self.tr("Runs each:"))
        for label, text in zip(self.labels, texts, strict=True):
            label.setText(text)
        choice = self.base_plan.choice
        self.this_one.setText(fill(self.tr("“%1”"), choice.text))
        self.this_one.setToolTip(self.tr("The instruction chosen in the Collect view"))
        self.every_pending.setText(fill(self.tr("every pending instruction of %1"), choice.app))
        self.every_pending.setToolTip(self.tr("Every active instruction of the app with fewer runs than asked"))
        self.runs.setToolTip(self.tr("Runs of each instruction, dealt to whichever phone is free"))
