"""The per-app bars of one evaluation: two figures per app side by side (step accuracy and task success offline,
task and tail success online), drawn with matplotlib on a Qt canvas in the user's language.

Imported when the first evaluation is shown (matplotlib is slow to load), as the statistics charts are. The texts
use the statistics charts' fonts (``annotator.reports.statistics_charts.style``), so Chinese app names find their
glyphs in the shipped CJK font.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter
from PySide6.QtCore import QCoreApplication, QEvent, QLocale
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from annotator.domain.evaluation import ONLINE_HEADLINE, measured
from annotator.reports.statistics_charts import BLUE, ORANGE, TITLE_GID, style
from annotator.ui.figure_canvas import IdleDrawCanvas
from annotator.ui.i18n import QT_TRANSLATE_NOOP
from annotator.ui.models.glossary import metric_name

CONTEXT = "ModelsCharts"
TEXT = {
    "title": QT_TRANSLATE_NOOP("ModelsCharts", "Per app"),
    "empty": QT_TRANSLATE_NOOP("ModelsCharts", "No app has a scored step yet"),
    "none": QT_TRANSLATE_NOOP("ModelsCharts", "n/a"),
}
BARS = {"offline": ("step_accuracy", "task_success"), "online": ONLINE_HEADLINE}
BAR_HEIGHT = 0.38
ROW_PX, FRAME_PX = 46, 110  # on screen: a pair of bars per app, and room for the title, axis and legend


def text(key: str) -> str:
    return QCoreApplication.translate(CONTEXT, TEXT[key])


def bars_of(kind: str) -> tuple[str, str]:
    """The two figures drawn per app: online evaluations count runs, the others steps."""
    return BARS["online"] if kind == "online" else BARS["offline"]


def draw_per_app(figure: Figure, per_app: Mapping[str, dict[str, Any]], kind: str) -> None:
    """Horizontal bar pairs, the first app by name on top, each bar labelled with its percentage."""
    figure.clear()
    if not per_app:
        figure.text(0.5, 0.5, text("empty"), ha="center", va="center", color="grey")
        style(figure)
        return
    apps = list(per_app)[::-1]  # barh draws bottom-up; the table beside it reads top-down
    axes = figure.subplots()
    first, second = bars_of(kind)
    for offset, metric, colour in ((BAR_HEIGHT / 2, first, BLUE), (-BAR_HEIGHT / 2, second, ORANGE)):
        values = [measured(per_app[app], metric) for app in apps]
        places = [row + offset for row in range(len(apps))]
        shown = [100 * value if isinstance(value, (int, float)) else 0 for value in values]
        bars = axes.barh(places, shown, height=BAR_HEIGHT, color=colour, label=metric_name(metric))
        axes.bar_label(bars, labels=[_percent(value) for value in values], padding=2)
    axes.set_yticks(range(len(apps)), apps)
    axes.set_xlim(0, 118)  # room for a label beside a full bar
    axes.xaxis.set_major_formatter(PercentFormatter(decimals=0))
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=2)
    figure.suptitle(text("title")).set_gid(TITLE_GID)
    style(figure)


def _percent(value: object) -> str:
    if not isinstance(value, (int, float)):
        return text("none")
    return QLocale().toString(100 * float(value), "f", 1) + "%"


class PerAppChart(IdleDrawCanvas):
    """The canvas of `draw_per_app`; taller with more apps, redrawn for new figures or another language."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self.per_app: dict[str, dict[str, Any]] = {}  # before Qt can send a change event to redraw()
        self.kind = "offline"
        super().__init__(Figure(layout="constrained"))
        self.setParent(parent)
        self.setObjectName("models-chart-per-app")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(FRAME_PX + ROW_PX)
        self.redraw()

    def show_per_app(self, per_app: Mapping[str, Mapping[str, Any]], kind: str) -> None:
        self.per_app = {app: dict(figures) for app, figures in per_app.items()}
        self.kind = kind
        self.setFixedHeight(FRAME_PX + ROW_PX * max(1, len(self.per_app)))
        self.redraw()

    def redraw(self) -> None:
        draw_per_app(self.figure, self.per_app, self.kind)
        self.draw_idle()

    def wheelEvent(self, event: QWheelEvent) -> None:
        event.ignore()  # the chart does not zoom: the page around it scrolls

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.LanguageChange, QEvent.Type.LocaleChange):
            self.redraw()
        super().changeEvent(event)
