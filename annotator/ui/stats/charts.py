"""The statistics charts: matplotlib figures on Qt canvases, redrawn for new numbers or a new language.

The dataset charts (per app, trajectory lengths, action types), their fonts and export sizes live in
``annotator.reports.statistics_charts``, shared with ``trainer-bridge stats``; here they get the user's
language and locale (a `Wording` of Qt translations), the review chart, and a Qt canvas.
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from PySide6.QtCore import QCoreApplication, QEvent, QLocale
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from annotator.domain.trajectory import ReviewStatus
from annotator.reports.statistics_charts import (
    BLUE,
    Drawer,
    Wording,
    draw_actions,
    draw_lengths,
    draw_per_app,
    export_size,
    render,
    save_png,
)
from annotator.services.dataset_stats import DatasetStats
from annotator.storage.statistics import DatasetShape
from annotator.ui import labels
from annotator.ui.figure_canvas import IdleDrawCanvas
from annotator.ui.i18n import QT_TRANSLATE_NOOP

__all__ = ["Chart", "draw_actions", "draw_lengths", "draw_per_app", "draw_review"]  # the stats view draws these

CONTEXT = "StatsCharts"
REVIEW_COLOURS = {
    ReviewStatus.UNLABELLED: "#bab0ac",
    ReviewStatus.IN_PROGRESS: "#9ecae9",
    ReviewStatus.ANNOTATED: "#f2cf5b",
    ReviewStatus.ACCEPTED: "#54a24b",
    ReviewStatus.REJECTED: "#e45756",
}

# The sources of statistics_charts.TEXT, marked here for lupdate (it reads annotator/ui only), and the review's.
TEXT = {
    "per_app": QT_TRANSLATE_NOOP("StatsCharts", "Trajectories and steps per app"),
    "trajectories": QT_TRANSLATE_NOOP("StatsCharts", "Trajectories"),
    "steps": QT_TRANSLATE_NOOP("StatsCharts", "Steps"),
    "lengths": QT_TRANSLATE_NOOP("StatsCharts", "Distribution of trajectory length"),
    "length_axis": QT_TRANSLATE_NOOP("StatsCharts", "Steps per trajectory"),
    "mean": QT_TRANSLATE_NOOP("StatsCharts", "mean %1"),
    "actions": QT_TRANSLATE_NOOP("StatsCharts", "Steps per action type"),
    "labelled_action": QT_TRANSLATE_NOOP("StatsCharts", "labelled action"),
    "collected_action": QT_TRANSLATE_NOOP("StatsCharts", "collected action (not labelled)"),
    "no_action": QT_TRANSLATE_NOOP("StatsCharts", "(no action)"),
    "review": QT_TRANSLATE_NOOP("StatsCharts", "Review progress"),
    "empty": QT_TRANSLATE_NOOP("StatsCharts", "No trajectories yet"),
}


def text(key: str) -> str:
    return QCoreApplication.translate(CONTEXT, TEXT[key])


def count(value: int) -> str:
    return QLocale().toString(int(value))


def decimal(value: float) -> str:
    return QLocale().toString(value, "f", 1)


WORDING = Wording(text=text, count=count, decimal=decimal)  # read at draw time: follows language and locale


def draw_review(figure: Figure, stats: DatasetShape, words: Wording = WORDING) -> None:
    """One bar split by review state, in workflow order: how far the labelling and review have come. A Drawer, so
    it takes any shape; only DatasetStats has the review table, a bare shape draws no bar."""
    if not isinstance(stats, DatasetStats):
        return
    axes = figure.subplots()
    total = int(stats.review["trajectories"].sum())
    left = 0
    for status, number in zip(stats.review["review_status"], stats.review["trajectories"], strict=True):
        if not number:
            continue
        name = labels.label(labels.REVIEW, status)
        bars = axes.barh(
            [0], [number], left=[left], color=REVIEW_COLOURS.get(status, BLUE), label=f"{name} ({words.count(number)})"
        )
        axes.bar_label(bars, labels=[words.count(number)], label_type="center")
        left += number
    axes.set_xlim(0, max(total, 1))
    axes.set_yticks([])
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_title(words.text("review"))
    axes.set_xlabel(words.text("trajectories"))
    figure.legend(frameon=False, loc="outside lower center", ncols=3)
    axes.spines[["top", "right", "left"]].set_visible(False)


class Chart(IdleDrawCanvas):
    """A canvas that draws one of the charts above for the stats it is given (or an empty state)."""

    def __init__(self, name: str, drawer: Drawer, min_height: int, parent: QWidget | None = None) -> None:
        # before Qt can send a change event to redraw(): a canvas made after the language was switched gets one
        # when it is given its parent
        self.stats: DatasetStats | None = None
        self.name, self.drawer = name, drawer
        super().__init__(Figure(layout="constrained"))
        self.setParent(parent)
        self.setObjectName(f"stats-chart-{name}")
        self.setMinimumHeight(min_height)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.redraw()

    def show_stats(self, stats: DatasetStats | None) -> None:
        self.stats = stats
        self.redraw()

    def redraw(self) -> None:
        """Build the figure anew: the numbers, the locale's digits and the language's labels may all have changed."""
        render(self.figure, self.drawer, self.stats, WORDING)
        self.draw_idle()

    def export_size(self) -> tuple[float, float]:
        """Inches of the exported PNG: wide enough to read, and taller for charts with a bar per row."""
        return export_size(self.name, self.stats)

    def save_png(self, path: Path) -> Path:
        """Write the chart at the export size (the canvas on screen keeps its own size)."""
        width, height = self.figure.get_size_inches()
        self.figure.set_size_inches(self.export_size(), forward=False)
        try:
            return save_png(self.figure, path)
        finally:
            self.figure.set_size_inches((width, height), forward=False)
            self.draw_idle()

    def wheelEvent(self, event: QWheelEvent) -> None:
        event.ignore()  # the charts do not zoom: let the scroll area around them scroll

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.LanguageChange, QEvent.Type.LocaleChange):
            self.redraw()
        super().changeEvent(event)
