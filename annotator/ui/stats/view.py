"""The statistics view: per-app table and chart, trajectory lengths, action types, people, review progress.

The numbers come from ``services.dataset_stats.compute`` on a worker. They go stale while others collect and
label, so the view reads them again when it is shown and they are older than a few seconds, when the
workspace changes, and on Refresh. Charts and tables can be saved as PNG and CSV files for a report.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QDateTime, QLocale, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from annotator.storage.database import Database
from annotator.storage.workspace import Workspace
from annotator.ui import settings as keys
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.stats.tables import (
    ACTIVE_HOURS_TIP,
    APP_COLUMNS,
    PEOPLE_COLUMNS,
    THROUGHPUT_COLUMNS,
    StatsTable,
    cell_text,
    number_text,
    translate,
)
from annotator.ui.workers import Jobs, describe

if TYPE_CHECKING:  # pandas and matplotlib load when the view first has numbers to show, not at start (~170 MB)
    import pandas as pd

    from annotator.services.dataset_stats import DatasetStats
    from annotator.ui.stats.charts import Chart

log = logging.getLogger(__name__)

STALE_AFTER_S = 5.0  # shown again after this long: someone may have labelled or collected meanwhile
EXPORT_FOLDER = "stats/export_folder"


def write_tables(stats: DatasetStats, folder: Path) -> list[Path]:
    from annotator.services import dataset_stats  # loaded already: it computed `stats`

    return dataset_stats.write_csvs(stats, folder)


class StatsView(Retranslating, QWidget):
    status_message = Signal(str)

    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self.db: Database | None = None
        self.stats: DatasetStats | None = None
        self.loaded_at: float | None = None  # time.monotonic() when the shown numbers were computed
        self._generation = 0
        self._loading = False
        self.summary, self.updated = QLabel(self), QLabel(self)
        self.summary.setWordWrap(True)
        self.buttons = {name: QPushButton(self) for name in ("refresh", "export_png", "export_csv")}
        for name, button in self.buttons.items():
            button.clicked.connect(getattr(self, name))  # the same handlers as the menu commands
        self.empty = QLabel(self)
        self.empty.setObjectName("stats-empty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.app_table = StatsTable("apps", APP_COLUMNS, self)
        self.people_table = StatsTable("people", PEOPLE_COLUMNS, self)
        self.throughput_table = StatsTable("throughput", THROUGHPUT_COLUMNS, self)
        self.charts: dict[str, Chart] = {}  # made with the content page, on first data
        self.headings = {name: QLabel(self) for name in ("apps", "people", "throughput")}
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.empty)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.updated)
        for button in self.buttons.values():
            top.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.pages, 1)
        self.retranslate()
        self._show()

    def _ensure_content(self) -> None:
        if self.charts:
            return
        from annotator.ui.stats.charts import Chart, draw_actions, draw_lengths, draw_per_app, draw_review

        self.charts = {
            "per_app": Chart("per_app", draw_per_app, 240, self),
            "trajectory_lengths": Chart("lengths", draw_lengths, 280, self),
            "action_types": Chart("actions", draw_actions, 280, self),
            "review_status": Chart("review", draw_review, 175, self),
        }
        self.charts["review_status"].setFixedHeight(175)  # one bar: a taller canvas would only stretch it
        self.pages.addWidget(self._content())

    def _content(self) -> QScrollArea:
        """Tables and charts in a grid that scrolls: two columns, the wide people table across both."""
        inner = QWidget()
        grid = QGridLayout(inner)
        grid.setContentsMargins(0, 0, 8, 0)
        grid.setHorizontalSpacing(16)
        grid.setVerticalSpacing(12)
        overview = QVBoxLayout()  # Table 2/6 with the review progress under it, beside the per-app chart
        overview.addWidget(self.headings["apps"])
        overview.addWidget(self.app_table)
        overview.addWidget(self.charts["review_status"])
        overview.addStretch(1)  # a tall per-app chart beside it leaves room here, not a stretched bar
        grid.addLayout(overview, 0, 0)
        grid.addWidget(self.charts["per_app"], 0, 1)
        grid.addWidget(self.charts["trajectory_lengths"], 1, 0)
        grid.addWidget(self.charts["action_types"], 1, 1)
        grid.addWidget(self.headings["people"], 2, 0, 1, 2)
        grid.addWidget(self.people_table, 3, 0, 1, 2)
        grid.addWidget(self.headings["throughput"], 4, 0, 1, 2)
        grid.addWidget(self.throughput_table, 5, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        for heading in self.headings.values():
            heading.setStyleSheet("font-weight: bold")
        scroll = QScrollArea(self)
        scroll.setObjectName("stats-scroll")
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        return scroll

    # the workspace and the numbers ---------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.db = workspace.database if workspace else None
        self.stats, self.loaded_at = None, None
        self._generation += 1  # numbers of the previous workspace that arrive late are dropped
        self._loading = False
        self._show()
        if self.db is not None and self.isVisible():  # a hidden view computes when it is first shown
            self.refresh()

    def refresh(self) -> None:
        """Compute every statistic again on a worker; the view keeps showing the old numbers meanwhile."""
        db = self.db
        if db is None:
            return
        self._generation += 1
        generation = self._generation
        self._loading = True
        self._show_summary()
        from annotator.services import dataset_stats

        self.jobs.submit(
            self.tr("Computing the dataset statistics"),
            lambda: dataset_stats.compute(db),
            on_result=lambda stats: self._arrived(generation, stats),
            on_error=lambda _error: self._failed(generation),
        )

    def is_loading(self) -> bool:
        return self._loading

    def _arrived(self, generation: int, stats: DatasetStats) -> None:
        if generation != self._generation:
            return
        self.stats, self.loaded_at, self._loading = stats, time.monotonic(), False
        self._show()

    def _failed(self, generation: int) -> None:
        if generation == self._generation:
            self._loading = False  # Jobs.failed has told the user why
            self._show()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        stale = self.loaded_at is None or time.monotonic() - self.loaded_at > STALE_AFTER_S
        if self.db is not None and stale and not self._loading:
            self.refresh()

    # showing ------------------------------------------------------------------------------------------------

    def _show(self) -> None:
        """Everything from `self.stats`: the empty state, or the tables and charts."""
        stats = self.stats
        has_data = stats is not None and not stats.is_empty()
        if stats is not None:  # computed, even if empty: charts can be exported ("no trajectories")
            self._ensure_content()
        self.pages.setCurrentIndex(1 if has_data else 0)
        self._show_summary()
        self._show_tables()
        for chart in self.charts.values():
            chart.show_stats(stats if has_data else None)
        if stats is not None and has_data:
            # a bar per app or action type: the charts grow with them instead of squeezing the bars
            self.charts["per_app"].setMinimumHeight(max(240, 26 * len(stats.per_app) + 110))
            self.charts["action_types"].setMinimumHeight(max(280, 26 * len(stats.actions) + 110))
        self.buttons["refresh"].setEnabled(self.db is not None)
        for name in ("export_png", "export_csv"):
            self.buttons[name].setEnabled(stats is not None)

    def _show_summary(self) -> None:
        stats = self.stats
        if stats is None:
            self.summary.setText(self.tr("Computing the statistics…") if self._loading else "")
            self.empty.setText(self._empty_text())
            self.updated.setText("")
            return
        totals = stats.totals
        parts = [
            self.tr("%Ln app(s)", "", totals.apps),
            self.tr("%Ln instruction(s)", "", totals.instructions),
            self.tr("%Ln trajectory(s)", "", totals.trajectories),
            self.tr("%Ln step(s)", "", totals.steps),
            fill(self.tr("%1 steps per trajectory"), number_text(totals.mean_steps)),
        ]
        self.summary.setText("<b>" + " · ".join(parts) + "</b>" + self._drafts_text(stats.drafts))
        self.empty.setText(self._empty_text())
        moment = QDateTime.fromSecsSinceEpoch(int(stats.computed_at.timestamp())).toLocalTime()
        when = QLocale().toString(moment.time(), QLocale.FormatType.ShortFormat)
        self.updated.setText(self.tr("Updating…") if self._loading else fill(self.tr("Updated at %1"), when))

    def _drafts_text(self, drafts: dict[str, Any]) -> str:
        """Model drafts and what people made of them (labels that began as drafts, how many were changed since)."""
        if not drafts.get("drafts"):
            return ""
        stages = drafts.get("per_stage", {})
        accepted = sum(entry.get("accepted", 0) for entry in stages.values())
        changed = sum(entry.get("changed", 0) for entry in stages.values())
        text = self.tr(
            "Model drafts: %1 steps drafted, %2 offered · %3 labels began as drafts · %4 of %5 "
            "stages taken from drafts were changed since"
        )
        numbers = (
            drafts["steps_with_drafts"],
            drafts["steps_with_matched_drafts"],
            drafts["labels_from_drafts"],
            changed,
            accepted,
        )
        return "<br>" + fill(text, *numbers)

    def _empty_text(self) -> str:
        if self.db is None:
            return self.tr("No workspace open: choose one with File › Open Workspace Folder…")
        if self.stats is None and not self._loading:  # the computation failed; the status bar said why
            return self.tr("The statistics could not be computed. Try Refresh.")
        if self.stats is None:
            return self.tr("Computing the statistics…")
        return self.tr(
            "No trajectories yet. Record some in the Collect view or import a bundle (File › Import Bundle…); "
            "their statistics appear here."
        )

    def _show_tables(self) -> None:
        self.headings["apps"].setText(self.tr("Per app: every step recorded (laid out as Mobile-R1 Tables 2 and 6)"))
        self.headings["apps"].setToolTip(
            self.tr(
                "Counts every trajectory and step row, whatever its review state. The paper's Table 2 counts only "
                "the labelled steps of accepted trajectories: `annotator stats` gives those figures."
            )
        )
        self.headings["people"].setText(self.tr("Labelling and review per person"))
        self.headings["throughput"].setText(self.tr("Throughput per person"))
        self.headings["throughput"].setToolTip(translate(ACTIVE_HOURS_TIP))
        stats = self.stats
        if stats is None:  # nothing computed yet: the empty page shows, its tables stay empty
            self.app_table.show_rows([])
            self.people_table.show_rows([])
            self.throughput_table.show_rows([])
            return
        totals = stats.totals
        numbers = (totals.instructions, totals.trajectories, totals.steps, float(totals.mean_steps))
        total_row = [self.tr("Total"), *(number_text(value) for value in numbers)]
        self.app_table.show_rows([*self._rows(stats.per_app, APP_COLUMNS), total_row], bold_last=True)
        self.app_table.fit_height(most_rows=9)
        self.people_table.show_rows(self._rows(stats.people, PEOPLE_COLUMNS))
        self.people_table.fit_height(most_rows=8)
        self.throughput_table.show_rows(self._rows(stats.people, THROUGHPUT_COLUMNS))
        self.throughput_table.fit_height(most_rows=8)

    def _rows(self, table: pd.DataFrame, columns: tuple[tuple[str, str, str], ...]) -> list[list[str]]:
        keys_in_order = [key for key, _title, _tip in columns]
        rows = []
        for record in table[keys_in_order].itertuples(index=False):
            name, *numbers = record
            shown_name = name if isinstance(name, str) else self.tr("(no name)")  # labels written without a name
            cells = (cell_text(key, value) for key, value in zip(keys_in_order[1:], numbers, strict=True))
            rows.append([shown_name, *cells])
        return rows

    # export -------------------------------------------------------------------------------------------------

    def write_pngs(self, folder: Path) -> list[Path]:
        """One PNG per chart (``dataset_<chart>.png``) as the charts show now; returns the paths."""
        folder.mkdir(parents=True, exist_ok=True)
        return [chart.save_png(folder / f"dataset_{name}.png") for name, chart in self.charts.items()]

    def write_csvs(self, folder: Path) -> list[Path]:
        """One CSV per table of the shown statistics (see dataset_stats.write_csvs); returns the paths."""
        if self.stats is None:
            raise RuntimeError("the statistics are not computed yet")
        return write_tables(self.stats, folder)

    def export_png(self) -> None:
        folder = self._export_folder(self.tr("Export Charts as PNG"))
        if folder is None:
            return
        try:
            written = self.write_pngs(folder)
        except OSError as error:
            log.error("writing the charts to %s failed", folder, exc_info=error)
            self.status_message.emit(fill(self.tr("Could not write the charts to %1: %2"), folder, describe(error)))
            return
        self.status_message.emit(fill(self.tr("Wrote %n chart(s) to %1", "", len(written)), folder))

    def export_csv(self) -> None:
        folder = self._export_folder(self.tr("Export Statistics as CSV"))
        if folder is None or self.stats is None:
            return
        stats = self.stats
        self.jobs.submit(
            self.tr("Writing the statistics CSV files"),
            lambda: write_tables(stats, folder),
            on_result=lambda written: self.status_message.emit(
                fill(self.tr("Wrote %n table(s) to %1", "", len(written)), folder)
            ),
        )

    def _export_folder(self, title: str) -> Path | None:
        """Ask for a folder (starting where the last export went); None when cancelled or nothing to export."""
        if self.stats is None:
            self.status_message.emit(self.tr("There are no statistics to export yet."))
            return None
        stored = keys.settings()
        start = keys.text(EXPORT_FOLDER) or str(Path.home())
        chosen = QFileDialog.getExistingDirectory(self, title, start)
        if not chosen:
            return None
        stored.setValue(EXPORT_FOLDER, chosen)
        return Path(chosen)

    # language -----------------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        texts = {
            "refresh": (self.tr("Refresh"), self.tr("Count everything again")),
            "export_png": (self.tr("Export PNG…"), self.tr("Save every chart as a PNG file in a folder")),
            "export_csv": (self.tr("Export CSV…"), self.tr("Save every table as a CSV file in a folder")),
        }
        for name, (title, tip) in texts.items():
            self.buttons[name].setText(title)
            self.buttons[name].setToolTip(tip)
        self.app_table.retranslate()
        self.people_table.retranslate()
        self.throughput_table.retranslate()
        self._show_tables()
        self._show_summary()
