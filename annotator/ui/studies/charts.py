"""The agreement report's two charts in the app: the confusion heatmap and the judge-vs-human scatter.

A module of its own so that matplotlib and numpy load when the first report is drawn (report_page.py imports
it then), not when the app starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QHBoxLayout, QWidget

from annotator.reports.agreement import draw_heatmap, draw_scatter
from annotator.reports.statistics_charts import style
from annotator.ui.figure_canvas import IdleDrawCanvas
from annotator.ui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from annotator.judge.agreement import AgreementReport

CONTEXT = "StudyReport"
CHART_TEXT = {
    "judge": QT_TRANSLATE_NOOP("StudyReport", "judge"),
    "human": QT_TRANSLATE_NOOP("StudyReport", "human consensus"),
    "heatmap": QT_TRANSLATE_NOOP("StudyReport", "Judge vs human consensus"),
    "scatter": QT_TRANSLATE_NOOP("StudyReport", "Each trajectory (jittered); dashed: one level apart"),
}


def translate(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source)


class StudyCharts(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.figures = [Figure(figsize=(4, 3.4), layout="constrained") for _ in range(2)]
        self.canvases = [IdleDrawCanvas(figure) for figure in self.figures]
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for canvas in self.canvases:
            canvas.setMinimumHeight(240)
            layout.addWidget(canvas)

    def draw(self, report: AgreementReport | None) -> None:
        for figure in self.figures:
            figure.clear()
        if report is not None:
            heatmap, scatter = (figure.add_subplot() for figure in self.figures)
            draw_heatmap(heatmap, np.array(report.confusion_matrix))
            draw_scatter(scatter, report.compared_pairs())
            heatmap.set_xlabel(translate(CHART_TEXT["judge"]))
            heatmap.set_ylabel(translate(CHART_TEXT["human"]))
            scatter.set_xlabel(translate(CHART_TEXT["human"]))
            scatter.set_ylabel(translate(CHART_TEXT["judge"]))
            heatmap.set_title(translate(CHART_TEXT["heatmap"]))
            scatter.set_title(translate(CHART_TEXT["scatter"]))
            for figure in self.figures:
                style(figure)
        for canvas in self.canvases:
            canvas.draw_idle()
