"""The look of the app's read-only tables of figures (statistics, evaluations): whole rows selected, alternating
rows, one line a row, no row numbers."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableWidget


def style_read_only(table: QTableWidget) -> None:
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.horizontalHeader().setHighlightSections(False)
