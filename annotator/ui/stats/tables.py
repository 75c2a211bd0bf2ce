"""The Statistics view's tables: their columns (the service's table columns, with headers and tooltips), how
numbers are written, and the read-only table widget."""

from __future__ import annotations

import math
from typing import SupportsInt

from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from annotator.ui.i18n import QT_TRANSLATE_NOOP
from annotator.ui.read_only_table import style_read_only

CONTEXT = "StatsView"
# (column of the service's table, header, header tooltip); the order is the order on screen.
APP_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("app", QT_TRANSLATE_NOOP("StatsView", "App"), ""),
    ("instructions", QT_TRANSLATE_NOOP("StatsView", "Instructions"),
     QT_TRANSLATE_NOOP("StatsView", "Instructions with at least one trajectory")),
    ("trajectories", QT_TRANSLATE_NOOP("StatsView", "Trajectories"), ""),
    ("steps", QT_TRANSLATE_NOOP("StatsView", "Steps"), ""),
    ("mean_steps", QT_TRANSLATE_NOOP("StatsView", "Steps per trajectory"),
     QT_TRANSLATE_NOOP("StatsView", "Mean number of steps of this app's trajectories")),
)  # fmt: skip
PEOPLE_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("person", QT_TRANSLATE_NOOP("StatsView", "Person"), ""),
    ("trajectories_labelled", QT_TRANSLATE_NOOP("StatsView", "Trajectories labelled"),
     QT_TRANSLATE_NOOP("StatsView", "Trajectories in which this person changed at least one label")),
    ("steps_labelled", QT_TRANSLATE_NOOP("StatsView", "Steps labelled"),
     QT_TRANSLATE_NOOP("StatsView", "Steps in which this person changed at least one label")),
    ("revisions", QT_TRANSLATE_NOOP("StatsView", "Label changes"),
     QT_TRANSLATE_NOOP("StatsView", "Every change of a label field, each one a revision in the history")),
    ("reviews", QT_TRANSLATE_NOOP("StatsView", "Reviews done"),
     QT_TRANSLATE_NOOP("StatsView", "Review decisions this person made")),
    ("accepted", QT_TRANSLATE_NOOP("StatsView", "Accepted"),
     QT_TRANSLATE_NOOP("StatsView", "Trajectories this person labelled that are now accepted")),
    ("rejected", QT_TRANSLATE_NOOP("StatsView", "Rejected"),
     QT_TRANSLATE_NOOP("StatsView", "Trajectories this person labelled that are now rejected")),
    ("awaiting_review", QT_TRANSLATE_NOOP("StatsView", "Awaiting review"),
     QT_TRANSLATE_NOOP("StatsView", "Trajectories this person labelled that wait for a reviewer")),
)  # fmt: skip
ACTIVE_HOURS_TIP = QT_TRANSLATE_NOOP(
    "StatsView",
    "Active hours: the gaps between a person's consecutive label changes that are shorter than 10 minutes, added "
    "up; a longer pause is a break and does not count",
)
THROUGHPUT_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("person", QT_TRANSLATE_NOOP("StatsView", "Person"), ""),
    ("active_hours", QT_TRANSLATE_NOOP("StatsView", "Active hours"), ACTIVE_HOURS_TIP),
    ("steps_per_hour", QT_TRANSLATE_NOOP("StatsView", "Steps per hour"),
     QT_TRANSLATE_NOOP("StatsView", "Steps labelled per active hour (gaps under 10 minutes between label changes "
                       "count as work); shown from 6 active minutes on")),
    ("changed_by_review", QT_TRANSLATE_NOOP("StatsView", "Changed by review"),
     QT_TRANSLATE_NOOP("StatsView", "Share of the steps this person labelled that a reviewer or an admin changed "
                       "afterwards")),
    ("rejection_rate", QT_TRANSLATE_NOOP("StatsView", "Rejection rate"),
     QT_TRANSLATE_NOOP("StatsView", "Share of this person's reviewed trajectories that a reviewer rejected at "
                       "least once")),
)  # fmt: skip
PERCENT_KEYS = frozenset({"changed_by_review", "rejection_rate"})
MIN_NUMBER_WIDTH = 84  # short Chinese headers ("步数") would otherwise give very narrow number columns
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def translate(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source) if source else ""


def number_text(value: object) -> str:
    """Counts with the locale's digit grouping; means with one decimal."""
    if isinstance(value, float):
        return QLocale().toString(value, "f", 1)
    return QLocale().toString(int(value)) if isinstance(value, SupportsInt) else str(value)


def cell_text(key: str, value: object) -> str:
    """A table cell: shares as percentages, an undefined value (NaN: nothing to divide by) as a dash."""
    if isinstance(value, float) and math.isnan(value):
        return "–"
    if key in PERCENT_KEYS and isinstance(value, float):
        return QLocale().toString(100 * value, "f", 0) + "%"
    return number_text(value)


class StatsTable(QTableWidget):
    """A read-only table of one of the service's DataFrames; numbers right-aligned, an optional bold last row."""

    def __init__(self, name: str, columns: tuple[tuple[str, str, str], ...], parent: QWidget | None = None) -> None:
        super().__init__(0, len(columns), parent)
        self.setObjectName(f"stats-table-{name}")
        self.columns = columns
        style_read_only(self)
        header = self.horizontalHeader()
        # Names take what the numbers leave; a number column is as wide as its header or its widest value.
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(MIN_NUMBER_WIDTH)

    def retranslate(self) -> None:
        for index, (_key, title, tip) in enumerate(self.columns):
            item = QTableWidgetItem(translate(title))
            item.setToolTip(translate(tip))
            self.setHorizontalHeaderItem(index, item)

    def show_rows(self, rows: list[list[str]], bold_last: bool = False) -> None:
        self.setRowCount(len(rows))
        for row, values in enumerate(rows):
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                if column > 0:
                    item.setTextAlignment(NUMBER_ALIGNMENT)
                if bold_last and row == len(rows) - 1:
                    font = QFont(item.font())
                    font.setBold(True)
                    item.setFont(font)
                self.setItem(row, column, item)

    def fit_height(self, most_rows: int) -> None:
        """As tall as its rows (up to `most_rows`; more scroll), so a short table leaves no blank box."""
        shown = max(1, min(self.rowCount(), most_rows))
        frame = 2 * self.frameWidth() + self.horizontalHeader().sizeHint().height()
        self.setFixedHeight(frame + shown * self.verticalHeader().defaultSectionSize() + 2)
