"""The evaluation report's chart: step accuracy and task success per app, as PNG bytes for inlining.

Drawn with the Agg canvas (no pyplot: it keeps global state, and the GUI's own backend is left alone) in the
statistics charts' fonts, so Chinese app names find their glyphs in the shipped CJK font
(`statistics_charts.font_families`).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from annotator.reports.statistics_charts import BLUE, ORANGE, TITLE_GID, style

CHART_DPI = 110
BARS = (("step_accuracy", "Step accuracy", BLUE), ("task_success", "Task success", ORANGE))


def chart_height(apps: int) -> float:
    """Inches: a pair of bars per app, and room for the title, axis and legend."""
    return max(2.6, 0.55 * apps + 1.4)


def per_app_figure(per_app: Mapping[str, Mapping[str, Any]]) -> Figure:
    """Horizontal bars per app (the first app by name on top): step accuracy and task success, labelled."""
    if not per_app:
        raise ValueError("per-app chart: no app has a scored step")
    apps = list(per_app)[::-1]  # barh draws bottom-up; the tables read top-down
    figure = Figure(figsize=(7.5, chart_height(len(apps))), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    height = 0.38
    for offset, (metric, label, colour) in zip((height / 2, -height / 2), BARS, strict=True):
        values = [per_app[app][metric] for app in apps]
        places = [row + offset for row in range(len(apps))]
        bars = axes.barh(places, [100 * (v or 0) for v in values], height=height, color=colour, label=label)
        texts = ["n/a" if v is None else f"{100 * v:.1f}%" for v in values]
        axes.bar_label(bars, labels=texts, padding=2)
    axes.set_yticks(range(len(apps)), apps)
    axes.set_xlim(0, 112)  # room for a label beside a full bar
    axes.xaxis.set_major_formatter(PercentFormatter())
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(frameon=False, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncols=2)
    figure.suptitle("Per app (first sample of each step)").set_gid(TITLE_GID)
    style(figure)
    return figure


def per_app_png(per_app: Mapping[str, Mapping[str, Any]]) -> bytes:
    buffer = io.BytesIO()
    figure = per_app_figure(per_app)
    figure.savefig(buffer, format="png", dpi=CHART_DPI, facecolor="white", metadata={"Software": None})
    return buffer.getvalue()


def image_html(png: bytes, alt: str) -> str:
    """The PNG inlined as a data URI: the page needs no file beside it."""
    encoded = base64.b64encode(png).decode("ascii")
    return f'<div class="chart"><img src="data:image/png;base64,{encoded}" alt="{html.escape(alt)}"></div>'
