"""The Runs view: launch a training recipe on an export (on this machine, or as a command for a GPU machine), the
workspace's training runs, and the chosen run's page (curves, completions, log; cancel, resume, evaluate).

Runs are written by other processes (the bridge's `train` and the follower it leaves behind), so the view reads
them again when it is shown and its list is older than a few seconds, on F5 or Refresh, and every two seconds
while it shows and a run is live or a command it started is under way. Everything is read on the job runner; the
recipes, the reading service and the run page (matplotlib) load when the view is first shown.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from annotator.storage.workspace import Workspace
from annotator.ui import settings as keys
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.models.tables import FiguresTable
from annotator.ui.refreshing import RefreshingView
from annotator.ui.runs.launch_panel import LAST_EXPORT, LaunchPanel, training
from annotator.ui.runs.table import RECIPE_COLUMN, cells, columns
from annotator.ui.workers import Jobs

if TYPE_CHECKING:
    from annotator.storage.training_runs import RunInfo
    from annotator.ui.models.view import ModelsView
    from annotator.ui.runs.run_page import RunPage

POLL_MS = 2000  # a live run's steps come in every few seconds on a CPU
WAIT_FOR_MODELS_MS, MODELS_TRIES = 200, 50  # how long an evaluation is looked for in the Models view's list


class RunsView(Retranslating, RefreshingView):
    status_message = Signal(str)
    evaluation_opened = Signal(int)  # an evaluation of a run's model, to show in the Models view

    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("runs-view")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # F5 reaches the view even before a table has focus
        self.jobs = jobs
        self.workspace: Workspace | None = None
        self.runs: list[RunInfo] = []
        self.loaded_at: float | None = None
        self.wanted: int | None = None  # a run just launched or resumed: chosen when the list has it
        self._reading = {"list": 0, "detail": 0}  # an answer to an older question is dropped
        self._loading = self._recipes_read = False
        self.poll = QTimer(self)
        self.poll.setSingleShot(True)
        self.poll.setInterval(POLL_MS)
        self.poll.timeout.connect(self._poll)
        self.launch_panel = LaunchPanel(self)
        self.launch_panel.launched.connect(self._started)
        self.launch_panel.status_message.connect(self.status_message)
        self.heading = QLabel(self)
        self.heading.setStyleSheet("font-weight: bold")
        self.refresh_button = QPushButton(self)
        self.refresh_button.clicked.connect(lambda: self.refresh())
        self.table = FiguresTable("runs", self, stretch=RECIPE_COLUMN)
        self.table.setObjectName("runs-table")
        self.table.itemSelectionChanged.connect(self._load_detail)
        self.empty = QLabel(self)
        self.empty.setObjectName("runs-empty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.page: RunPage | None = None
        self._lay_out()
        self.retranslate()

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.refresh_button)
        self.lists = QStackedWidget(self)
        self.lists.addWidget(self.empty)
        self.lists.addWidget(self.table)
        self.right = QSplitter(Qt.Orientation.Vertical, self)
        self.right.setChildrenCollapsible(False)
        self.right.addWidget(self.lists)
        side = QWidget(self)
        column = QVBoxLayout(side)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(top)
        column.addWidget(self.right, 1)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setChildrenCollapsible(False)
        split.addWidget(self.launch_panel)
        split.addWidget(side)
        split.setStretchFactor(1, 1)
        split.setSizes([380, 800])
        layout = QVBoxLayout(self)
        layout.addWidget(split)

    def _ensure_page(self) -> RunPage:
        if self.page is None:
            from annotator.ui.runs.run_page import RunPage

            self.page = RunPage(self)
            self.page.workspace = self.workspace
            self.page.changed.connect(self.refresh)
            self.page.run_started.connect(self._started)
            self.page.open_evaluation.connect(self.evaluation_opened)
            self.page.command_started.connect(self._poll_if_live)
            self.right.addWidget(self.page)
            self.right.setStretchFactor(1, 3)
            self.right.setSizes([200, 520])
        return self.page

    # the workspace and the list -------------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.workspace = workspace
        self.runs, self.loaded_at, self._loading = [], None, False
        for name in self._reading:
            self._reading[name] += 1
        self.launch_panel.set_workspace(workspace)
        if self.page is not None:
            self.page.workspace = workspace
            self.page.hide()
        self._show_runs()
        if workspace is not None and self.isVisible():  # a hidden view reads when it is first shown
            self.refresh()

    def refresh(self, quietly: bool = False) -> None:
        """Read the runs (and the exports there are to choose from) again on a worker; `quietly` (the poll while a
        run is live) says nothing of it in the heading, which would flicker every two seconds."""
        workspace = self.workspace
        if workspace is None:
            return
        self._reading["list"] += 1
        generation, read_recipes = self._reading["list"], not self._recipes_read
        evaluating = self.page.evaluating_pid() if self.page is not None else None
        self._loading = True
        if not quietly:
            self._show_heading(reading=True)
        self.jobs.submit(
            self.tr("Reading the training runs"),
            lambda: self._read(workspace, read_recipes, evaluating),
            on_result=lambda found: self._runs_arrived(generation, *found),
            on_error=lambda _error: self._read_failed(generation),
        )

    @staticmethod
    def _read(
        workspace: Workspace, read_recipes: bool, evaluating: int | None
    ) -> tuple[list[RunInfo], list[Any], Any, int | None]:
        """The runs, the exports, (the first time) the recipes and the training packages that are missing (the app
        runs without them; the runs it finds are still shown), and the evaluation the process `evaluating` has begun."""
        service = training()
        runs = service.list_runs(workspace.database)
        also = [keys.text(LAST_EXPORT), *service.trained_on(workspace.database)]
        missing = service.missing_packages() if read_recipes else []
        recipes = (service.recipes() if not missing else [], missing) if read_recipes else None
        begun = service.evaluation_started_by(workspace.database, evaluating) if evaluating else None
        return runs, service.find_exports(workspace.data_dir, also), recipes, begun

    def _runs_arrived(
        self, generation: int, runs: list[RunInfo], exports: list[Any], recipes: Any, begun: int | None
    ) -> None:
        if generation != self._reading["list"]:
            return
        if recipes is not None:
            self._recipes_read = True
            self.launch_panel.show_recipes(*recipes)
        self.launch_panel.show_exports(exports)
        self.runs, self.loaded_at, self._loading = runs, time.monotonic(), False
        self._show_runs()
        self._load_detail()
        self._poll_if_live()
        if begun is not None and self.page is not None:
            self.page.evaluation_found(begun)  # last: the window goes to the Models view

    def _read_failed(self, generation: int) -> None:
        if generation == self._reading["list"]:
            self._loading = False  # Jobs.failed has told the user why
            self._show_heading()

    def _poll_if_live(self) -> None:
        commands = self.launch_panel.busy() or (self.page is not None and self.page.busy())
        if self.isVisible() and (commands or any(run.live for run in self.runs)):
            self.poll.start()

    def _poll(self) -> None:
        if self.isVisible() and not self._loading:
            self.refresh(quietly=True)

    def _started(self, run_id: int) -> None:
        self.wanted = run_id
        self.refresh()

    def is_loading(self) -> bool:
        return self._loading

    # the chosen run -------------------------------------------------------------------------------------------------

    def selected_id(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return self.runs[rows[0].row()].id if rows and rows[0].row() < len(self.runs) else None

    def select_run(self, run_id: int) -> None:
        ids = [run.id for run in self.runs]
        if run_id in ids:
            self.table.selectRow(ids.index(run_id))

    def _load_detail(self) -> None:
        self._reading["detail"] += 1
        generation, chosen, workspace = self._reading["detail"], self.selected_id(), self.workspace
        if chosen is None or workspace is None:
            if self.page is not None:
                self.page.hide()
            return
        db = workspace.database
        self.jobs.submit(
            self.tr("Reading the training run"),
            lambda: training().run_detail(db, chosen),
            on_result=lambda detail: self._detail_arrived(generation, detail),
        )

    def _detail_arrived(self, generation: int, detail: Any) -> None:
        if generation == self._reading["detail"]:
            page = self._ensure_page()
            page.show_detail(detail)
            page.show()

    # showing --------------------------------------------------------------------------------------------------------

    def _show_runs(self) -> None:
        """The list, keeping the chosen run chosen (by id) across a refresh; a new run is chosen when it appears."""
        chosen = self.wanted if self.wanted in [run.id for run in self.runs] else self.selected_id()
        if chosen == self.wanted:
            self.wanted = None
        self.table.blockSignals(True)
        try:
            self.table.set_columns(columns())
            self.table.show_rows([cells(run) for run in self.runs])
            self.table.clearSelection()
            self.select_run(chosen if chosen is not None else self.runs[0].id if self.runs else -1)
        finally:
            self.table.blockSignals(False)
        self.lists.setCurrentIndex(1 if self.runs else 0)
        self.empty.setText(self._empty_text())
        self.refresh_button.setEnabled(self.workspace is not None)
        self._show_heading()

    def _show_heading(self, reading: bool = False) -> None:
        count = len(self.runs)
        text = self.tr("Training runs of this workspace: %n", "", count) if count else self.tr("Training runs")
        self.heading.setText(text + (" · " + self.tr("reading…") if reading else ""))

    def _empty_text(self) -> str:
        if self.workspace is None:
            return self.tr("No workspace open: choose one with File › Open Workspace Folder…")
        if self.loaded_at is None:
            return self.tr("Reading the training runs…")
        text = self.tr(
            "No training runs yet. Choose a recipe and an export on the left and launch it (a tiny recipe trains on "
            "the CPU in about a minute), or on a terminal:\n"
            "trainer-bridge train RECIPE --data EXPORT --data-dir %1\n"
            "An export is made with trainer-bridge export --stage sft --format trl --out %1/exports/sft"
        )
        return fill(text, self.workspace.data_dir)

    def save_state(self) -> None:
        """The window closes: a launch under way ends first; an evaluation under way stops (a launched run goes
        on: the Runs view finds it again)."""
        self.launch_panel.finish()
        if self.page is not None:
            self.page.stop()

    def retranslate(self) -> None:
        self.refresh_button.setText(self.tr("Refresh"))
        self.refresh_button.setToolTip(self.tr("Read the training runs again (F5)"))
        self._show_runs()


def choose_in_models(models: ModelsView, evaluation_id: int, tries: int = MODELS_TRIES) -> None:
    """Choose `evaluation_id` in the Models view once its list, read again, has it (it reads on a worker)."""
    if tries == MODELS_TRIES:  # the first call: the evaluation is new, the list is read again
        models.refresh()
    if not models.is_loading() and evaluation_id in [row.id for row in models.rows]:
        models.select_evaluations(evaluation_id)
    elif tries > 0:
        QTimer.singleShot(WAIT_FOR_MODELS_MS, models, lambda: choose_in_models(models, evaluation_id, tries - 1))
