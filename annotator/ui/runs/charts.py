"""A run's loss and reward curves by step, side by side (only the ones the run logs), in the user's language.

Imported when the first run is shown (matplotlib is slow to load and the app starts without it), as the Models and
Statistics views' charts are; the texts use their fonts, so Chinese labels find their glyphs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from annotator.reports.statistics_charts import BLUE, ORANGE, style
from annotator.ui.figure_canvas import IdleDrawCanvas

if TYPE_CHECKING:
    from annotator.services.training import Curve

CONTEXT = "RunsCharts"
TEXT = {
    "loss": QT_TRANSLATE_NOOP("RunsCharts", "Loss"),
    "reward": QT_TRANSLATE_NOOP("RunsCharts", "Mean reward"),
    "step": QT_TRANSLATE_NOOP("RunsCharts", "Step"),
    "empty": QT_TRANSLATE_NOOP("RunsCharts", "No step logged yet"),
}
HEIGHT_PX = 260


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
        axes.plot(curve.steps, curve.values, marker="o", markersize=3, color=BLUE if key == "loss" else ORANGE)
        axes.set_title(text(key))
        axes.set_xlabel(text("step"))
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.spines[["top", "right"]].set_visible(False)
        axes.grid(alpha=0.3)
    style(figure)


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
