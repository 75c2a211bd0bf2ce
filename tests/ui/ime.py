"""Typing as a person does, CJK included: QTest types ASCII only, and Chinese arrives through an input method,
which commits whole characters to the focused widget (QInputMethodEvent)."""

from __future__ import annotations

from PySide6.QtGui import QInputMethodEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget


def type_text(widget: QWidget, text: str) -> None:
    """Each ASCII character as a keystroke, each other one as an input method's commit."""
    for character in text:
        if character.isascii():
            QTest.keyClicks(widget, character)
        else:
            event = QInputMethodEvent()
            event.setCommitString(character)
            QApplication.sendEvent(widget, event)
