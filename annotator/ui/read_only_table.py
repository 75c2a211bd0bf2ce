"""The look of the app's read-only tables of figures (statistics, evaluations): whole rows selected, alternating
rows, one line a row, no row numbers."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableWidget, QTableWidgetItem


def style_read_only(table: QTableWidget) -> None:
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.horizontalHeader().setHighlightSections(False)


def shown_texts(table: QTableWidget) -> list[list[str]]:
    """Every cell's text, row by row; a cell without an item reads as ""."""
    return [
        [_text(table.item(row, column)) for column in range(table.columnCount())] for row in range(table.rowCount())
    ]


def header_texts(table: QTableWidget) -> list[str]:
    return [_text(table.horizontalHeaderItem(column)) for column in range(table.columnCount())]


def _text(item: QTableWidgetItem | None) -> str:
    return item.text() if item is not None else ""
