"""The statistics charts: matplotlib figures on Qt canvases, redrawn for new numbers or a new language.

Each chart owns its ``Figure`` (no pyplot: it keeps global state and would leak figures). Chinese app
names need a font with Han glyphs; matplotlib does not see the font Qt registers from memory, so the
shipped subset is registered with matplotlib's font manager too and put after the Latin font in every text's
family list: matplotlib then falls back glyph by glyph, as Qt does (see annotator/ui/fonts.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib.resources import as_file
from pathlib import Path

from matplotlib import font_manager
from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QLocale
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from annotator.domain.trajectory import ReviewStatus
from annotator.resources import resource
from annotator.services.dataset_stats import DatasetStats
from annotator.ui import labels
from annotator.ui.fonts import CJK_FONT

CONTEXT = "StatsCharts"
LATIN_FAMILY = "DejaVu Sans"  # ships with matplotlib, so it is always there
SYSTEM_CJK = ("Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC", "WenQuanYi Zen Hei")
TEXT_SIZE, TITLE_SIZE = 8.5, 10.0
EXPORT_DPI = 150
TITLE_GID = "chart-title"  # marks a figure title, which has no getter that returns its Text
BLUE, ORANGE, GREY = "#4c78a8", "#f58518", "#bab0ac"
REVIEW_COLOURS = {
    ReviewStatus.UNLABELLED: "#bab0ac", ReviewStatus.IN_PROGRESS: "#9ecae9", ReviewStatus.ANNOTATED: "#f2cf5b",
    ReviewStatus.ACCEPTED: "#54a24b", ReviewStatus.REJECTED: "#e45756",
}  # fmt: skip

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


@functools.cache
def font_families() -> tuple[str, ...]:
    """The family list of every chart text: Latin first, then a system CJK font if any, then the shipped one."""
    with as_file(resource(CJK_FONT)) as path:
        font_manager.fontManager.addfont(str(path))
        shipped = font_manager.FontProperties(fname=str(path)).get_name()
    known = {entry.name for entry in font_manager.fontManager.ttflist}
    return (LATIN_FAMILY, *(name for name in SYSTEM_CJK if name in known and name != shipped), shipped)


def style(figure: Figure) -> None:
    """Every text of `figure` in the chart fonts and sizes, including tick labels made at draw time."""
    families = list(font_families())
    titles = {axes.title for axes in figure.axes}
    for item in figure.findobj(Text):
        item.set_fontfamily(families)
        item.set_fontsize(TITLE_SIZE if item in titles or item.get_gid() == TITLE_GID else TEXT_SIZE)
    for axes in figure.axes:
        axes.tick_params(labelsize=TEXT_SIZE, labelfontfamily=families)


def draw_empty(figure: Figure) -> None:
    figure.text(0.5, 0.5, text("empty"), ha="center", va="center", color="grey")


# the charts --------------------------------------------------------------------------------------------------


def draw_per_app(figure: Figure, stats: DatasetStats) -> None:
    """Mobile-R1 Table 6 as two bar charts side by side, sharing the app axis (the largest app on top)."""
    table = stats.per_app.iloc[::-1]
    trajectories_axes, steps_axes = figure.subplots(1, 2, sharey=True)
    for axes, column, colour in ((trajectories_axes, "trajectories", BLUE), (steps_axes, "steps", ORANGE)):
        bars = axes.barh(list(table["app"]), list(table[column]), color=colour)
        axes.bar_label(bars, labels=[count(v) for v in table[column]], padding=2)
        axes.set_title(text(column))
        axes.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))  # half a window wide: few ticks
        axes.margins(x=0.18)  # room for the value labels
        axes.spines[["top", "right"]].set_visible(False)
    figure.suptitle(text("per_app")).set_gid(TITLE_GID)


def draw_lengths(figure: Figure, stats: DatasetStats) -> None:
    """Mobile-R1 Figure 4: how many trajectories have each length, with the mean marked."""
    axes = figure.subplots()
    table = stats.lengths
    bars = axes.bar(list(table["steps"]), list(table["trajectories"]), color=BLUE, width=0.8)
    axes.bar_label(bars, labels=[count(v) if v else "" for v in table["trajectories"]], padding=1)
    mean = stats.totals.mean_steps
    mean_text = QLocale().toString(mean, "f", 1)
    axes.axvline(mean, color=ORANGE, linestyle="--", linewidth=1.2, label=text("mean").replace("%1", mean_text))
    axes.legend(frameon=False, loc="upper right")
    axes.set_title(text("lengths"))
    axes.set_xlabel(text("length_axis"))
    axes.set_ylabel(text("trajectories"))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.margins(y=0.15)
    axes.spines[["top", "right"]].set_visible(False)


def draw_actions(figure: Figure, stats: DatasetStats) -> None:
    """Steps per action type (the most frequent on top), split by where the action came from."""
    axes = figure.subplots()
    table = stats.actions.iloc[::-1]
    names = [name if isinstance(name, str) else text("no_action") for name in table["action"]]
    axes.barh(names, list(table["labelled"]), color=BLUE, label=text("labelled_action"))
    bars = axes.barh(names, list(table["collected"]), left=list(table["labelled"]), color=GREY,
                     label=text("collected_action"))  # fmt: skip
    axes.bar_label(bars, labels=[count(v) for v in table["steps"]], padding=2)
    axes.set_title(text("actions"))
    axes.set_xlabel(text("steps"))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.margins(x=0.12)
    axes.legend(frameon=False, loc="lower right")
    axes.spines[["top", "right"]].set_visible(False)


def draw_review(figure: Figure, stats: DatasetStats) -> None:
    """One bar split by review state, in workflow order: how far the labelling and review have come."""
    axes = figure.subplots()
    total = int(stats.review["trajectories"].sum())
    left = 0
    for status, number in zip(stats.review["review_status"], stats.review["trajectories"], strict=True):
        if not number:
            continue
        name = labels.label(labels.REVIEW, status)
        bars = axes.barh([0], [number], left=[left], color=REVIEW_COLOURS.get(status, BLUE),
                         label=f"{name} ({count(number)})")  # fmt: skip
        axes.bar_label(bars, labels=[count(number)], label_type="center")
        left += number
    axes.set_xlim(0, max(total, 1))
    axes.set_yticks([])
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_title(text("review"))
    axes.set_xlabel(text("trajectories"))
    figure.legend(frameon=False, loc="outside lower center", ncols=3)
    axes.spines[["top", "right", "left"]].set_visible(False)


Drawer = Callable[[Figure, DatasetStats], None]


class Chart(FigureCanvasQTAgg):
    """A canvas that draws one of the charts above for the stats it is given (or an empty state)."""

    def __init__(self, name: str, drawer: Drawer, min_height: int, parent: QWidget | None = None) -> None:
        self.stats: DatasetStats | None = None  # before Qt can send a change event to redraw()
        super().__init__(Figure(layout="constrained"))
        self.setParent(parent)
        self.setObjectName(f"stats-chart-{name}")
        self.name, self.drawer = name, drawer
        self.setMinimumHeight(min_height)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.redraw()

    def show_stats(self, stats: DatasetStats | None) -> None:
        self.stats = stats
        self.redraw()

    def redraw(self) -> None:
        """Build the figure anew: the numbers, the locale's digits and the language's labels may all have changed."""
        self.figure.clear()
        if self.stats is None or self.stats.is_empty():
            draw_empty(self.figure)
        else:
            self.drawer(self.figure, self.stats)
        style(self.figure)
        self.draw_idle()

    def export_size(self) -> tuple[float, float]:
        """Inches of the exported PNG: wide enough to read, and taller for charts with a bar per row."""
        rows = {"per_app": len(self.stats.per_app), "actions": len(self.stats.actions)} if self.stats else {}
        heights = {"lengths": 4.0, "review": 2.2}
        height = heights.get(self.name, max(3.0, 0.32 * rows.get(self.name, 0) + 1.5))
        return 9.0, height

    def save_png(self, path: Path) -> Path:
        """Write the chart at the export size (the canvas on screen keeps its own size)."""
        shown = self.figure.get_size_inches().copy()
        self.figure.set_size_inches(self.export_size(), forward=False)
        try:
            self.figure.savefig(path, dpi=EXPORT_DPI, facecolor="white")
        finally:
            self.figure.set_size_inches(shown, forward=False)
            self.draw_idle()
        return path

    def wheelEvent(self, event: QWheelEvent) -> None:
        event.ignore()  # the charts do not zoom: let the scroll area around them scroll

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.LanguageChange, QEvent.Type.LocaleChange):
            self.redraw()
        super().changeEvent(event)
