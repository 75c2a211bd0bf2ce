"""The Models view's summary page: what one evaluation found. An overview (who was asked, how, how it ended),
the headline figures with their 95% intervals and what each counts, and per app a table and bars.

Offline evaluations count steps (Mobile-R1 5.1.5 and the AndroidControl protocol); online ones count runs on
phones (task, tail and claimed success): the page shows the figures the summary has.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from annotator.domain.evaluation import ONLINE_HEADLINE
from annotator.services.evaluations import EvaluationDetail
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.models.glossary import FORMAT_ERRORS, PASS_AT_K, SHORT, explain, metric_name, translate
from annotator.ui.models.tables import (
    KINDS,
    LEVELS,
    OFFLINE_FIGURES,
    ONLINE_FIGURES,
    STATUSES,
    WORSE,
    Cell,
    FiguresTable,
    count,
    heading,
    interval,
    moment,
    percent,
    share,
    value_name,
)

if TYPE_CHECKING:  # matplotlib loads with the first evaluation shown, not at start
    from annotator.ui.models.charts import PerAppChart

SETTINGS_SHOWN = ("coords", "prompt_variant", "temperature", "samples")
STEP_ERRORS = ("argument_errors", "format_errors")  # counted over the steps asked


def counted(figures: dict[str, Any], key: str) -> str:
    """A count of `figures`; a dash for errors of no step asked (an unseen split with no step has no 0 errors)."""
    return count(None if key in STEP_ERRORS and figures.get("steps") == 0 else figures.get(key))


class EvaluationSummary(Retranslating, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.detail: EvaluationDetail | None = None
        self.overview = QLabel(self)
        self.overview.setObjectName("models-overview")
        self.overview.setWordWrap(True)
        self.overview.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.figures_heading, self.apps_heading = heading(self), heading(self)
        self.figures = FiguresTable("figures", self)
        self.per_app = FiguresTable("per-app", self)
        self.chart: PerAppChart | None = None  # made with the first evaluation shown
        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(16)
        self.grid.addWidget(self.figures_heading, 0, 0)
        self.grid.addWidget(self.figures, 1, 0)
        self.grid.addWidget(self.apps_heading, 2, 0, 1, 2)
        self.grid.addWidget(self.per_app, 3, 0, 1, 2)
        self.grid.setColumnStretch(0, 1)
        self.grid.setColumnStretch(1, 1)
        self.grid.setRowStretch(4, 1)
        self._lay_out()
        self.retranslate()

    def _lay_out(self) -> None:
        """The overview over the grid, in a page that scrolls when the window is short."""
        inner = QWidget(self)
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 8, 0)
        column.addWidget(self.overview)
        column.addLayout(self.grid, 1)
        scroll = QScrollArea(self)
        scroll.setObjectName("models-summary-scroll")
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

    def show_detail(self, detail: EvaluationDetail | None) -> None:
        self.detail = detail
        if detail is not None and self.chart is None:
            from annotator.ui.models.charts import PerAppChart

            self.chart = PerAppChart(self)
            self.grid.addWidget(self.chart, 0, 1, 2, 1, Qt.AlignmentFlag.AlignTop)
        self._show()

    def _show(self) -> None:
        detail = self.detail
        summary = detail.summary if detail else {}
        online = detail is not None and detail.row.kind == "online"
        self.overview.setText(self._overview(detail) if detail else "")
        interval_tip = self.tr("95% of resampled sets of trajectories (cluster bootstrap) fall in this range")
        self.figures.set_columns(
            [
                (self.tr("Figure"), ""),
                (self.tr("Value"), ""),
                (self.tr("95% interval"), interval_tip),
                (self.tr("Counted over"), ""),
            ]
        )
        self.figures.show_rows(self._figure_rows(summary, online))
        self.figures.fit_height(most_rows=14)
        self.per_app.set_columns(self._app_columns(online))
        self.per_app.show_rows(self._app_rows(summary, online))
        self.per_app.fit_height(most_rows=12)
        if self.chart is not None:
            self.chart.show_per_app(summary.get("per_app") or {}, detail.row.kind if detail else "offline")

    def _overview(self, detail: EvaluationDetail) -> str:
        """Who, how, how it ended: one line of names, one of times, one of settings, and a failure's message."""
        row, settings = detail.row, detail.settings
        parts = [
            f"<b>{html.escape(row.name)}</b>",
            html.escape(row.model),
            value_name(KINDS, row.kind),
            value_name(STATUSES, row.status),
        ]
        if row.kind != "online":
            parts.append(fill(self.tr("asked at the %1 level"), html.escape(value_name(LEVELS, detail.level))))
        requests = detail.summary.get("requests")
        if isinstance(requests, dict):
            answered, failed = count(requests.get("answered")), count(requests.get("failed"))
            parts.append(fill(self.tr("%1 answered, %2 failed requests"), answered, failed))
        times = fill(self.tr("started %1, finished %2"), moment(row.created_at), moment(row.finished_at) or "—")
        lines = [" · ".join(parts), times]
        if settings.get("coords"):
            values = (html.escape(str(settings.get(key, "?"))) for key in SETTINGS_SHOWN)
            lines.append(fill(self.tr("Coordinates %1 · prompt %2 · temperature %3 · samples per step %4"), *values))
        if row.message:
            lines.append(f'<span style="color:{WORSE.name()}">{html.escape(row.message)}</span>')
        if not detail.summary:
            lines.append(self.tr("No summary yet: the evaluation is still running, or it ended before summing up."))
        steps = detail.summary.get("steps")
        if isinstance(steps, int) and steps > 0 and detail.summary.get("format_errors") == steps:
            lines.append(
                fill(
                    self.tr(
                        "None of the %1 replies was in the answer format, so every figure is a measured "
                        "0%: the model has not learnt the format yet."
                    ),
                    steps,
                )
            )
        return "<br>".join(lines)

    def _figure_rows(self, summary: dict[str, Any], online: bool) -> list[list[Cell | str]]:
        """The headline figures with their intervals, then the counts and pass@k the summary has."""
        if not summary:
            return []
        intervals = summary.get("intervals") or {}
        rows: list[list[Cell | str]] = []
        for key in ONLINE_FIGURES if online else OFFLINE_FIGURES:
            if key in summary:
                name = Cell(metric_name(key), tip=explain(key), number=False)
                value, bounds = Cell(share(summary, key), bold=True), Cell(interval(intervals.get(key)))
                rows.append([name, value, bounds, Cell(self._over(key, summary, online))])
        counts = (
            (self.tr("Argument errors (Avg Err.)"), "argument_errors", self._argument_tip()),
            (self.tr("Format errors"), "format_errors", translate(FORMAT_ERRORS)),
            (self.tr("Runs"), "rollouts", ""),
            (self.tr("Mean steps per run"), "mean_steps", ""),
            (self.tr("Runs that did not end"), "unfinished", ""),
        )
        rows += [
            [Cell(name, tip=tip, number=False), counted(summary, key), "", ""]
            for name, key, tip in counts
            if key in summary
        ]
        for k, value in (summary.get("pass_at_k") or {}).items():
            name = Cell(fill(self.tr("pass@%1 (step accuracy)"), k), tip=translate(PASS_AT_K), number=False)
            rows.append([name, percent(value), "", ""])
        return rows

    def _argument_tip(self) -> str:
        return self.tr("Steps with the right type but a wrong argument")

    def _over(self, key: str, summary: dict[str, Any], online: bool) -> str:
        """What a figure is a share of."""
        if online:
            return self.tr("%n checked run(s)", "", int(summary.get("checked") or 0))
        if key == "task_success":
            return self.tr("%n trajectory(s)", "", int(summary.get("trajectories") or 0))
        if key == "grounding_accuracy":
            return self.tr("%n step(s) with a point", "", int(summary.get("grounding_steps") or 0))
        return self.tr("%n step(s)", "", int(summary.get("steps") or 0))

    def _app_columns(self, online: bool) -> list[tuple[str, str]]:
        if online:
            keys: tuple[str, ...] = ONLINE_HEADLINE
            counts = [(self.tr("Runs"), ""), (self.tr("Mean steps"), "")]
        else:
            keys = OFFLINE_FIGURES
            counts = [(self.tr("Trajectories"), ""), (self.tr("Steps"), "")]
        figures = [(translate(SHORT[key]), explain(key)) for key in keys]
        tail = [] if online else [(self.tr("Arg. errors"), self._argument_tip())]
        return [(self.tr("App"), ""), *counts, *figures, *tail]

    def _app_rows(self, summary: dict[str, Any], online: bool) -> list[list[Cell | str]]:
        """A row per app, then the seen and unseen apps in bold when the summary splits them."""
        groups = [(app, figures, False) for app, figures in (summary.get("per_app") or {}).items()]
        names = {"seen": self.tr("Seen apps"), "unseen": self.tr("Unseen apps")}
        splits = (summary.get("per_split") or {}).items()
        groups += [(names.get(split, split), figures, True) for split, figures in splits]
        rows: list[list[Cell | str]] = []
        for name, figures, bold in groups:
            if online:
                numbers = [count(figures.get("rollouts")), count(figures.get("mean_steps"))]
                numbers += [share(figures, key) for key in ONLINE_HEADLINE]
            else:
                numbers = [count(figures.get("trajectories")), count(figures.get("steps"))]
                numbers += [share(figures, key) for key in OFFLINE_FIGURES]
                numbers.append(counted(figures, "argument_errors"))
            rows.append([Cell(name, bold=bold, number=False), *(Cell(text, bold=bold) for text in numbers)])
        return rows

    def retranslate(self) -> None:
        self.figures_heading.setText(self.tr("Headline figures (each step's first answer)"))
        self.apps_heading.setText(self.tr("Per app"))
        self._show()
