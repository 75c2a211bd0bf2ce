"""Ctrl+Z and Ctrl+Shift+Z belong to the view's Undo/Redo actions, also while a text field has the focus.

Undo lives in the backend (every change is a saved revision), so a text field's own undo stack would undo
keystrokes the database already holds and leave the two out of step. Qt's text widgets claim the undo keys
with an accepted ShortcutOverride before any window shortcut is tried; this filter declines it for them, so
the key reaches the window's action, and switches the widget's own undo off.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QPlainTextEdit, QWidget

_BACKEND_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


class UndoKeysToWindow(QObject):
    """An event filter that lets the undo/redo keys through to the window's shortcuts."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not isinstance(event, QKeyEvent) or not any(event.matches(key) for key in _BACKEND_KEYS):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.ignore()  # not overridden: the shortcut map tries the window's actions next
            return True
        # A key press means no action took the key (none is bound): never fall back to the widget's own undo.
        return event.type() == QEvent.Type.KeyPress


def give_undo_keys_to_window(filter_: UndoKeysToWindow, *widgets: QWidget) -> None:
    """Install the filter on text widgets and turn their own undo/redo off where Qt allows it.

    A QLineEdit cannot switch its undo off; the filter keeps the keys from reaching it instead.
    """
    for widget in widgets:
        widget.installEventFilter(filter_)
        if isinstance(widget, QPlainTextEdit):
            widget.setUndoRedoEnabled(False)
        elif isinstance(widget, QAbstractSpinBox):  # its line edit gets the key presses
            widget.lineEdit().installEventFilter(filter_)
