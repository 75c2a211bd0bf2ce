"""The two forms of the Collect view: what to collect (app, instruction, step limit) and the agent's endpoint."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from annotator.domain.endpoint_url import safe_url
from annotator.services.collecting import AgentEndpoint
from annotator.services.live_collect import TaskChoice
from annotator.ui import settings as keys
from annotator.ui.i18n import Retranslating

Instructions = dict[str, list[tuple[int, str]]]  # app -> (instruction id, text)
DEFAULT_KEY_ENV = "OPENAI_API_KEY"


def _int_setting(key: str, default: int) -> int:
    value = keys.settings().value(key, default)
    if not isinstance(value, (int, float, str)):
        return default
    try:
        return int(value)
    except ValueError:
        return default


class TaskForm(Retranslating, QGroupBox):
    """The app, the instruction (picked from the app's active ones, or written here) and the step limit."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.instructions: Instructions = {}
        self.app = QComboBox(self)
        self.app.setObjectName("collect-app")
        self.app.setEditable(True)
        self.app.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.app.currentTextChanged.connect(self._app_changed)
        self.instruction = QComboBox(self)
        self.instruction.setObjectName("collect-instruction")
        self.instruction.setEditable(True)
        self.instruction.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.instruction.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.instruction.setMinimumContentsLength(16)
        self.instruction.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.instruction.currentTextChanged.connect(self._instruction_changed)
        self.instruction.currentIndexChanged.connect(lambda _index: self._show_instruction_start())
        self.max_steps = QSpinBox(self)
        self.max_steps.setRange(1, 200)
        self.max_steps.setValue(_int_setting("collect/max_steps", 25))
        self.labels = [QLabel(self) for _ in range(3)]
        form = QFormLayout(self)
        for label, field in zip(self.labels, (self.app, self.instruction, self.max_steps), strict=True):
            form.addRow(label, field)
        self.app.setEditText(keys.text("collect/app"))
        self.retranslate()

    def set_instructions(self, instructions: Instructions) -> None:
        """The active instructions by app; what the person chose or wrote stays."""
        app, text = self.app.currentText(), self.instruction.currentText()
        self.instructions = instructions
        self.app.blockSignals(True)
        self.app.clear()
        self.app.addItems(list(instructions))
        self.app.setEditText(app or (next(iter(instructions)) if instructions else ""))
        self.app.blockSignals(False)
        self._fill_instructions(self.app.currentText(), text)

    def choice(self) -> TaskChoice | None:
        app, text = self.app.currentText().strip(), self.instruction.currentText().strip()
        if not app or not text:
            return None
        known = dict((body, id_) for id_, body in self.instructions.get(app, []))
        return TaskChoice(app, text, known.get(text))

    def save_state(self) -> None:
        stored = keys.settings()
        stored.setValue("collect/app", self.app.currentText().strip())
        stored.setValue("collect/max_steps", self.max_steps.value())

    def _app_changed(self, app: str) -> None:
        self._fill_instructions(app, "")
        self.changed.emit()

    def _fill_instructions(self, app: str, keep: str) -> None:
        self.instruction.blockSignals(True)
        self.instruction.clear()
        for _id, text in self.instructions.get(app.strip(), []):
            self.instruction.addItem(text)
            self.instruction.setItemData(self.instruction.count() - 1, text, Qt.ItemDataRole.ToolTipRole)
        fit_popup(self.instruction)
        self.instruction.setEditText(keep or (self.instruction.itemText(0) if self.instruction.count() else ""))
        self.instruction.blockSignals(False)
        self._show_instruction_start()
        self._instruction_changed(self.instruction.currentText())

    def _show_instruction_start(self) -> None:
        """A long instruction shows its beginning (what to do), not its end; the tooltip has all of it."""
        if (line := self.instruction.lineEdit()) is not None:  # editable: it has one
            line.setCursorPosition(0)

    def _instruction_changed(self, text: str) -> None:
        self.instruction.setToolTip(text)
        self.changed.emit()

    def retranslate(self) -> None:
        self.setTitle(self.tr("Task"))
        texts = (self.tr("App:"), self.tr("Instruction:"), self.tr("Max steps:"))
        for label, text in zip(self.labels, texts, strict=True):
            label.setText(text)
        hints = (
            (self.app, self.tr("App name, e.g. 设置")),
            (self.instruction, self.tr("Pick an instruction, or write a new one")),
        )
        for combo, hint in hints:
            if (line := combo.lineEdit()) is not None:  # editable: it has one
                line.setPlaceholderText(hint)
        self.max_steps.setToolTip(self.tr("A run that reaches this many steps ends as failed (Mobile-R1 uses 25)"))


class AgentForm(Retranslating, QGroupBox):
    """Where the agent's model is (an OpenAI-compatible endpoint), how many runs, and the button to start."""

    demo_requested = Signal()
    start_requested = Signal()
    fleet_requested = Signal()  # the same agent on several phones at once

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.url = QLineEdit(keys.text("collect/endpoint"), self)
        self.url.setObjectName("collect-endpoint")
        self.model = QLineEdit(keys.text("collect/model"), self)
        self.key_env = QLineEdit(keys.text("collect/api_key_env"), self)
        for typed in (self.url, self.model, self.key_env):  # kept at once: the Judge view offers the same endpoint
            typed.editingFinished.connect(self.save_state)
        self.runs = QSpinBox(self)
        self.runs.setRange(1, 100)
        self.runs.setValue(_int_setting("collect/runs", 1))
        self.demo = QPushButton(self)
        self.demo.setObjectName("collect-demo-endpoint")
        self.demo.clicked.connect(self.demo_requested)
        self.start = QPushButton(self)
        self.start.setObjectName("collect-start-agent")
        self.start.clicked.connect(self.start_requested)
        self.fleet = QPushButton(self)
        self.fleet.setObjectName("collect-fleet-open")
        self.fleet.clicked.connect(self.fleet_requested)
        self.labels = [QLabel(self) for _ in range(4)]
        form = QFormLayout()
        for label, field in zip(self.labels, (self.url, self.model, self.key_env, self.runs), strict=True):
            form.addRow(label, field)
        buttons = QHBoxLayout()
        buttons.addWidget(self.demo)
        buttons.addStretch(1)
        buttons.addWidget(self.start)
        many = QHBoxLayout()
        many.addStretch(1)
        many.addWidget(self.fleet)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addLayout(many)
        self.retranslate()

    def endpoint(self) -> AgentEndpoint | None:
        url, model = self.url.text().strip(), self.model.text().strip()
        if not url or not model:
            return None
        return AgentEndpoint(url, model, self.key_env.text().strip() or DEFAULT_KEY_ENV)

    def use_endpoint(self, base_url: str, model: str) -> None:
        self.url.setText(base_url)
        self.model.setText(model)

    def save_state(self) -> None:
        stored = keys.settings()
        stored.setValue("collect/endpoint", safe_url(self.url.text().strip()))  # the settings file keeps no credentials
        stored.setValue("collect/model", self.model.text().strip())
        stored.setValue("collect/api_key_env", self.key_env.text().strip())
        stored.setValue("collect/runs", self.runs.value())

    def retranslate(self) -> None:
        self.setTitle(self.tr("Agent run"))
        texts = (self.tr("Endpoint:"), self.tr("Model:"), self.tr("API key env:"), self.tr("Runs:"))
        for label, text in zip(self.labels, texts, strict=True):
            label.setText(text)
        self.url.setPlaceholderText(self.tr("OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1"))
        self.model.setPlaceholderText(self.tr("Model name, e.g. qwen2.5-vl-7b"))
        self.key_env.setPlaceholderText(DEFAULT_KEY_ENV)
        self.key_env.setToolTip(self.tr("The environment variable that holds the API key (optional for local servers)"))
        self.runs.setToolTip(self.tr("How many trajectories to record for the instruction, one after another"))
        self.demo.setText(self.tr("Start the scripted demo endpoint"))
        self.demo.setToolTip(self.tr("A built-in agent for the virtual phone's instructions, served on this computer"))
        self.start.setText(self.tr("Start agent run"))
        self.fleet.setText(self.tr("On several phones…"))
        self.fleet.setToolTip(self.tr("Run the agent on several phones at once, the runs dealt to whichever is free"))


def fit_popup(combo: QComboBox) -> None:
    """The drop-down list as wide as its longest item (up to the screen's width), each cut at its end if it must be:
    a long Chinese instruction was cut in its middle at the field's width."""
    view = combo.view()
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    widest = view.sizeHintForColumn(0) if combo.count() else 0
    screen = combo.screen().availableGeometry().width() if combo.screen() else widest
    view.setMinimumWidth(min(widest + view.verticalScrollBar().sizeHint().width() + 8, screen))
