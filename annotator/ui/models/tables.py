"""The Models view's tables: how figures are written (percentages, points, intervals), the names of statuses and
kinds in the user's language, and the read-only table widget they are shown in (the metrics' names: glossary.py).

Fractions (0-1) are shown as percentages with one decimal, differences as signed percentage points; a figure
that cannot be computed (no step with a point for grounding, say) or counts nothing reads as a dash.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from annotator.domain.evaluation import ONLINE_HEADLINE, measured
from annotator.ui.browser.model import local_time
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill
from annotator.ui.models.glossary import NO_VALUE, SHORT, explain, translate
from annotator.ui.read_only_table import header_texts, shown_texts, style_read_only

if TYPE_CHECKING:
    from annotator.services.evaluations import EvaluationRow

NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
BETTER, WORSE = QColor("#2e7d32"), QColor("#c62828")  # a difference's colour: up is good for every figure here
OFFLINE_FIGURES = (
    "step_accuracy",
    "task_success",
    "type_match",
    "exact_match",
    "grounding_accuracy",
    "step_success_rate",
)
ONLINE_FIGURES = (*ONLINE_HEADLINE, "claimed_success")
# The list's figure columns: the offline headline with Mobile-R1's Tail Succ. beside its Task Succ. (an online
# evaluation fills that one: every step right is not a figure of runs on phones).
LIST_FIGURES = (*OFFLINE_FIGURES[:2], "tail_success", *OFFLINE_FIGURES[2:])
MIN_NUMBER_WIDTH = 64  # short Chinese headers would otherwise make narrow number columns

STATUSES = {
    "running": QT_TRANSLATE_NOOP("ModelsView", "running"),
    "complete": QT_TRANSLATE_NOOP("ModelsView", "complete"),
    "stopped": QT_TRANSLATE_NOOP("ModelsView", "stopped"),
    "failed": QT_TRANSLATE_NOOP("ModelsView", "failed"),
}
KINDS = {
    "offline": QT_TRANSLATE_NOOP("ModelsView", "offline"),
    "online": QT_TRANSLATE_NOOP("ModelsView", "online"),
    "selection": QT_TRANSLATE_NOOP("ModelsView", "selection"),
}
LEVELS = {  # what the model was asked: the task's instruction, or the step's own action text
    "task": QT_TRANSLATE_NOOP("ModelsView", "task"),
    "action": QT_TRANSLATE_NOOP("ModelsView", "action"),
}
REASONS = {  # why a step failed (services.evaluations)
    "request": QT_TRANSLATE_NOOP("ModelsView", "request failed"),
    "format": QT_TRANSLATE_NOOP("ModelsView", "reply format"),
    "type": QT_TRANSLATE_NOOP("ModelsView", "wrong action type"),
    "argument": QT_TRANSLATE_NOOP("ModelsView", "wrong argument"),
}


def value_name(table: dict[str, str], value: str) -> str:
    """A stored value (status, kind, reason) in the user's language; an unknown one as stored."""
    return translate(table[value]) if value in table else value


def percent(value: object) -> str:
    """0.864 -> "86.4%" with the locale's decimal point; None (cannot be computed) -> a dash."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return NO_VALUE
    return QLocale().toString(100 * float(value), "f", 1) + "%"  # the same sign in English and Chinese


def share(figures: dict[str, Any], key: str) -> str:
    """One of `figures` as a percentage; a dash where the count it is a share of is 0 (domain.evaluation.measured)."""
    return percent(measured(figures, key))


def points(value: object) -> str:
    """A difference of two fractions in signed percentage points: -0.136 -> "−13.6 pts"."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return NO_VALUE
    number = QLocale().toString(abs(100 * float(value)), "f", 1)
    sign = "+" if value > 0 else "−" if value < 0 else "±"
    return fill(translate(QT_TRANSLATE_NOOP("ModelsView", "%1 pts")), sign + number)


def interval(bounds: object) -> str:
    """[lo, hi] as "78.7% – 95.4%"; a dash when the summary has none (fewer than two trajectories)."""
    if not isinstance(bounds, (list, tuple)) or len(bounds) != 2:
        return NO_VALUE
    return f"{percent(bounds[0])} – {percent(bounds[1])}"


def count(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return NO_VALUE
    if isinstance(value, float) and not value.is_integer():
        return QLocale().toString(value, "f", 1)
    return QLocale().toString(int(value))


def moment(value: datetime | None) -> str:
    """A stored UTC time in the user's time zone, written as the trajectory list writes it (one format everywhere:
    the locale's short format read "11/28/26 12:40 AM" in English beside the lists' "2026-11-28 00:40")."""
    return "" if value is None else local_time(value)


class Cell:
    """What one cell shows: its text, and optionally a tooltip, a colour, bold, and data kept for the row."""

    __slots__ = ("bold", "colour", "number", "text", "tip")

    def __init__(
        self, text: str, tip: str = "", colour: QColor | None = None, bold: bool = False, number: bool = True
    ) -> None:
        self.text, self.tip, self.colour, self.bold, self.number = text, tip, colour, bold, number


def heading(parent: QWidget) -> QLabel:
    """A bold line above a table."""
    label = QLabel(parent)
    label.setStyleSheet("font-weight: bold")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)  # names in it are escaped
    return label


class FiguresTable(QTableWidget):
    """A read-only table: the first column names a row (left-aligned, stretched), the others are figures."""

    def __init__(self, name: str, parent: QWidget | None = None, *, stretch: int = 0) -> None:
        super().__init__(0, 0, parent)
        self.setObjectName(f"models-{name}")
        self.stretch = stretch
        style_read_only(self)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.horizontalHeader().setMinimumSectionSize(MIN_NUMBER_WIDTH)

    def set_columns(self, columns: Sequence[tuple[str, str]]) -> None:
        """(title, tooltip) per column, already translated; the `stretch` column takes the room left."""
        self.setColumnCount(len(columns))
        for index, (title, tip) in enumerate(columns):
            item = QTableWidgetItem(title)
            item.setToolTip(tip)
            self.setHorizontalHeaderItem(index, item)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        if columns:
            header.setSectionResizeMode(self.stretch, QHeaderView.ResizeMode.Stretch)

    def show_rows(self, rows: Sequence[Sequence[Cell | str]]) -> None:
        self.setRowCount(len(rows))
        for row, values in enumerate(rows):
            for column, value in enumerate(values):
                cell = value if isinstance(value, Cell) else Cell(value, number=column > 0)
                item = QTableWidgetItem(cell.text)
                item.setToolTip(cell.tip or cell.text)
                if cell.number and column > 0:
                    item.setTextAlignment(NUMBER_ALIGNMENT)
                if cell.colour is not None:
                    item.setForeground(cell.colour)
                if cell.bold:
                    font = QFont(item.font())
                    font.setBold(True)
                    item.setFont(font)
                self.setItem(row, column, item)

    def cells(self) -> list[list[str]]:
        return shown_texts(self)

    def header_titles(self) -> list[str]:
        return header_texts(self)

    def fit_height(self, most_rows: int) -> None:
        """As tall as its rows (up to `most_rows`; more scroll), so a short table leaves no blank box."""
        shown = max(1, min(self.rowCount(), most_rows))
        frame = 2 * self.frameWidth() + self.horizontalHeader().sizeHint().height()
        bar = self.horizontalScrollBar().sizeHint().height() if self.horizontalScrollBar().isVisible() else 0
        self.setFixedHeight(frame + shown * self.verticalHeader().defaultSectionSize() + bar + 2)


def signed_colour(value: object) -> QColor | None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value == 0:
        return None
    return BETTER if value > 0 else WORSE


# the list of evaluations ---------------------------------------------------------------------------------------

LIST_HEADERS = (
    (QT_TRANSLATE_NOOP("ModelsView", "Name"), ""),
    (QT_TRANSLATE_NOOP("ModelsView", "Model"), QT_TRANSLATE_NOOP("ModelsView", "The model the evaluation asked")),
    (QT_TRANSLATE_NOOP("ModelsView", "Kind"),
     QT_TRANSLATE_NOOP("ModelsView", "Offline: held-out steps with their labelled history; online: runs on phones")),
    (QT_TRANSLATE_NOOP("ModelsView", "Status"), ""),
)  # fmt: skip
DATE_HEADER = QT_TRANSLATE_NOOP("ModelsView", "Date")


def list_columns() -> list[tuple[str, str]]:
    """The list's (header, tooltip) pairs in the user's language: who, how it ended, the figures, when."""
    figures = [(translate(SHORT[key]), explain(key)) for key in LIST_FIGURES]
    named = [(translate(title), translate(tip)) for title, tip in LIST_HEADERS]
    return [*named, *figures, (translate(DATE_HEADER), "")]


def list_cells(row: EvaluationRow) -> list[Cell]:
    """One evaluation's cells; an online one fills tail success only, one without a summary only its names."""
    status = Cell(
        value_name(STATUSES, row.status),
        tip=row.message or "",
        number=False,
        colour=WORSE if row.status == "failed" else None,
    )
    cells = [
        Cell(
            row.name,
            tip=fill(translate(QT_TRANSLATE_NOOP("ModelsView", "Evaluation #%1: %2")), row.id, row.name),
            number=False,
        ),
        Cell(row.model, number=False),
        Cell(value_name(KINDS, row.kind), number=False),
        status,
    ]
    cells += [Cell(percent(row.figures.get(key))) for key in LIST_FIGURES]  # the service left out what is unmeasured
    when = translate(QT_TRANSLATE_NOOP("ModelsView", "Started %1, finished %2"))
    cells.append(Cell(moment(row.created_at), tip=fill(when, moment(row.created_at), moment(row.finished_at) or "—")))
    return cells


class CompareChoice(Retranslating, QComboBox):
    """The "Compare with" choice: the other evaluations of steps to compare the chosen one with, "(none)" first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("models-compare-with")
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.retranslate()

    def offer(self, rows: list[EvaluationRow], chosen: int | None, enabled: bool) -> None:
        """Every evaluation of steps but `chosen`; the one offered before stays chosen if it is still there."""
        before = self.currentData()
        self.blockSignals(True)
        self.clear()
        self.addItem(self.tr("(none)"), None)
        for row in rows:
            if row.id != chosen and row.has_steps:
                self.addItem(f"#{row.id} {row.name}", row.id)
        found = self.findData(before)
        self.setCurrentIndex(found if found > 0 else 0)
        self.setEnabled(enabled and chosen is not None)
        self.blockSignals(False)

    def clear_choice(self) -> None:
        self.blockSignals(True)
        self.setCurrentIndex(0)
        self.blockSignals(False)

    def retranslate(self) -> None:
        if self.count():
            self.setItemText(0, self.tr("(none)"))
        else:
            self.addItem(self.tr("(none)"), None)
