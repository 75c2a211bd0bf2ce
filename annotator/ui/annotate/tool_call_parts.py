"""The parts of the tool-call editor: the names and help of the action space in words, the check of a call
against the screen, and the point input."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QSpinBox, QWidget

from annotator.domain.actions import ActionError, action_from_tool_call, validate_action
from annotator.domain.geometry import ScreenSize
from annotator.ui.i18n import QT_TRANSLATE_NOOP

CONTEXT = "ToolCallEditor"
ACTION_HELP = {
    "key": QT_TRANSLATE_NOOP("ToolCallEditor", "press a key (adb keyevent)"),
    "click": QT_TRANSLATE_NOOP("ToolCallEditor", "click a point"),
    "long_press": QT_TRANSLATE_NOOP("ToolCallEditor", "press a point for some seconds"),
    "swipe": QT_TRANSLATE_NOOP("ToolCallEditor", "swipe from one point to another"),
    "type": QT_TRANSLATE_NOOP("ToolCallEditor", "type text into the active input box"),
    "system_button": QT_TRANSLATE_NOOP("ToolCallEditor", "press Back, Home, Menu or Enter"),
    "open": QT_TRANSLATE_NOOP("ToolCallEditor", "open an app by its name"),
    "wait": QT_TRANSLATE_NOOP("ToolCallEditor", "wait for the screen to change"),
    "terminate": QT_TRANSLATE_NOOP("ToolCallEditor", "end the task: success or failure"),
}
BUTTON_NAMES = {
    "Back": QT_TRANSLATE_NOOP("ToolCallEditor", "Back"),
    "Home": QT_TRANSLATE_NOOP("ToolCallEditor", "Home"),
    "Menu": QT_TRANSLATE_NOOP("ToolCallEditor", "Menu"),
    "Enter": QT_TRANSLATE_NOOP("ToolCallEditor", "Enter"),
}
STATUS_NAMES = {
    "success": QT_TRANSLATE_NOOP("ToolCallEditor", "success: the task is done"),
    "failure": QT_TRANSLATE_NOOP("ToolCallEditor", "failure: the task cannot be done"),
}
POINT_ACTIONS = ("click", "long_press", "swipe")
# What Python's JSON reader says, in the person's language (the message is its own text, without the position).
JSON_ERRORS = {
    "Expecting value": QT_TRANSLATE_NOOP("ToolCallEditor", "a value is expected"),
    "Expecting ',' delimiter": QT_TRANSLATE_NOOP("ToolCallEditor", "a comma is expected"),
    "Expecting ':' delimiter": QT_TRANSLATE_NOOP("ToolCallEditor", "a colon is expected"),
    "Expecting property name enclosed in double quotes": QT_TRANSLATE_NOOP(
        "ToolCallEditor", "a key in double quotes is expected"
    ),
    "Unterminated string starting at": QT_TRANSLATE_NOOP("ToolCallEditor", "a string is not closed"),
    "Extra data": QT_TRANSLATE_NOOP("ToolCallEditor", "there is more after the end of the call"),
    "Invalid control character at": QT_TRANSLATE_NOOP("ToolCallEditor", "a line break or tab inside a string"),
    "Invalid \\escape": QT_TRANSLATE_NOOP("ToolCallEditor", "an unknown escape after a backslash"),
}


def check_tool_call(value: Any, screen: ScreenSize) -> tuple[dict[str, Any] | None, list[str]]:
    """(the canonical call, []) when `value` is a valid action on `screen`; else (None, problems in words)."""
    try:
        action = action_from_tool_call(value)
    except ActionError as error:
        return None, [f"{error.field.removeprefix('arguments.')}: {error.detail}"]
    problems = [f"{e.field.removeprefix('arguments.')}: {e.detail}" for e in validate_action(action, screen)]
    return (None, problems) if problems else (action.to_tool_call(), [])


def number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


class PointInput(QWidget):
    """x and y spin boxes in device pixels; a value changes when typing is done (Enter, Tab) or on arrows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.x_box, self.y_box = QSpinBox(self), QSpinBox(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for prefix, box in (("x ", self.x_box), ("y ", self.y_box)):
            box.setPrefix(prefix)
            box.setKeyboardTracking(False)  # one save per finished number, not one per digit
            layout.addWidget(box, 1)

    def set_range(self, width: int, height: int) -> None:
        self.x_box.setRange(0, max(0, width - 1))
        self.y_box.setRange(0, max(0, height - 1))

    def set_point(self, point: Any) -> None:
        if isinstance(point, (list, tuple)) and len(point) == 2:
            for box, value in zip((self.x_box, self.y_box), point, strict=True):
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    box.setValue(round(value))

    def point(self) -> list[int]:
        return [self.x_box.value(), self.y_box.value()]
