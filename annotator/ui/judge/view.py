"""The judge view: run the LLM judge over the workspace's trajectories, watch it, and see every judge's scores.

A run is ``services.judging.run_judge`` on the ``jobs`` queue "judge". Its progress comes from the runner's
worker threads through a queued signal; Stop sets the run's event, so the requests in flight finish and are
stored, and the run ends "stopped". Closing the workspace or quitting stops the run and waits for it, since it
writes to the database that is about to close. The judges table and the apps of the form are read on
``jobs`` when the workspace opens, after each run and on Refresh.
"""

from __future__ import annotations

import itertools
import logging
import threading
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from annotator.judge.runner import RunProgress, RunSummary
from annotator.services.changes import Changes
from annotator.services.judging import list_judges, run_judge
from annotator.storage.browse import filter_choices
from annotator.storage.database import Database
from annotator.storage.judging import ConfigSummary
from annotator.storage.workspace import Workspace
from annotator.ui.hub import Hub
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.judge.form import RunForm, RunRequest
from annotator.ui.judge.progress import ProgressRelay, RunPanel
from annotator.ui.judge.table import JudgesTable
from annotator.ui.workers import Jobs, describe

log = logging.getLogger(__name__)

QUEUE = "judge"
SHUTDOWN_WAIT_S = 30.0  # requests in flight finish (and are stored) before the database closes


@dataclass
class _Run:
    id: int
    workspace: Workspace
    stop: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)  # set by the worker, whatever the end
    stopping: bool = False


@dataclass(frozen=True)
class Loaded:
    judges: list[ConfigSummary]
    apps: list[str]


def load(db: Database) -> Loaded:
    return Loaded(list_judges(db), [name for _id, name in filter_choices(db).apps])


def work(run: _Run, request: RunRequest, relay: ProgressRelay) -> RunSummary:
    """The run, on a worker thread; `run.finished` is set however it ends."""
    try:
        return run_judge(
            run.workspace, request.settings, request.endpoint, request.selection, concurrency=request.concurrency,
            on_progress=lambda progress: relay.send(run.id, progress), stop=run.stop,
        )  # fmt: skip
    finally:
        run.finished.set()


class JudgeView(Retranslating, QWidget):
    status_message = Signal(str)
    run_finished = Signal(object)  # RunSummary of a run started here, when it ends (not one that raised)

    def __init__(self, jobs: Jobs, parent: QWidget | None = None, *, hub: Hub | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("judge-view")
        self.jobs = jobs
        self.hub = hub or Hub(self)
        self.hub.endpoint_offered.connect(self.use_endpoint)
        self.workspace: Workspace | None = None
        self.current_run: _Run | None = None
        self._run_ids = itertools.count(1)
        self._generation = 0  # of table loads: an older one that arrives late is dropped
        self._loading = False
        self.relay = ProgressRelay(self)
        self.relay.progressed.connect(self._progressed, Qt.ConnectionType.QueuedConnection)
        self.form = RunForm(self)
        self.form.changed.connect(self._update_controls)
        self.form.start_requested.connect(self.start)
        self.form.stop_requested.connect(self.stop)
        self.panel = RunPanel(self)
        self.heading = QLabel(self)
        self.heading.setStyleSheet("font-weight: bold")
        self.refresh_button = QPushButton(self)
        self.refresh_button.setObjectName("judge-refresh")
        self.refresh_button.clicked.connect(lambda: self.refresh())
        self.table = JudgesTable(self)
        self.hint = QLabel(self)
        self.hint.setObjectName("judge-hint")
        self.hint.setWordWrap(True)
        self._lay_out()
        self.setFocusProxy(self.form.url)
        QCoreApplication.instance().aboutToQuit.connect(self.shutdown)
        self.retranslate()
        self._update_controls()

    def _lay_out(self) -> None:
        left = QVBoxLayout()
        left.addWidget(self.form)
        left.addWidget(self.panel)
        left.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.refresh_button)
        right = QVBoxLayout()
        right.addLayout(top)
        right.addWidget(self.hint)
        right.addWidget(self.table, 1)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 2)
        layout.addLayout(right, 3)

    # the workspace ---------------------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        if self.current_run is not None and workspace is not self.current_run.workspace:
            self._stop_and_wait()  # the run writes to the database that is about to close
        self.workspace = workspace
        self.refresh()
        self._update_controls()

    def save_state(self) -> None:
        self.form.save_state()

    def shutdown(self) -> None:
        """The app quits: stop the run and wait for the requests in flight (their answers are stored)."""
        self._stop_and_wait()

    def use_endpoint(self, base_url: str, model: str) -> None:
        """Fill in the endpoint (the window calls this when the scripted demo endpoint starts)."""
        self.form.use_endpoint(base_url, model)

    def is_running(self) -> bool:
        return self.current_run is not None

    def is_loading(self) -> bool:
        return self._loading

    # the judges ------------------------------------------------------------------------------------------------

    def refresh(self, select_judge: int | None = None) -> None:
        """Read the judges and the apps again on a worker; `select_judge` is chosen in the table when they come."""
        self._generation += 1
        generation, db = self._generation, self.workspace.database if self.workspace else None
        if db is None:
            self._loading = False
            self.table.show_judges([])
            self.form.set_apps([])
            self._show_hint()
            return
        self._loading = True
        self._show_hint()
        self.jobs.submit(
            self.tr("Loading the judges"),
            lambda: load(db),
            on_result=lambda loaded: self._loaded(generation, loaded, select_judge),
            on_error=lambda _error: self._load_failed(generation),
        )

    def _loaded(self, generation: int, loaded: Loaded, select_judge: int | None) -> None:
        if generation != self._generation:
            return
        self._loading = False
        self.table.show_judges(loaded.judges)
        self.form.set_apps(loaded.apps)
        if select_judge is not None:
            self.table.select_judge(select_judge)
        self._show_hint()

    def _load_failed(self, generation: int) -> None:
        if generation == self._generation:
            self._loading = False  # Jobs.failed has told the user why
            self._show_hint()

    # a run -----------------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Judge what the form chooses; a form that makes no judge says why and starts nothing."""
        workspace = self.workspace
        if self.current_run is not None:
            return
        if workspace is None:
            self._tell_failure(self.tr("Open a workspace first."))
            return
        try:
            request = self.form.request()
        except (ValueError, LookupError) as error:
            self._tell_failure(fill(self.tr("Cannot start the run: %1"), describe(error)))
            return
        self.form.save_state()
        run, relay = _Run(next(self._run_ids), workspace), self.relay
        self.current_run = run
        self.panel.started()
        self._update_controls()
        self.status_message.emit(self.tr("The judge run started."))
        self.jobs.submit(
            self.tr("Running the judge"),
            lambda: work(run, request, relay),
            on_result=lambda summary: self._finished(run, summary),
            on_error=lambda error: self._failed(run, error),
            queue=QUEUE,
        )

    def stop(self) -> None:
        """End the run after the requests in flight; what they answer is stored."""
        run = self.current_run
        if run is None or run.stopping:
            return
        run.stopping = True
        run.stop.set()
        self.panel.stop_requested()
        self._update_controls()
        self.status_message.emit(self.tr("Stopping the judge run after the requests in flight…"))

    def _progressed(self, sent: tuple[int, RunProgress]) -> None:
        run_id, progress = sent
        if self.current_run is not None and self.current_run.id == run_id:
            self.panel.advanced(progress)

    def _finished(self, run: _Run, summary: RunSummary) -> None:
        if run is not self.current_run:  # left when its workspace closed
            return
        self.current_run = None
        self.panel.finished(summary)
        self.status_message.emit(self.panel.summary_text())
        self._update_controls()
        self.refresh(select_judge=summary.config_id)
        self.run_finished.emit(summary)
        self.hub.announce(Changes(judged=True))

    def _failed(self, run: _Run, error: BaseException) -> None:
        if run is not self.current_run:
            return
        self.current_run = None
        self._tell_failure(fill(self.tr("The judge run failed: %1"), describe(error)))
        self._update_controls()
        self.refresh()

    def _stop_and_wait(self) -> None:
        run = self.current_run
        if run is None:
            return
        run.stop.set()
        if not run.finished.wait(SHUTDOWN_WAIT_S):
            log.warning("judge run %s still going after %s s; leaving it", run.id, SHUTDOWN_WAIT_S)
        self.current_run = None  # its summary, arriving later, has no workspace to show it in
        self.panel.failed(self.tr("The run was stopped because the workspace closed; the scores so far are kept."))
        self._update_controls()

    def _tell_failure(self, message: str) -> None:
        self.panel.failed(message)
        self.status_message.emit(message)

    # showing ---------------------------------------------------------------------------------------------------

    def _update_controls(self) -> None:
        run = self.current_run
        can_start = self.workspace is not None and self.form.has_endpoint()
        self.form.set_running(run is not None, run is not None and run.stopping, can_start)
        self.refresh_button.setEnabled(self.workspace is not None)

    def _show_hint(self) -> None:
        if self.workspace is None:
            text = self.tr("No workspace open: choose one with File › Open Workspace Folder…")
        elif self._loading and not self.table.judges:
            text = self.tr("Loading the judges…")
        elif not self.table.judges:
            text = self.tr("No judge has scored anything yet: fill in the form and press Start.")
        else:
            text = self.tr("A judge is a prompt, a model and its settings; a run skips what its judge has scored.")
        self.hint.setText(text)

    def retranslate(self) -> None:
        self.heading.setText(self.tr("Judges of this workspace"))
        self.refresh_button.setText(self.tr("Refresh"))
        self.refresh_button.setToolTip(self.tr("Read the judges and their scores again"))
        self._show_hint()
