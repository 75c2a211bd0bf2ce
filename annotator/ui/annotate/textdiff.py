"""Word-level differences between what was collected and what the annotator wrote, as highlights.

Words are runs of Latin letters and digits; every other character (each Han character, each punctuation
mark) is a word of its own, because Chinese has no spaces and a whole sentence would otherwise count as one
word. Spans are in UTF-16 code units, the positions QTextCursor counts in (an emoji is two of them).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

_WORD = re.compile(r"[A-Za-z0-9_]+|\s+|.", re.DOTALL)
ADDED = QColor(196, 236, 196)  # what the label added or rewrote
REMOVED = QColor(246, 200, 200)  # what the label dropped from the original


@dataclass(frozen=True)
class Span:
    start: int  # UTF-16 offset
    length: int


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def _utf16_offsets(tokens: list[str]) -> list[int]:
    """Where each token starts, and the end as the last entry."""
    offsets = [0]
    for token in tokens:
        offsets.append(offsets[-1] + len(token.encode("utf-16-le")) // 2)
    return offsets


def changed_spans(original: str, label: str) -> tuple[list[Span], list[Span]]:
    """(parts of `original` the label removed or replaced, parts of `label` it added or rewrote)."""
    old, new = words(original), words(label)
    old_at, new_at = _utf16_offsets(old), _utf16_offsets(new)
    removed: list[Span] = []
    added: list[Span] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed.extend(_span(old, old_at, i1, i2))
            added.extend(_span(new, new_at, j1, j2))
    return removed, added


def _span(tokens: list[str], offsets: list[int], start: int, end: int) -> list[Span]:
    """The span of tokens[start:end] without the spaces at its edges; none when only spaces changed."""
    while start < end and not tokens[start].strip():
        start += 1
    while end > start and not tokens[end - 1].strip():
        end -= 1
    return [Span(offsets[start], offsets[end] - offsets[start])] if end > start else []


def _selections(
    edit: QPlainTextEdit, spans: list[Span], colour: QColor, strike: bool
) -> list[QTextEdit.ExtraSelection]:
    selections = []
    for span in spans:
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(edit.document())
        cursor.setPosition(span.start)
        cursor.setPosition(span.start + span.length, QTextCursor.MoveMode.KeepAnchor)
        text_format = QTextCharFormat()
        text_format.setBackground(colour)
        text_format.setFontStrikeOut(strike)
        selection.cursor, selection.format = cursor, text_format
        selections.append(selection)
    return selections


def highlight(original_view: QPlainTextEdit, label_edit: QPlainTextEdit, labelled: bool) -> int:
    """Mark the differences in both editors (extra selections: the documents and their text stay untouched).

    Nothing is marked while the stage is not labelled. Returns how many changed passages the label has.
    """
    if not labelled or not original_view.toPlainText():
        original_view.setExtraSelections([])
        label_edit.setExtraSelections([])
        return 0
    removed, added = changed_spans(original_view.toPlainText(), label_edit.toPlainText())
    original_view.setExtraSelections(_selections(original_view, removed, REMOVED, strike=True))
    label_edit.setExtraSelections(_selections(label_edit, added, ADDED, strike=False))
    return max(len(removed), len(added))
