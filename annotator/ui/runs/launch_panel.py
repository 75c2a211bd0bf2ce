"""The Runs view's launch panel: a recipe (its description and paper), an export, the main settings, and either a
launch on this machine (`trainer-bridge train ... --detach`) or the command to run on a GPU machine.

Only the settings the person changed are passed (`--set key=value`), so a recipe's value stays the recipe's; the
command checks everything before it starts anything, and its one-line refusal is shown here as it printed it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from annotator.storage.workspace import Workspace
from annotator.ui import settings as keys
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.runs.cli_process import CliProcess
from annotator.ui.runs.recipe_words import recipe_words

if TYPE_CHECKING:
    from annotator.services.training import ExportFolder, Launch, Recipe

LAST_EXPORT, LAST_RECIPE = "runs/export", "runs/recipe"
STARTED = re.compile(r"Training run (\d+)")  # the command's first line: "Training run 3 started (pid ...)"
DEFAULT_GPUS = -1  # the spin box's "recipe's choice": no --gpus
ERROR_STYLE = "color: #c62828"


def training() -> Any:
    from annotator.services import training as service  # with the view's first use, not at the app's start

    return service


class LaunchPanel(Retranslating, QGroupBox):
    launched = Signal(int)  # the new run's id
    status_message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("runs-launch")
        self.workspace: Workspace | None = None
        self.recipes: list[Recipe] = []
        self.missing: list[str] = []  # the training packages this installation lacks
        self.exports: dict[str, ExportFolder] = {}  # by path, as listed
        self.command: CliProcess | None = None  # the launch or dry run under way
        self.recipe = QComboBox(self)
        self.recipe.setObjectName("runs-recipe")
        self.recipe.currentIndexChanged.connect(self._recipe_changed)
        self.about = QLabel(self)
        self.about.setWordWrap(True)
        self.about.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.export = QComboBox(self)
        self.export.setObjectName("runs-export")
        self.export.setEditable(True)
        self.export.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.export.currentTextChanged.connect(self._describe_export)
        self.browse = QPushButton(self)
        self.browse.clicked.connect(self.choose_export)
        self.export_about = QLabel(self)
        self.export_about.setWordWrap(True)
        self.fields = {
            name: QLineEdit(self) for name in ("learning_rate", "num_train_epochs", "max_steps", "num_generations")
        }
        self.gpus = QSpinBox(self)
        self.gpus.setRange(DEFAULT_GPUS, 64)
        self.gpus.setValue(DEFAULT_GPUS)
        self.model = QLineEdit(self)
        self.sets = QLineEdit(self)
        self.sets.setObjectName("runs-sets")
        self.launch_button, self.copy_button = QPushButton(self), QPushButton(self)
        self.launch_button.setObjectName("runs-launch-button")
        self.launch_button.clicked.connect(self.launch)
        self.copy_button.clicked.connect(self.show_command)
        self.error = QLabel(self)
        self.error.setObjectName("runs-launch-error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.command_text = QPlainTextEdit(self)
        self.command_text.setObjectName("runs-command")
        self.command_text.setReadOnly(True)
        self.command_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.copy_text = QPushButton(self)
        self.copy_text.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.command_text.toPlainText()))
        self._lay_out()
        self.retranslate()
        self._enable()

    def _lay_out(self) -> None:
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.labels = {name: QLabel(self) for name in ("recipe", "export", *self.fields, "gpus", "model", "sets")}
        form.addRow(self.labels["recipe"], self.recipe)
        form.addRow(self.about)
        export = QHBoxLayout()
        export.addWidget(self.export, 1)
        export.addWidget(self.browse)
        form.addRow(self.labels["export"], export)
        form.addRow(self.export_about)
        for name, field in self.fields.items():
            form.addRow(self.labels[name], field)
        for name, widget in (("gpus", self.gpus), ("model", self.model), ("sets", self.sets)):
            form.addRow(self.labels[name], widget)
        for name, label in self.labels.items():
            label.setBuddy(getattr(self, name, None) or self.fields[name])
        buttons = QHBoxLayout()
        buttons.addWidget(self.launch_button)
        buttons.addWidget(self.copy_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.error)
        layout.addWidget(self.command_text, 100)
        layout.addWidget(self.copy_text, 0, Qt.AlignmentFlag.AlignRight)
        layout.addStretch(1)  # the room below, while no command shows, is not the error line's
        self.command_text.hide()
        self.copy_text.hide()

    # what there is to choose ----------------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.workspace = workspace
        self.error.clear()
        self._enable()

    def show_recipes(self, recipes: list[Recipe], missing: list[str]) -> None:
        """The recipes to choose from; without the training packages (`missing`), none, and what to install."""
        self.recipes, self.missing = recipes, missing
        chosen = self.recipe.currentText() or keys.text(LAST_RECIPE, "tiny-sft")
        self.recipe.blockSignals(True)
        self.recipe.clear()
        for recipe in recipes:
            self.recipe.addItem(recipe.name, recipe.name)
        self.recipe.setCurrentIndex(max(0, self.recipe.findData(chosen)))
        self.recipe.blockSignals(False)
        self._recipe_changed()
        self._enable()

    def show_exports(self, exports: list[ExportFolder]) -> None:
        typed = self.export.currentText() or keys.text(LAST_EXPORT)
        self.exports = {str(export.path): export for export in exports}
        self.export.blockSignals(True)
        self.export.clear()
        for export in exports:
            self.export.addItem(str(export.path), str(export.path))
        self.export.setEditText(typed)
        self.export.blockSignals(False)
        self._offer_matching_export()
        self._describe_export()

    def chosen_recipe(self) -> Recipe | None:
        index = self.recipe.currentIndex()
        return self.recipes[index] if 0 <= index < len(self.recipes) else None

    def _recipe_changed(self, _index: int = 0) -> None:
        recipe = self.chosen_recipe()
        for name, field in self.fields.items():
            value = recipe.settings.get(name) if recipe else None
            field.setText("" if value is None else str(value))
            field.setEnabled(recipe is not None and (recipe.grpo or name not in training().GRPO_ONLY))
        self._offer_matching_export()
        self._describe_recipe()
        self._describe_export()

    def _offer_matching_export(self) -> None:
        """A listed export of another stage than the recipe's gives way to a listed one of its stage."""
        recipe, text = self.chosen_recipe(), self.export.currentText().strip()
        shown = self.exports.get(text)
        chosen_elsewhere = bool(text) and shown is None  # a folder the person typed or browsed to stays
        if recipe is None or chosen_elsewhere or (shown is not None and shown.stage == recipe.stage):
            return
        match = next((path for path, export in self.exports.items() if export.stage == recipe.stage), None)
        if match is not None:
            self.export.setEditText(match)

    def _describe_recipe(self) -> None:
        recipe = self.chosen_recipe()
        if recipe is None:
            self.about.clear()
            return
        description, paper = recipe_words(recipe.description), recipe_words(recipe.paper) if recipe.paper else "—"
        text = fill(self.tr("%1 · trains on %2 exports (%3)"), description, recipe.stage, recipe.script)
        self.about.setText(text + "\n" + fill(self.tr("Paper: %1"), paper))

    def _describe_export(self, _text: str = "") -> None:
        folder, recipe = self.export.currentText().strip(), self.chosen_recipe()
        self.export.setToolTip(folder)  # a long path shows only its end in the box
        found = self.exports.get(folder)
        if not folder:
            self.export_about.setText(self.tr("Choose the folder `trainer-bridge export` wrote."))
        elif found is None:
            self.export_about.setText(self.tr("Not listed: the command checks it is an export when it launches."))
        else:
            text = fill(self.tr("Stage %1, %2 format, %3 samples."), found.stage, found.format, found.samples)
            if recipe is not None and found.stage != recipe.stage:
                text += " " + fill(self.tr("This recipe trains on %1 exports."), recipe.stage)
            self.export_about.setText(text)

    def choose_export(self) -> None:
        start = self.export.currentText() or (str(self.workspace.data_dir) if self.workspace else "")
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Choose an Export Folder"), start)
        if chosen:
            self.export.setEditText(chosen)

    # launching ------------------------------------------------------------------------------------------------------

    def request(self) -> Launch | None:
        """The launch the panel describes; None (and why, shown) without a recipe or an export."""
        recipe, folder = self.chosen_recipe(), self.export.currentText().strip()
        if recipe is None or not folder:
            self.error.setText(self.tr("Choose a recipe and an export folder first."))
            return None
        changed = {}
        for name, field in self.fields.items():
            text, original = field.text().strip(), recipe.settings.get(name)
            if field.isEnabled() and text != ("" if original is None else str(original)):
                changed[name] = text or ("-1" if name == "max_steps" else "")  # cleared steps: the epochs decide
        gpus = None if self.gpus.value() == DEFAULT_GPUS else self.gpus.value()
        sets = {name: value for name, value in changed.items() if value}
        return training().Launch(recipe.name, Path(folder), sets, self.sets.text(), gpus, self.model.text())

    def launch(self) -> None:
        launch, workspace = self.request(), self.workspace
        if launch is None or workspace is None:
            return
        keys.settings().setValue(LAST_EXPORT, str(launch.data))
        keys.settings().setValue(LAST_RECIPE, launch.recipe)
        self._run(training().launch_argv(launch, workspace), self._launch_ended)
        self.status_message.emit(fill(self.tr("Launching %1…"), launch.recipe))

    def show_command(self) -> None:
        launch, workspace = self.request(), self.workspace
        if launch is None or workspace is None:
            return
        line = training().shell_command(launch, workspace)
        self._run(
            training().dry_run_argv(launch, workspace), lambda code, output: self._dry_run_ended(line, code, output)
        )

    def _run(self, argv: list[str], done: Any) -> None:
        assert self.workspace is not None
        self.error.clear()
        self.command = CliProcess(argv, training().cli_environment(self.workspace), self)
        self.command.finished.connect(done)
        self.command.start()
        self._enable()

    def _launch_ended(self, exit_code: int, output: str) -> None:
        self.command = None
        self._enable()
        started = STARTED.search(output)
        if exit_code != 0 or started is None:
            self.error.setText(training().error_line(output) or self.tr("The launch failed."))
            return
        self.status_message.emit(output.splitlines()[0])
        self.launched.emit(int(started.group(1)))

    def _dry_run_ended(self, line: str, exit_code: int, output: str) -> None:
        self.command = None
        self._enable()
        if exit_code != 0:
            self.error.setText(training().error_line(output))
            return
        what = self.tr("# On a GPU machine that reaches this workspace (--data-dir, or --db for a shared database):")
        runs = self.tr("# which runs (paths as on this machine):")
        self.command_text.setPlainText(f"{what}\n{line}\n\n{runs}\n{output.strip()}")
        self.command_text.show()
        self.copy_text.show()

    def busy(self) -> bool:
        return self.command is not None

    def finish(self, msecs: int = 30_000) -> None:
        """The window closes: a launch under way records its run and starts its follower first (killed half-way,
        it could leave a run that nobody follows)."""
        if self.command is not None:
            self.command.process.waitForFinished(msecs)

    def _enable(self) -> None:
        usable = self.workspace is not None and not self.busy() and not self.missing
        if self.missing:
            needed = self.tr("Training needs the train extra (missing: %1): pip install 'mobile-annotator[train]'")
            self.error.setText(fill(needed, ", ".join(self.missing)))
        self.launch_button.setEnabled(usable and not (self.workspace and self.workspace.read_only))
        self.copy_button.setEnabled(usable)
        self.launch_button.setText(self.tr("Launching…") if self.busy() else self.tr("&Launch on This Machine"))

    def retranslate(self) -> None:
        self.setTitle(self.tr("Launch a Training Run"))
        names = {
            "recipe": self.tr("&Recipe:"),
            "export": self.tr("E&xport:"),
            "learning_rate": self.tr("Learning rate:"),
            "num_train_epochs": self.tr("Epochs:"),
            "max_steps": self.tr("Max steps:"),
            "num_generations": self.tr("Generations:"),
            "gpus": self.tr("GPUs:"),
            "model": self.tr("Model:"),
            "sets": self.tr("Other settings:"),
        }
        for name, text in names.items():
            self.labels[name].setText(text)
        self.fields["max_steps"].setPlaceholderText(self.tr("as the epochs give"))
        self.fields["num_generations"].setToolTip(self.tr("Completions per prompt (GRPO recipes)"))
        self.gpus.setSpecialValueText(self.tr("the recipe's"))
        self.gpus.setToolTip(self.tr("GPUs per machine; 0 trains on the CPU"))
        self.model.setPlaceholderText(self.tr("the recipe's (tiny recipes build their own)"))
        self.sets.setPlaceholderText(self.tr("key=value …, e.g. save_steps=50 temperature=0.9"))
        self.browse.setText(self.tr("&Browse…"))
        self.copy_button.setText(self.tr("Cop&y Command"))
        self.copy_button.setToolTip(self.tr("Show the command to run on a GPU machine (nothing is started)"))
        self.copy_text.setText(self.tr("Copy to Clipboard"))
        self._enable()
        self._describe_recipe()
        self._describe_export()
