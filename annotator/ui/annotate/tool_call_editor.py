"""Stage 3, the precise tool call: a form per action type and the raw JSON, kept in step both ways.

The form writes the JSON; a JSON edit that reads as a valid action fills the form. Every edit is checked by
the domain's action parser against the step's screenshot size; a call with a problem is shown with the
problem in words and never handed on for saving, but it stays in the editor until it is fixed.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from annotator.domain.actions import (
    ACTION_ARGUMENTS,
    ACTION_NAMES,
    DEFAULT_LONG_PRESS_SECONDS,
    SYSTEM_BUTTONS,
    TERMINATE_STATUSES,
    TOOL_NAME,
)
from annotator.domain.geometry import ScreenSize
from annotator.domain.response import tool_call_json
from annotator.ui.annotate import textdiff
from annotator.ui.annotate.tool_call_parts import (
    ACTION_HELP,
    BUTTON_NAMES,
    CONTEXT,
    JSON_ERRORS,
    POINT_ACTIONS,
    STATUS_NAMES,
    PointInput,
    check_tool_call,
    number,
)
from annotator.ui.i18n import Retranslating, fill


class ToolCallEditor(Retranslating, QWidget):
    edited = Signal(object, bool)  # a valid tool call dict or None (cleared), and whether to save at once

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.screen_size = ScreenSize(1080, 2400)
        self.problems: list[str] = []
        self._draft: tuple[str, dict[str, Any]] | None = None  # (model, call) of the step's draft
        self._syncing = False  # True while code (not the user) fills the widgets
        self._rows_for = "click"  # the action whose argument rows the form shows
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.hint.setObjectName("stage-hint")
        self.action = QComboBox(self)
        for name in ACTION_NAMES:
            self.action.addItem(name, name)
        self.coordinate, self.coordinate2 = PointInput(self), PointInput(self)
        self.text = QLineEdit(self)
        self.time = QDoubleSpinBox(self)
        self.time.setRange(0, 600)
        self.time.setDecimals(1)
        self.time.setSingleStep(0.5)
        self.time.setKeyboardTracking(False)
        self.button, self.status = QComboBox(self), QComboBox(self)
        for value in SYSTEM_BUTTONS:
            self.button.addItem(value, value)
        for value in TERMINATE_STATUSES:
            self.status.addItem(value, value)
        self.form = QFormLayout()
        self.form_labels = {key: QLabel(self) for key in ("action", *self._inputs())}
        self.form.addRow(self.form_labels["action"], self.action)
        for key, widget in self._inputs().items():
            self.form.addRow(self.form_labels[key], widget)
        self.json_caption = QLabel(self)
        self.json_edit = QPlainTextEdit(self)
        self.json_edit.setObjectName("tool-call-json")
        self.json_edit.setTabChangesFocus(True)
        self.problem_label = QLabel(self)
        self.problem_label.setObjectName("tool-call-problems")
        self.problem_label.setWordWrap(True)
        self.original_caption = QLabel(self)
        self.original = QPlainTextEdit(self)
        self.original.setReadOnly(True)
        self.original.setObjectName("original-tool-call")
        for edit in (self.json_edit, self.original):
            edit.setMinimumHeight(edit.fontMetrics().lineSpacing() * 2 + 12)
            edit.setMaximumHeight(edit.fontMetrics().lineSpacing() * 4 + 12)
            edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        layout = QVBoxLayout(self)
        layout.addWidget(self.hint)
        layout.addLayout(self.form)
        layout.addWidget(self.json_caption)
        layout.addWidget(self.json_edit)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.original_caption)
        layout.addWidget(self.original)
        layout.addStretch(1)
        self._connect()
        self._show_rows("click")
        self.retranslate()

    def _inputs(self) -> dict[str, QWidget]:
        return {
            "coordinate": self.coordinate,
            "coordinate2": self.coordinate2,
            "text": self.text,
            "time": self.time,
            "button": self.button,
            "status": self.status,
        }

    def text_inputs(self) -> list[QWidget]:
        """The widgets that take typing (their undo keys must reach the window)."""
        return [
            self.json_edit,
            self.text,
            self.time,
            self.coordinate.x_box,
            self.coordinate.y_box,
            self.coordinate2.x_box,
            self.coordinate2.y_box,
        ]

    def _connect(self) -> None:
        self.action.activated.connect(self._action_chosen)
        for box in (
            self.coordinate.x_box,
            self.coordinate.y_box,
            self.coordinate2.x_box,
            self.coordinate2.y_box,
            self.time,
        ):
            box.valueChanged.connect(lambda _value: self._form_edited(immediate=True))
        self.button.activated.connect(lambda _index: self._form_edited(immediate=True))
        self.status.activated.connect(lambda _index: self._form_edited(immediate=True))
        self.text.textEdited.connect(lambda _text: self._form_edited(immediate=False))
        self.json_edit.textChanged.connect(self._json_edited)

    # showing a step -----------------------------------------------------------------------------------------

    def show_call(self, original: dict[str, Any] | None, label: dict[str, Any] | None, screen: ScreenSize) -> None:
        """Show a step's calls; the JSON text is kept as typed when it already means `label`."""
        self._syncing = True
        try:
            self.screen_size = screen
            for point in (self.coordinate, self.coordinate2):
                point.set_range(screen.width, screen.height)
            self.original.setPlainText(tool_call_json(original) if original is not None else "")
            if self._typed_value() != label or label is None:
                self.json_edit.setPlainText(tool_call_json(label) if label is not None else "")
            self._fill_form(label if label is not None else original)
        finally:
            self._syncing = False
        self._check_json()

    def typed_but_invalid(self) -> str | None:
        """The JSON as typed when it is not a valid call (it was not saved); None when valid or empty."""
        text = self.json_edit.toPlainText().strip()
        return text if text and self.valid_call() is None else None

    def show_typed(self, text: str) -> None:
        """Put back JSON typed earlier that was not valid (so not saved), with its problems."""
        self._syncing = True
        try:
            self.json_edit.setPlainText(text)
        finally:
            self._syncing = False
        self._check_json()

    def show_draft(self, call: dict[str, Any] | None, model: str) -> None:
        """A model's drafted call, dimmed in the empty JSON editor until it is taken."""
        self._draft = (model, call) if call is not None else None
        self._placeholder()

    def _placeholder(self) -> None:
        if self._draft is None:
            self.json_edit.setPlaceholderText('{"name": "mobile_use", "arguments": {"action": "click", ...}}')
        else:
            model, call = self._draft
            self.json_edit.setPlaceholderText(
                fill(self.tr("Draft by %1 (T takes it):"), model) + "\n" + tool_call_json(call)
            )
        self.json_edit.viewport().update()  # a changed placeholder alone is not repainted (editors.StageTextEditor)

    def set_point(self, x: float, y: float) -> dict[str, Any] | None:
        """Point the call at (x, y) (a call without a point becomes a click); the valid call, or None."""
        self._syncing = True
        try:
            if self.action.currentData() not in POINT_ACTIONS:
                self.action.setCurrentIndex(self.action.findData("click"))
                self._show_rows("click")
            self.coordinate.set_point([x, y])
        finally:
            self._syncing = False
        return self._write_form_json()

    def valid_call(self) -> dict[str, Any] | None:
        """The call in the editor when it is valid (None also when the editor is empty)."""
        value = self._typed_value()
        return check_tool_call(value, self.screen_size)[0] if value is not None else None

    def set_read_only(self, read_only: bool) -> None:
        self.json_edit.setReadOnly(read_only)
        for widget in (self.action, *self._inputs().values()):
            widget.setEnabled(not read_only)

    # form -> JSON -------------------------------------------------------------------------------------------

    def _action_chosen(self, _index: int) -> None:
        name, before = self.action.currentData(), self._rows_for
        self._show_rows(name)
        self._syncing = True
        try:
            if name == "swipe" and before != "swipe":
                x, y = self.coordinate.point()  # a swipe needs a second point: a third of the screen up (or down)
                third = self.screen_size.height // 3
                self.coordinate2.set_point([x, y - third if y >= third else y + third])
            if name == "wait" and self.time.value() == 0:
                self.time.setValue(2)
        finally:
            self._syncing = False
        self._form_edited(immediate=True)

    def _form_edited(self, immediate: bool) -> None:
        if self._syncing:
            return
        call = self._write_form_json()
        if call is not None:
            self.edited.emit(call, immediate)

    def _form_call(self) -> dict[str, Any]:
        name = self.action.currentData()
        spec = ACTION_ARGUMENTS[name]
        values: dict[str, Any] = {
            "coordinate": self.coordinate.point(),
            "coordinate2": self.coordinate2.point(),
            "text": self.text.text(),
            "time": number(self.time.value()),
            "button": self.button.currentData(),
            "status": self.status.currentData(),
        }
        arguments = {"action": name} | {key: values[key] for key in spec.required + spec.optional}
        return {"name": TOOL_NAME, "arguments": arguments}

    def _write_form_json(self) -> dict[str, Any] | None:
        """Write the form's call into the JSON editor; the call when it is valid."""
        call = self._form_call()
        self._syncing = True
        try:
            self.json_edit.setPlainText(tool_call_json(call))
        finally:
            self._syncing = False
        return self._check_json()

    # JSON -> form -------------------------------------------------------------------------------------------

    def _typed_value(self) -> Any:
        """The JSON in the editor decoded; None when it is empty or not JSON."""
        text = self.json_edit.toPlainText().strip()
        if not text:
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return None

    def _json_edited(self) -> None:
        if self._syncing:
            return
        call = self._check_json()
        if call is not None:
            self._syncing = True
            try:
                self._fill_form(call)
            finally:
                self._syncing = False
            self.edited.emit(call, False)
        elif not self.json_edit.toPlainText().strip():
            self.edited.emit(None, False)  # emptied: the stage is not labelled any more

    def _check_json(self) -> dict[str, Any] | None:
        """Check the JSON editor's text, show what is wrong, and return the valid call (or None)."""
        text = self.json_edit.toPlainText().strip()
        call: dict[str, Any] | None = None
        problems: list[str] = []
        if text:
            try:
                call, problems = check_tool_call(json.loads(text), self.screen_size)
            except json.JSONDecodeError as error:
                where = fill(self.tr("line %1, column %2"), error.lineno, error.colno)
                said = JSON_ERRORS.get(error.msg)
                reason = QCoreApplication.translate(CONTEXT, said) if said else error.msg
                problems = [fill(self.tr("not valid JSON: %1 (%2)"), reason, where)]
        self.problems = problems
        self._show_problems(bool(text))
        textdiff.highlight(self.original, self.json_edit, labelled=bool(text))
        return call

    def _fill_form(self, call: dict[str, Any] | None) -> None:
        arguments = call.get("arguments") if isinstance(call, dict) else None
        if not isinstance(arguments, dict):
            arguments = {"action": "click", "coordinate": [self.screen_size.width // 2, self.screen_size.height // 2]}
        name = arguments.get("action")
        if isinstance(name, str) and name in ACTION_ARGUMENTS:
            self.action.setCurrentIndex(self.action.findData(name))
            self._show_rows(name)
        self.coordinate.set_point(arguments.get("coordinate"))
        self.coordinate2.set_point(arguments.get("coordinate2"))
        if isinstance(arguments.get("text"), str):
            self.text.setText(arguments["text"])
        time = arguments.get("time", DEFAULT_LONG_PRESS_SECONDS if name == "long_press" else None)
        if isinstance(time, (int, float)) and not isinstance(time, bool):
            self.time.setValue(time)
        for combo, key in ((self.button, "button"), (self.status, "status")):
            found = combo.findData(arguments.get(key))
            if found >= 0:
                combo.setCurrentIndex(found)

    def _show_rows(self, name: str) -> None:
        self._rows_for = name
        spec = ACTION_ARGUMENTS[name]
        for key, widget in self._inputs().items():
            self.form.setRowVisible(widget, key in spec.required + spec.optional)

    def _show_problems(self, labelled: bool) -> None:
        if self.problems:
            self.problem_label.setStyleSheet("color: #b3261e;")
            lines = "\n".join(f"• {problem}" for problem in self.problems)
            self.problem_label.setText(self.tr("Not saved:") + "\n" + lines)
        elif labelled:
            self.problem_label.setStyleSheet("color: #1e7b34;")
            self.problem_label.setText(fill(self.tr("A valid tool call on the %1 screen."), self.screen_size))
        else:
            self.problem_label.setStyleSheet("")
            self.problem_label.setText(self.tr("Not labelled yet: edit the form or click on the screenshot."))

    # language -----------------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        self.hint.setText(
            self.tr("Stage 3 · Precise tool call: keep a correct call; correct a wrong one against the screenshot.")
        )
        captions = {
            "action": self.tr("Action"),
            "coordinate": self.tr("Point"),
            "coordinate2": self.tr("End point"),
            "text": self.tr("Text"),
            "time": self.tr("Seconds"),
            "button": self.tr("Button"),
            "status": self.tr("Status"),
        }
        for key, label in self.form_labels.items():
            label.setText(captions[key])
        for row, name in enumerate(ACTION_NAMES):
            self.action.setItemText(row, f"{name} · {QCoreApplication.translate(CONTEXT, ACTION_HELP[name])}")
        for combo, names in ((self.button, BUTTON_NAMES), (self.status, STATUS_NAMES)):
            for row in range(combo.count()):
                combo.setItemText(row, QCoreApplication.translate(CONTEXT, names[combo.itemData(row)]))
        self.time.setSuffix(self.tr(" s"))
        self.json_caption.setText(self.tr("Tool call (JSON)"))
        self._placeholder()
        self.original_caption.setText(self.tr("Original (as collected)"))
        self.original.setPlaceholderText(self.tr("Nothing was collected for this step (an inserted step)."))
        self._check_json()
