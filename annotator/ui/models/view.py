"""The Models view: the workspace's evaluations of models, and what each found.

At the top the list of evaluations (``trainer-bridge eval`` makes them) with their headline figures; choosing one
shows its summary (figures with intervals, per app as a table and bars) and its failed steps, each of which opens
on its screenshot with the predicted and the labelled action drawn; two chosen (Ctrl+click), or one and another
under "Compare with", are compared step by step. Everything is read on the job runner.

Evaluations are written by another process (the bridge's command), so the view reads the list again when it is
shown and the list is older than a few seconds, on F5 or Refresh, when the workspace changes, and every few seconds
while an evaluation it lists is still running and the view shows.
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from annotator.storage.workspace import Workspace
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.models.glossary import Legend
from annotator.ui.models.tables import CompareChoice, FiguresTable, list_cells, list_columns
from annotator.ui.refreshing import RefreshingView
from annotator.ui.workers import Jobs, describe

if TYPE_CHECKING:  # the pages and the reading load when the view is first used, not when the app starts
    from annotator.services.evaluations import Comparison, EvaluationDetail, EvaluationRow
    from annotator.ui.models.step_detail import EvaluatedStep

POLL_MS = 5000  # while an evaluation runs and the view shows: its status and figures come in
SUMMARY, FAILED, COMPARE = range(3)  # the tabs


def reading() -> ModuleType:
    """The service the view reads with, imported on first use (on a worker: the import lock makes that safe)."""
    from annotator.services import evaluations

    return evaluations


class Generation:
    """A counter per kind of read: an answer that arrives after a newer question was asked is dropped."""

    def __init__(self) -> None:
        self.value = 0

    def next(self) -> int:
        self.value += 1
        return self.value


class ModelsView(Retranslating, RefreshingView):
    status_message = Signal(str)
    open_requested = Signal(int)  # a trajectory to open in the annotation view

    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("models-view")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # F5 reaches the view even before a table has focus
        self.jobs = jobs
        self.workspace: Workspace | None = None
        self.rows: list[EvaluationRow] = []
        self.loaded_at: float | None = None
        self._loading = self._failed = False
        self._reads = {name: Generation() for name in ("list", "detail", "compare", "failed-step", "compare-step")}
        self.poll = QTimer(self)
        self.poll.setSingleShot(True)
        self.poll.setInterval(POLL_MS)
        self.poll.timeout.connect(self._poll)
        self.heading = QLabel(self)
        self.heading.setStyleSheet("font-weight: bold")
        self.compare_label = QLabel(self)
        self.compare_with = CompareChoice(self)
        self.compare_with.currentIndexChanged.connect(self._compare_choice_changed)
        self.compare_label.setBuddy(self.compare_with)
        self.refresh_button = QPushButton(self)
        self.refresh_button.setObjectName("models-refresh")
        self.refresh_button.clicked.connect(self.refresh)
        self.table = FiguresTable("evaluations", self)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.legend = Legend(self)
        self.empty = QLabel(self)
        self.empty.setObjectName("models-empty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tabs: QTabWidget | None = None  # the pages below the list, made when the first evaluation arrives
        self._lay_out()
        self.retranslate()
        self._show()

    def _ensure_content(self) -> None:
        """The summary, failed-steps and comparison pages: built on first use, as the app starts without them."""
        if self.tabs is not None:
            return
        from annotator.ui.models.pages import ComparisonPage, FailedStepsPage
        from annotator.ui.models.summary import EvaluationSummary

        self.summary, self.failed, self.compare = EvaluationSummary(self), FailedStepsPage(self), ComparisonPage(self)
        self.failed.step_chosen.connect(lambda step_id: self._load_step(self.failed.step, self.selected_id(), step_id))
        self.compare.step_chosen.connect(
            lambda evaluation_id, step_id: self._load_step(self.compare.step, evaluation_id, step_id)
        )
        for detail in (self.failed.step, self.compare.step):
            detail.open_requested.connect(self.open_requested)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("models-tabs")
        for page in (self.summary, self.failed, self.compare):
            self.tabs.addTab(page, "")
        self.split.addWidget(self.tabs)
        self.split.setStretchFactor(1, 4)
        self.split.setSizes([220, 600])  # the list shows five evaluations and its legend
        self._show_tab_titles()

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.compare_label)
        top.addWidget(self.compare_with)
        top.addWidget(self.refresh_button)
        listed = QWidget(self)  # the list with its legend under it: the short headers explained in words
        column = QVBoxLayout(listed)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.table, 1)
        column.addWidget(self.legend)
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.addWidget(listed)
        self.split.setStretchFactor(0, 1)
        self.split.setChildrenCollapsible(False)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.empty)
        self.pages.addWidget(self.split)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.pages, 1)

    # the workspace and the list -----------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.workspace = workspace
        self.rows, self.loaded_at, self._loading = [], None, False
        for read in self._reads.values():
            read.next()  # answers about the previous workspace that arrive late are dropped
        self._show_rows()
        self._show_selected()
        if workspace is not None and self.isVisible():  # a hidden view reads when it is first shown
            self.refresh()

    def refresh(self) -> None:
        """Read the evaluations again on a worker; the chosen ones stay chosen and are read again too."""
        workspace = self.workspace
        if workspace is None:
            return
        generation, db = self._reads["list"].next(), workspace.database
        self._loading = True
        self._show()
        self.jobs.submit(
            self.tr("Reading the evaluations"),
            lambda: reading().evaluation_rows(db),
            on_result=lambda rows: self._rows_arrived(generation, rows),
            on_error=lambda _error: self._rows_failed(generation),
        )
        for detail in (self.failed.step, self.compare.step) if self.tabs else ():  # a label may have been corrected
            shown = detail.loaded.drilldown if detail.loaded else None
            if shown is not None:
                self._load_step(detail, shown.evaluation_id, shown.step_id, quietly=True)

    def is_loading(self) -> bool:
        return self._loading

    def _rows_arrived(self, generation: int, rows: list[EvaluationRow]) -> None:
        if generation != self._reads["list"].value:
            return
        self.rows, self.loaded_at, self._loading, self._failed = rows, time.monotonic(), False, False
        if rows:
            self._ensure_content()
        self._show_rows()
        self._show_selected()
        if any(row.status == "running" for row in rows) and self.isVisible():
            self.poll.start()

    def _rows_failed(self, generation: int) -> None:
        if generation == self._reads["list"].value:
            self._loading, self._failed = False, True  # Jobs.failed has told the user why
            self._show()

    def _poll(self) -> None:
        if self.isVisible() and not self._loading:
            self.refresh()

    # choosing ------------------------------------------------------------------------------------------------------

    def selected_ids(self) -> list[int]:
        """The chosen evaluations, in list order."""
        rows = sorted(index.row() for index in self.table.selectionModel().selectedRows())
        return [self.rows[row].id for row in rows if row < len(self.rows)]

    def selected_id(self) -> int | None:
        """The evaluation whose summary shows: the current row if chosen, else the first chosen."""
        chosen = self.selected_ids()
        current = self.table.currentRow()
        if 0 <= current < len(self.rows) and self.rows[current].id in chosen:
            return self.rows[current].id
        return chosen[0] if chosen else None

    def select_evaluations(self, *evaluation_ids: int) -> None:
        """Choose these evaluations in the list (as Ctrl+click would)."""
        ids = [row.id for row in self.rows]
        self.table.clearSelection()
        mode = self.table.selectionMode()
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        for evaluation_id in evaluation_ids:
            if evaluation_id in ids:
                self.table.selectRow(ids.index(evaluation_id))
        self.table.setSelectionMode(mode)

    def _selection_changed(self) -> None:
        if len(self.selected_ids()) == 2 and self.tabs is not None:
            self.compare_with.clear_choice()  # the two chosen rows are compared, not the combo's choice
            self.tabs.setCurrentIndex(COMPARE)
        self._show_selected()

    def _show_selected(self) -> None:
        self.compare_with.offer(self.rows, self.selected_id(), len(self.selected_ids()) == 1)
        if self.tabs is None:  # no evaluation has been listed yet: nothing to show
            return
        self._load_detail()
        self._load_comparison()

    def _compare_choice_changed(self, _index: int) -> None:
        if self.tabs is None:
            return
        self._load_comparison()
        if self.compare_with.currentData() is not None:
            self.tabs.setCurrentIndex(COMPARE)  # the person asked to see it

    def _compared_ids(self) -> tuple[int, int] | None:
        """The two to compare, the older first: two chosen rows, or the chosen one and the combo's choice."""
        chosen = self.selected_ids()
        other = self.compare_with.currentData()
        pair = chosen if len(chosen) == 2 else [chosen[0], other] if len(chosen) == 1 and other else None
        return (min(pair), max(pair)) if pair else None

    # reading what is chosen ----------------------------------------------------------------------------------------

    def _load_detail(self) -> None:
        generation, chosen, workspace = self._reads["detail"].next(), self.selected_id(), self.workspace
        if chosen is None or workspace is None:
            self._detail_arrived(generation, None)
            return
        db = workspace.database
        self.jobs.submit(
            self.tr("Reading the evaluation"),
            lambda: reading().evaluation_detail(db, chosen),
            on_result=lambda detail: self._detail_arrived(generation, detail),
        )

    def _detail_arrived(self, generation: int, detail: EvaluationDetail | None) -> None:
        if generation != self._reads["detail"].value:
            return
        self.summary.show_detail(detail)
        self.failed.show_detail(detail)
        self._show_tab_titles()

    def _load_comparison(self) -> None:
        generation, pair, workspace = self._reads["compare"].next(), self._compared_ids(), self.workspace
        if pair is None or workspace is None:
            message = self.tr("Choose at most two evaluations to compare.") if len(self.selected_ids()) > 2 else ""
            self.compare.show_comparison(None, message)
            return
        db = workspace.database
        self.jobs.submit(
            self.tr("Comparing the evaluations"),
            lambda: self._compare(db, *pair),
            on_result=lambda found: self._comparison_arrived(generation, found),
        )

    @staticmethod
    def _compare(db: Any, first: int, second: int) -> Comparison | str:
        """The comparison, or why there is none (an online evaluation, different levels) in the service's words."""
        try:
            return reading().comparison(db, first, second)
        except ValueError as error:
            return describe(error)

    def _comparison_arrived(self, generation: int, found: Comparison | str) -> None:
        if generation != self._reads["compare"].value:
            return
        if isinstance(found, str):
            self.compare.show_comparison(None, fill(self.tr("These two cannot be compared: %1"), found))
        else:
            self.compare.show_comparison(found)
        self._show_tab_titles()

    def _load_step(self, detail: EvaluatedStep, evaluation_id: int | None, step_id: int, quietly: bool = False) -> None:
        """Read one step's screenshot and answers for `detail` (the failed steps' pane or the comparison's);
        `quietly` (reading the shown step again) keeps it shown meanwhile and if the reading fails."""
        workspace = self.workspace
        if evaluation_id is None or workspace is None:
            return
        read = self._reads["failed-step" if detail is self.failed.step else "compare-step"]
        generation = read.next()
        if not quietly:
            detail.show_loading()
        from annotator.ui.models.step_detail import load_step  # loaded with the pages

        self.jobs.submit(
            self.tr("Reading the step's screenshot"),
            lambda: load_step(workspace, evaluation_id, step_id),
            on_result=lambda loaded: detail.show_step(loaded) if generation == read.value else None,
            on_error=lambda error: detail.clear(describe(error)) if generation == read.value and not quietly else None,
        )

    # showing --------------------------------------------------------------------------------------------------------

    def _show_rows(self) -> None:
        """The list, keeping the chosen evaluations chosen (by id) across a refresh."""
        chosen = self.selected_ids()
        self.table.blockSignals(True)
        try:
            self.table.set_columns(list_columns())
            self.table.show_rows([list_cells(row) for row in self.rows])
            self.select_evaluations(*chosen)
            if not self.selected_ids() and self.rows:
                self.table.selectRow(0)  # the newest: its figures show at once
        finally:
            self.table.blockSignals(False)
        self._show()

    def _show(self) -> None:
        self.pages.setCurrentIndex(1 if self.rows else 0)
        for widget in (self.compare_label, self.compare_with):
            widget.setVisible(bool(self.rows))  # nothing to compare yet
        self.empty.setText(self._empty_text())
        self.refresh_button.setEnabled(self.workspace is not None)
        count = len(self.rows)
        text = self.tr("Evaluations of this workspace: %n", "", count) if count else self.tr("Evaluations")
        self.heading.setText(text + (" · " + self.tr("reading…") if self._loading else ""))

    def _empty_text(self) -> str:
        if self.workspace is None:
            return self.tr("No workspace open: choose one with File › Open Workspace Folder…")
        if self._loading and self.loaded_at is None:
            return self.tr("Reading the evaluations…")
        if self._failed and self.loaded_at is None:
            return self.tr("The evaluations could not be read. Try Refresh.")
        return self.tr(
            "No evaluations yet. Evaluate a model on this workspace's held-out trajectories with\n"
            "trainer-bridge eval --base-url URL --model M\n"
            "(any OpenAI-compatible endpoint: vLLM serving a checkpoint, a hosted model); its figures, failed steps "
            "and comparisons appear here."
        )

    def _show_tab_titles(self) -> None:
        if self.tabs is None:
            return
        failed = len(self.failed.failed())
        self.tabs.setTabText(SUMMARY, self.tr("Summary"))
        self.tabs.setTabText(FAILED, fill(self.tr("Failed Steps (%1)"), failed) if failed else self.tr("Failed Steps"))
        self.tabs.setTabText(COMPARE, self.tr("Comparison"))

    def retranslate(self) -> None:
        self.compare_label.setText(self.tr("&Compare with:"))
        self.compare_with.setToolTip(self.tr("Compare the chosen evaluation with another on the steps both answered"))
        self.refresh_button.setText(self.tr("Refresh"))
        self.refresh_button.setToolTip(self.tr("Read the evaluations again (F5)"))
        self._show_rows()
        self._show_tab_titles()
