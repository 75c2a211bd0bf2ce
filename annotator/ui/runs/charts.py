"""A run's loss and reward curves by step, side by side (only the ones the run logs), in the user's language.

The reward is what the trainer logs as `reward`: TRL's mean, over the step's completions, of the sum of the
weighted reward functions (grpo_task logs its R_task the same way). Each axis says what it plots and on which scale.

Imported when the first run is shown (matplotlib is slow to load and the app starts without it), as the Models and
Statistics views' charts are; the texts use their fonts, so Chinese labels find their glyphs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from annotator.reports.statistics_charts import BLUE, ORANGE, style
from annotator.ui.figure_canvas import IdleDrawCanvas
from annotator.ui.i18n import QT_TRANSLATE_NOOP, fill

if TYPE_CHECKING:
    from annotator.services.training import Curve

CONTEXT = "RunsCharts"
TEXT = {
    "loss": QT_TRANSLATE_NOOP("RunsCharts", "Loss"),
    "reward": QT_TRANSLATE_NOOP("RunsCharts", "Mean reward"),
    "step": QT_TRANSLATE_NOOP("RunsCharts", "Step"),
    "empty": QT_TRANSLATE_NOOP("RunsCharts", "No step logged yet"),
    "ends": QT_TRANSLATE_NOOP("RunsCharts", "%1: first %2, last %3"),
    "average": QT_TRANSLATE_NOOP("RunsCharts", "mean of %1 steps"),
    "loss_log": QT_TRANSLATE_NOOP("RunsCharts", "Loss (log scale)"),
    "loss_linear": QT_TRANSLATE_NOOP("RunsCharts", "Loss (linear scale)"),
    "reward_axis": QT_TRANSLATE_NOOP("RunsCharts", "Mean reward per completion\n(sum of the reward terms)"),
}
HEIGHT_PX = 260
LOG_SCALE_RATIO = 30  # a positive loss whose largest value is this many times its smallest is drawn on a log axis
MARGIN = 0.1  # of a reward curve's span, above and below it
FLAT_MARGIN = 0.05  # around a reward that never moved: of its value, and at least this much
WINDOWS = 8  # the moving mean spans an eighth of the steps: the trend through a noisy reward or loss


def text(key: str) -> str:
    return QCoreApplication.translate(CONTEXT, TEXT[key])


def draw_curves(figure: Figure, curves: dict[str, Curve]) -> None:
    """One axes per curve that has points; a line with a dot per logged step (a run of 2 steps still shows)."""
    figure.clear()
    shown = {key: curve for key, curve in curves.items() if curve.steps}
    if not shown:
        figure.text(0.5, 0.5, text("empty"), ha="center", va="center", color="grey")
        style(figure)
        return
    for axes, (key, curve) in zip(figure.subplots(1, len(shown), squeeze=False)[0], shown.items(), strict=True):
        colour = BLUE if key == "loss" else ORANGE
        axes.plot(curve.steps, curve.values, marker="o", markersize=3, color=colour, alpha=0.45, linewidth=0.8)
        window = len(curve.values) // WINDOWS
        if window >= 2:
            axes.plot(
                curve.steps[window - 1 :],
                moving_mean(curve.values, window),
                color=colour,
                linewidth=2,
                label=fill(text("average"), window),
            )
            axes.legend(loc="best", fontsize="small", frameon=False)
        first, last = curve.values[0], curve.values[-1]
        axes.set_title(fill(text("ends"), text(key), figure_value(first), figure_value(last)))
        if key == "loss":
            axes.set_ylabel(text("loss_log" if set_loss_range(axes, curve.values) else "loss_linear"))
        else:
            set_reward_range(axes, curve.values)
            axes.set_ylabel(text("reward_axis"))
        axes.set_xlabel(text("step"))
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.spines[["top", "right"]].set_visible(False)
        axes.grid(alpha=0.3)
    style(figure)


def moving_mean(values: list[float], window: int) -> list[float]:
    """The mean of each `window` values in a row, from the window-th on."""
    sums = [0.0]
    for value in values:
        sums.append(sums[-1] + value)
    return [(sums[end] - sums[end - window]) / window for end in range(window, len(values) + 1)]


def figure_value(value: float) -> str:
    return f"{value:.3g}"


def set_loss_range(axes: Axes, values: list[float]) -> bool:
    """A log axis for a positive loss spanning orders of magnitude (SFT's ~7 to 0.01 reads as the fall it is, not
    as a flat line that jumps at the end); otherwise a linear one with zero in view, so noise does not look like a
    fall or a climb. True when the axis is logarithmic."""
    low, high = min(values), max(values)
    if low > 0 and high / low >= LOG_SCALE_RATIO:
        axes.set_yscale("log")
        return True
    span = max(high - low, abs(high), abs(low), 1e-12)
    axes.set_ylim(min(low, 0.0) - 0.05 * span, max(high, 0.0) + 0.05 * span)
    return False


def set_reward_range(axes: Axes, values: list[float]) -> None:
    """The data's own range with a small margin: a reward moving near its bound (1.9 to 2.0 of 2) shows its
    movement instead of a flat line at the top of an axis from zero."""
    low, high = min(values), max(values)
    margin = MARGIN * (high - low) if high > low else max(FLAT_MARGIN * abs(high), FLAT_MARGIN)
    axes.set_ylim(low - margin, high + margin)


class CurvesChart(IdleDrawCanvas):
    def __init__(self, parent: QWidget | None = None) -> None:
        self.curves: dict[str, Curve] = {}  # before Qt can send a change event to redraw()
        super().__init__(Figure(layout="constrained"))
        self.setParent(parent)
        self.setObjectName("runs-curves")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(HEIGHT_PX // 2)
        self.redraw()

    def show_curves(self, loss: Curve, reward: Curve) -> None:
        if {"loss": loss, "reward": reward} != self.curves:  # a poll that brought nothing new draws nothing
            self.curves = {"loss": loss, "reward": reward}
            self.redraw()

    def points(self) -> dict[str, int]:
        return {key: len(curve.steps) for key, curve in self.curves.items()}

    def redraw(self) -> None:
        draw_curves(self.figure, self.curves)
        self.draw_idle()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.LanguageChange, QEvent.Type.LocaleChange):
            self.redraw()
        super().changeEvent(event)
