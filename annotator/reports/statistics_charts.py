"""The charts of a dataset's shape as matplotlib figures, without Qt: per app (Table 6), Figure 4, action types.

The statistics view draws them on its Qt canvases in the user's language; ``trainer-bridge stats`` writes
them as PNG files with the Agg canvas (no pyplot: it keeps global state and would leak figures, and the GUI's
own backend is left alone). Words and numbers come from a `Wording`, so the same drawing serves both.

Chinese app names need a font with Han glyphs. The shipped subset of Droid Sans Fallback is registered with
matplotlib's font manager and put after the Latin font in every text's family list: matplotlib then falls
back glyph by glyph, as Qt does (see annotator/ui/fonts.py). A system CJK font, where there is one, comes first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import as_file
from pathlib import Path

from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from annotator.resources import resource
from annotator.storage.statistics import DatasetShape

CJK_FONT = "fonts/DroidSansFallback-subset.ttf"
LATIN_FAMILY = "DejaVu Sans"  # ships with matplotlib, so it is always there
SYSTEM_CJK = ("Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC", "WenQuanYi Zen Hei")
TEXT_SIZE, TITLE_SIZE = 8.5, 10.0
EXPORT_DPI = 150
TITLE_GID = "chart-title"  # marks a figure title, which has no getter that returns its Text
BLUE, ORANGE, GREY = "#4c78a8", "#f58518", "#bab0ac"

# The English texts; the view translates the same sources (annotator/ui/stats/charts.py, for lupdate).
TEXT = {
    "per_app": "Trajectories and steps per app",
    "trajectories": "Trajectories",
    "steps": "Steps",
    "lengths": "Distribution of trajectory length",
    "length_axis": "Steps per trajectory",
    "mean": "mean %1",
    "actions": "Steps per action type",
    "labelled_action": "labelled action",
    "collected_action": "collected action (not labelled)",
    "no_action": "(no action)",
    "empty": "No trajectories yet",
}


@dataclass(frozen=True)
class Wording:
    """How a chart says things: a text by its TEXT key, a count, a mean (one decimal)."""

    text: Callable[[str], str] = TEXT.__getitem__
    count: Callable[[int], str] = lambda value: f"{int(value):,}"
    decimal: Callable[[float], str] = lambda value: f"{value:.1f}"


ENGLISH = Wording()
Drawer = Callable[[Figure, DatasetShape, Wording], None]


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


def draw_empty(figure: Figure, words: Wording) -> None:
    figure.text(0.5, 0.5, words.text("empty"), ha="center", va="center", color="grey")


def render(figure: Figure, drawer: Drawer, shape: DatasetShape | None, words: Wording) -> None:
    """Build `figure` anew: the chart of `shape`, or the empty state when there is nothing to show."""
    figure.clear()
    if shape is None or shape.is_empty():
        draw_empty(figure, words)
    else:
        drawer(figure, shape, words)
    style(figure)


# the charts --------------------------------------------------------------------------------------------------


def draw_per_app(figure: Figure, shape: DatasetShape, words: Wording) -> None:
    """Mobile-R1 Table 6 as two bar charts side by side, sharing the app axis (the largest app on top)."""
    table = shape.per_app.iloc[::-1]
    trajectories_axes, steps_axes = figure.subplots(1, 2, sharey=True)
    for axes, column, colour in ((trajectories_axes, "trajectories", BLUE), (steps_axes, "steps", ORANGE)):
        bars = axes.barh(list(table["app"]), list(table[column]), color=colour)
        axes.bar_label(bars, labels=[words.count(v) for v in table[column]], padding=2)
        axes.set_title(words.text(column))
        axes.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))  # half a window wide: few ticks
        axes.margins(x=0.18)  # room for the value labels
        axes.spines[["top", "right"]].set_visible(False)
    figure.suptitle(words.text("per_app")).set_gid(TITLE_GID)


def draw_lengths(figure: Figure, shape: DatasetShape, words: Wording) -> None:
    """Mobile-R1 Figure 4: how many trajectories have each length, with the mean marked."""
    axes = figure.subplots()
    table = shape.lengths
    bars = axes.bar(list(table["steps"]), list(table["trajectories"]), color=BLUE, width=0.8)
    axes.bar_label(bars, labels=[words.count(v) if v else "" for v in table["trajectories"]], padding=1)
    mean = shape.totals.mean_steps
    label = words.text("mean").replace("%1", words.decimal(mean))
    axes.axvline(mean, color=ORANGE, linestyle="--", linewidth=1.2, label=label)
    axes.legend(frameon=False, loc="upper right")
    axes.set_title(words.text("lengths"))
    axes.set_xlabel(words.text("length_axis"))
    axes.set_ylabel(words.text("trajectories"))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.margins(y=0.15)
    axes.spines[["top", "right"]].set_visible(False)


def draw_actions(figure: Figure, shape: DatasetShape, words: Wording) -> None:
    """Steps per action type (the most frequent on top), split by where the action came from."""
    axes = figure.subplots()
    table = shape.actions.iloc[::-1]
    names = [name if isinstance(name, str) else words.text("no_action") for name in table["action"]]
    axes.barh(names, list(table["labelled"]), color=BLUE, label=words.text("labelled_action"))
    bars = axes.barh(
        names, list(table["collected"]), left=list(table["labelled"]), color=GREY, label=words.text("collected_action")
    )
    axes.bar_label(bars, labels=[words.count(v) for v in table["steps"]], padding=2)
    axes.set_title(words.text("actions"))
    axes.set_xlabel(words.text("steps"))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.margins(x=0.12)
    axes.legend(frameon=False, loc="lower right")
    axes.spines[["top", "right"]].set_visible(False)


# PNG files ---------------------------------------------------------------------------------------------------

# file name -> (the chart's kind, which sets its size; its drawer)
CHARTS: dict[str, tuple[str, Drawer]] = {
    "per_app": ("per_app", draw_per_app),
    "trajectory_lengths": ("lengths", draw_lengths),
    "action_types": ("actions", draw_actions),
}


def export_size(kind: str, shape: DatasetShape | None) -> tuple[float, float]:
    """Inches of an exported PNG: wide enough to read, and taller for charts with a bar per row."""
    rows = {"per_app": len(shape.per_app), "actions": len(shape.actions)} if shape else {}
    heights = {"lengths": 4.0, "review": 2.2}
    return 9.0, heights.get(kind, max(3.0, 0.32 * rows.get(kind, 0) + 1.5))


def save_png(figure: Figure, path: Path) -> Path:
    figure.savefig(path, dpi=EXPORT_DPI, facecolor="white", metadata={"Software": None})
    return path


def write_pngs(shape: DatasetShape, folder: Path, prefix: str = "", words: Wording = ENGLISH) -> list[Path]:
    """One PNG per chart of CHARTS (``<prefix><name>.png``), drawn off-screen with Agg; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (kind, drawer) in CHARTS.items():
        figure = Figure(figsize=export_size(kind, shape), layout="constrained")
        FigureCanvasAgg(figure)
        render(figure, drawer, shape, words)
        written.append(save_png(figure, folder / f"{prefix}{name}.png"))
    return written
