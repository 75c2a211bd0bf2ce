"""The "New run" form: where the judge model is, which judge (prompt, sampling, screenshots), which trajectories.

The endpoint's URL, model and API-key variable are remembered in the settings file. ``request()`` turns the
form into what ``services.judging.run_judge`` takes, with the services' own checks (an empty prompt file, an
unknown prompt) raising ValueError or LookupError with a message for a person.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from annotator.domain.endpoint_url import safe_url
from annotator.domain.judge_settings import DEFAULT_PROMPT, ImagePolicy, JudgeSettings
from annotator.llm.client import LLMConfig
from annotator.services.judging import judge_selection, known_prompts, make_settings
from annotator.storage.selection import TrajectorySelection
from annotator.ui import settings as keys
from annotator.ui.i18n import Retranslating

ENDPOINT, MODEL, API_KEY_ENV = "judge/endpoint", "judge/model", "judge/api_key_env"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
TIMEOUT_S = 120  # per try: a judge request carries up to 16 screenshots
KIND, VALUE = Qt.ItemDataRole.UserRole, Qt.ItemDataRole.UserRole + 1  # of a prompt item: builtin/file/choose
BUILTIN, FILE, CHOOSE = "builtin", "file", "choose"


@dataclass(frozen=True)
class RunRequest:
    """Everything ``run_judge`` needs besides the workspace."""

    settings: JudgeSettings
    endpoint: LLMConfig
    selection: TrajectorySelection
    concurrency: int


def _spin(parent: QWidget, low: int, high: int, value: int, name: str) -> QSpinBox:
    box = QSpinBox(parent)
    box.setRange(low, high)
    box.setValue(value)
    box.setObjectName(name)
    return box


class RunForm(Retranslating, QGroupBox):
    changed = Signal()  # something that decides whether a run can start
    start_requested = Signal()
    stop_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("judge-run-form")
        self.prompt_file: Path | None = None
        self._prompt_index = 0  # the prompt chosen before "Choose a file…", to go back to on cancel
        self.url = QLineEdit(keys.text(ENDPOINT), self)
        self.url.setObjectName("judge-endpoint")
        self.model = QLineEdit(keys.text(MODEL), self)
        self.model.setObjectName("judge-model")
        self.key_env = QLineEdit(keys.text(API_KEY_ENV), self)
        self.key_env.setObjectName("judge-api-key-env")
        self.prompt = QComboBox(self)
        self.prompt.setObjectName("judge-prompt")
        for name in known_prompts():
            self.prompt.addItem(name)
            self.prompt.setItemData(self.prompt.count() - 1, BUILTIN, KIND)
            self.prompt.setItemData(self.prompt.count() - 1, name, VALUE)
        self.prompt.addItem("")
        self.prompt.setItemData(self.prompt.count() - 1, CHOOSE, KIND)
        self.prompt.setCurrentIndex(max(0, self.prompt.findText(DEFAULT_PROMPT)))
        self._prompt_index = self.prompt.currentIndex()
        self.prompt.activated.connect(self._prompt_chosen)
        self.temperature = QDoubleSpinBox(self)
        self.temperature.setObjectName("judge-temperature")
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setDecimals(2)
        self.seed = _spin(self, -(2**31), 2**31 - 1, 0, "judge-seed")
        self.max_side = _spin(self, 28, 16384, 1024, "judge-max-side")
        self.max_images = _spin(self, 1, 1000, 16, "judge-max-images")
        self.app = QComboBox(self)
        self.app.setObjectName("judge-app")
        self.app.addItem("")  # "All apps"
        self.unscored = QCheckBox(self)
        self.unscored.setObjectName("judge-unscored")
        self.limit = _spin(self, 0, 10_000_000, 0, "judge-limit")
        self.concurrency = _spin(self, 1, 64, 4, "judge-concurrency")
        self.start = QPushButton(self)
        self.start.setObjectName("judge-start")
        self.start.clicked.connect(self.start_requested)
        self.stop = QPushButton(self)
        self.stop.setObjectName("judge-stop")
        self.stop.clicked.connect(self.stop_requested)
        for line in (self.url, self.model):
            line.textChanged.connect(lambda _text: self.changed.emit())
        for sequence in ("Ctrl+Return", "Ctrl+Enter"):
            shortcut = QShortcut(QKeySequence(sequence), self, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(self._shortcut_start)
        self.labels: dict[str, QLabel] = {}
        self.headings: dict[str, QLabel] = {}
        self._lay_out()
        self.retranslate()

    def _lay_out(self) -> None:
        form = QFormLayout()
        sections = {
            "endpoint": (
                ("url", self.url),
                ("model", self.model),
                ("key_env", self.key_env),
                ("concurrency", self.concurrency),
            ),
            "judge": (
                ("prompt", self.prompt),
                ("temperature", self.temperature),
                ("seed", self.seed),
                ("max_side", self.max_side),
                ("max_images", self.max_images),
            ),
            "trajectories": (("app", self.app), ("unscored", self.unscored), ("limit", self.limit)),
        }
        for section, rows in sections.items():
            heading = QLabel(self)
            heading.setStyleSheet("font-weight: bold")
            self.headings[section] = heading
            form.addRow(heading)
            for name, field in rows:
                if name == "unscored":  # a check box says what it means itself
                    form.addRow("", field)
                    continue
                self.labels[name] = QLabel(self)
                self.labels[name].setBuddy(field)
                form.addRow(self.labels[name], field)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.stop)
        buttons.addWidget(self.start)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)

    # what the view asks ---------------------------------------------------------------------------------------

    def has_endpoint(self) -> bool:
        return bool(self.url.text().strip() and self.model.text().strip())

    def use_endpoint(self, base_url: str, model: str) -> None:
        self.url.setText(base_url)
        self.model.setText(model)

    def offer_collect_endpoint(self) -> None:
        """No judge endpoint given yet: the one typed in the Collect view's agent run (as drafting offers it)."""
        if self.url.text().strip():
            return
        for box, key in (
            (self.url, "collect/endpoint"),
            (self.model, "collect/model"),
            (self.key_env, "collect/api_key_env"),
        ):
            box.setText(box.text().strip() or keys.text(key))

    def set_apps(self, apps: list[str]) -> None:
        """The workspace's apps; the chosen one stays chosen while it is still there."""
        chosen = self.chosen_app()
        self.app.blockSignals(True)
        while self.app.count() > 1:
            self.app.removeItem(1)
        self.app.addItems(apps)
        index = self.app.findText(chosen) if chosen else 0
        self.app.setCurrentIndex(max(0, index))
        self.app.blockSignals(False)

    def chosen_app(self) -> str | None:
        return self.app.currentText() if self.app.currentIndex() > 0 else None

    def set_running(self, running: bool, stopping: bool, can_start: bool) -> None:
        self.start.setEnabled(can_start and not running)
        self.stop.setEnabled(running and not stopping)

    def use_prompt_file(self, path: Path) -> None:
        """Judge with the prompt in `path` (shown by its name); a file chosen before is replaced."""
        self.prompt_file = path
        index = self.prompt.findData(FILE, KIND)
        if index < 0:
            index = self.prompt.count() - 1  # before "Choose a file…"
            self.prompt.insertItem(index, "")
            self.prompt.setItemData(index, FILE, KIND)
        self.prompt.setItemText(index, path.name)
        self.prompt.setItemData(index, str(path), VALUE)
        self.prompt.setItemData(index, str(path), Qt.ItemDataRole.ToolTipRole)
        self.prompt.setCurrentIndex(index)
        self._prompt_index = index

    def request(self) -> RunRequest:
        """What to run; ValueError or LookupError when the form does not make a judge (the message says why)."""
        url, model = self.url.text().strip(), self.model.text().strip()
        if not url or not model:
            raise ValueError(self.tr("Give the endpoint's URL and the model's name."))
        kind, value = self.prompt.currentData(KIND), self.prompt.currentData(VALUE)
        images = ImagePolicy(max_side=self.max_side.value(), max_images=self.max_images.value())
        settings = make_settings(
            model,
            prompt=value if kind == BUILTIN else DEFAULT_PROMPT,
            prompt_file=Path(value) if kind == FILE else None,
            temperature=round(self.temperature.value(), 2),
            seed=self.seed.value(),
            images=images,
        )
        endpoint = LLMConfig(url, settings.model, self.key_env.text().strip() or DEFAULT_KEY_ENV, timeout_s=TIMEOUT_S)
        app = self.chosen_app()
        selection = judge_selection(
            apps=(app,) if app else (), unscored=self.unscored.isChecked(), limit=self.limit.value() or None
        )
        return RunRequest(settings, endpoint, selection, self.concurrency.value())

    def save_state(self) -> None:
        stored = keys.settings()
        stored.setValue(ENDPOINT, safe_url(self.url.text().strip()))  # the settings file keeps no credentials
        stored.setValue(MODEL, self.model.text().strip())
        stored.setValue(API_KEY_ENV, self.key_env.text().strip())

    # the prompt -----------------------------------------------------------------------------------------------

    def _prompt_chosen(self, index: int) -> None:
        if self.prompt.itemData(index, KIND) != CHOOSE:
            self._prompt_index = index
            return
        start = str(self.prompt_file.parent) if self.prompt_file else ""
        chosen, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Choose a Judge Prompt"), start, self.tr("Text files (*.txt *.md);;All files (*)")
        )
        if chosen:
            self.use_prompt_file(Path(chosen))
        else:
            self.prompt.setCurrentIndex(self._prompt_index)

    def _shortcut_start(self) -> None:
        if self.start.isEnabled():
            self.start_requested.emit()

    # language -------------------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        self.setTitle(self.tr("New run"))
        texts = {
            "url": self.tr("URL:"),
            "model": self.tr("Model:"),
            "key_env": self.tr("API key env:"),
            "prompt": self.tr("Prompt:"),
            "temperature": self.tr("Temperature:"),
            "seed": self.tr("Seed:"),
            "max_side": self.tr("Longest side of screenshots:"),
            "max_images": self.tr("Screenshots per trajectory:"),
            "app": self.tr("App:"),
            "limit": self.tr("At most:"),
            "concurrency": self.tr("Requests at once:"),
        }
        for name, text in texts.items():
            self.labels[name].setText(text)
        headings = {"endpoint": self.tr("Endpoint"), "judge": self.tr("Judge"), "trajectories": self.tr("Trajectories")}
        for name, text in headings.items():
            self.headings[name].setText(text)
        self.url.setPlaceholderText(self.tr("OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1"))
        self.model.setPlaceholderText(self.tr("Model name, e.g. gpt-4o"))
        self.key_env.setPlaceholderText(DEFAULT_KEY_ENV)
        self.key_env.setToolTip(self.tr("The environment variable that holds the API key (optional for local servers)"))
        self.prompt.setItemText(self.prompt.findData(CHOOSE, KIND), self.tr("Choose a file…"))
        self.prompt.setToolTip(self.tr("The judge's instructions: a built-in prompt, or a variant of your own"))
        self.temperature.setToolTip(self.tr("Sampling temperature sent to the model (0: the most likely answer)"))
        self.seed.setToolTip(self.tr("Sampling seed sent to the endpoint"))
        self.max_side.setSuffix(self.tr(" px"))
        self.max_side.setToolTip(self.tr("Screenshots are scaled so that their longer side is at most this long"))
        self.max_images.setToolTip(self.tr("At most this many screenshots per trajectory: the first and the last ones"))
        self.app.setItemText(0, self.tr("All apps"))
        self.unscored.setText(self.tr("Only what this judge has not scored"))
        self.unscored.setToolTip(
            self.tr("Leave out what this judge scored before the limit applies (a run skips them anyway)")
        )
        self.limit.setSpecialValueText(self.tr("No limit"))
        self.concurrency.setToolTip(self.tr("How many trajectories are sent to the endpoint at the same time"))
        self.start.setText(self.tr("Start"))
        self.start.setToolTip(self.tr("Judge the chosen trajectories (Ctrl+Return)"))
        self.stop.setText(self.tr("Stop"))
        self.stop.setToolTip(self.tr("Stop after the requests in flight; the scores so far are kept"))
