"""The judge view: run the LLM judge over the workspace's trajectories, watch it, and see every judge's scores.

A run is ``services.judging.run_judge`` on the ``jobs`` queue "judge". Its progress comes from the runner's
worker threads through a queued signal; Stop sets the run's event, so the requests in flight finish and are
stored, and the run ends "stopped". Closing the workspace or quitting stops the run and waits for it, since it
writes to the database that is about to close. The judges table and the apps of the form are read on
``jobs`` when the workspace opens, when the view shows, after each run, on Refresh and when another person works.

Below, the chosen judge's answers, one per trajectory, and the chosen answer's drill-down: the score, the reason
and the screens the judge was shown (annotator.ui.judge.answers). A score the person working may not see (a study
they rate is still being rated) shows as hidden, with why. Who may see what changes under an open view (a study
begins, a rating closes one, here or in another process), so the answers are read again, with that rule, after
every read of the judges and on each click on a judge, never kept from an earlier read.
"""

from __future__ import annotations

import itertools
import logging

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget

from annotator.judge.runner import RunProgress, RunSummary
from annotator.services.changes import Changes
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.browser.model import hidden_reason
from annotator.ui.hub import Hub
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.judge.answer_detail import AnswerDetail
from annotator.ui.judge.answers import Answer, Answers, AnswersTable, Drilldown, load_answers, load_drilldown
from annotator.ui.judge.form import RunForm
from annotator.ui.judge.progress import ProgressRelay, Run, RunPanel, work
from annotator.ui.judge.table import JudgesTable, Loaded, load
from annotator.ui.workers import Jobs, describe

log = logging.getLogger(__name__)

QUEUE = "judge"
SHUTDOWN_WAIT_S = 30.0  # requests in flight finish (and are stored) before the database closes


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
        self.current_run: Run | None = None
        self._run_ids = itertools.count(1)
        self._generation = 0  # of table loads: an older one that arrives late is dropped
        self._loading = False
        self.relay = ProgressRelay(self)
        self.relay.progressed.connect(self._progressed, Qt.ConnectionType.QueuedConnection)
        self.form = RunForm(self)
        self.form.changed.connect(self._update_controls)
        self.form.start_requested.connect(self.start)
        self.form.stop_requested.connect(self.stop)
        if self.hub.offered is not None:  # offered before this view was made
            self.use_endpoint(*self.hub.offered)
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
        self.table.itemSelectionChanged.connect(self.load_answers)
        self.table.clicked.connect(lambda _index: self._judge_clicked())
        self.answers_heading = QLabel(self)
        self.answers_heading.setStyleSheet("font-weight: bold")
        self.answers = AnswersTable(self)
        self.answers.chosen.connect(self._answer_chosen)
        self.detail = AnswerDetail(jobs, self)
        self._answers_generation = 0
        self._answers_pending = False  # a read of the answers is on its way
        self._select_judge: int | None = None  # to choose when the judges arrive (a run's), whichever read brings them
        self._person: str | None = None  # whom the answers shown are for
        self.hub.changed.connect(self._changed)
        self._lay_out()
        self.setFocusProxy(self.form.url)
        if (app := QCoreApplication.instance()) is not None:  # None only before an app exists: no widget then
            app.aboutToQuit.connect(self.shutdown)
        self.retranslate()
        self._update_controls()

    def _lay_out(self) -> None:
        """The run on the left; on the right, from top to bottom, the judges, the chosen judge's answers, and the
        chosen answer's reason and screens, which take most of the height."""
        left = QVBoxLayout()
        left.addWidget(self.form)
        left.addWidget(self.panel)
        left.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.refresh_button)
        judges = QWidget(self)
        judges_layout = QVBoxLayout(judges)
        judges_layout.setContentsMargins(0, 0, 0, 0)
        judges_layout.addLayout(top)
        judges_layout.addWidget(self.hint)
        judges_layout.addWidget(self.table, 1)
        answers = QWidget(self)
        answers_layout = QVBoxLayout(answers)
        answers_layout.setContentsMargins(0, 0, 0, 0)
        answers_layout.addWidget(self.answers_heading)
        answers_layout.addWidget(self.answers, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        for part, stretch in ((judges, 1), (answers, 2), (self.detail, 5)):
            self.splitter.addWidget(part)
            self.splitter.setStretchFactor(self.splitter.count() - 1, stretch)
        self.splitter.setSizes([100, 180, 520])
        self.splitter.setChildrenCollapsible(False)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 1)
        layout.addWidget(self.splitter, 2)

    # the workspace ---------------------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        if self.current_run is not None and workspace is not self.current_run.workspace:
            self._stop_and_wait()  # the run writes to the database that is about to close
        self.workspace = workspace
        self.detail.locate = workspace.blobs.screenshot_path if workspace else None
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
        person = identity.current_person()[0] or None
        if select_judge is not None:
            self._select_judge = select_judge  # a later refresh (the view shows, a change) must not lose it
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
            lambda: load(db, person),
            on_result=lambda loaded: self._loaded(generation, loaded),
            on_error=lambda _error: self._load_failed(generation),
        )

    def _loaded(self, generation: int, loaded: Loaded) -> None:
        if generation != self._generation:
            return
        self._loading = False
        self.form.set_apps(loaded.apps)
        self.table.blockSignals(True)  # the answers are read once, below, whether the choice moved or not
        try:
            self._show_judges(loaded)
        finally:
            self.table.blockSignals(False)
        self._show_hint()
        self.load_answers()  # a study may have begun or closed since they were read: hidden ones differ

    def _show_judges(self, loaded: Loaded) -> None:
        select_judge, self._select_judge = self._select_judge, None
        self.table.show_judges(loaded.judges)
        if select_judge is not None:
            self.table.select_judge(select_judge)
        elif self.selected_judge() is None and loaded.judges:
            self.table.select_judge(loaded.judges[-1].id)  # the newest: its answers show below

    def _load_failed(self, generation: int) -> None:
        if generation == self._generation:
            self._loading = False  # Jobs.failed has told the user why
            self._show_hint()

    # a judge's answers -----------------------------------------------------------------------------------------

    def selected_judge(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return self.table.judges[rows[0].row()].id if rows and rows[0].row() < len(self.table.judges) else None

    def load_answers(self) -> None:
        """Read the chosen judge's answers, without those the person working may not see, on a worker."""
        self._answers_generation += 1
        generation, judge, workspace = self._answers_generation, self.selected_judge(), self.workspace
        person = identity.current_person()[0] or None
        self._person = person
        if judge is None or workspace is None:
            self._answers_arrived(generation, None)
            return
        self._answers_pending = True
        self.jobs.submit(
            self.tr("Reading the judge's answers"),
            lambda: load_answers(workspace.database, judge, person),
            on_result=lambda answers: self._answers_arrived(generation, answers),
            on_error=lambda _error: self._answers_failed(generation),
        )

    def _judge_clicked(self) -> None:
        """A click on the judge already chosen reads the judges and its answers again (a study may have begun
        since: the mean and the answers hide its scores together); a click that chose another judge started
        the read of its answers already."""
        if not self._answers_pending:
            self.refresh()

    def _answers_failed(self, generation: int) -> None:
        if generation == self._answers_generation:
            self._answers_pending = False  # Jobs.failed has told the user why

    def _answers_arrived(self, generation: int, answers: Answers | None) -> None:
        if generation != self._answers_generation:
            return
        self._answers_pending = False
        self.answers.show_answers(answers)
        self._show_answers_heading()

    def _answer_chosen(self, answer: Answer | None) -> None:
        workspace, answers = self.workspace, self.answers.answers
        if answer is None or workspace is None:
            self.detail.clear(self.tr("Choose a trajectory to see the judge's reason and the screens it saw."))
            return
        why = hidden_reason(answers.hidden if answers else None, answer.score.trajectory_id) if answer.hidden else ""
        if (answer, why) == (self.detail.answer, self.detail.hidden_text) and self.detail.drilldown is not None:
            return  # read again (a refresh) and unchanged: the screens shown stand
        self.detail.show_answer(answer, why)
        self.jobs.submit(
            self.tr("Reading the screens the judge saw"),
            lambda: load_drilldown(workspace.database, answer),
            on_result=self._drilldown_arrived,
        )

    def _drilldown_arrived(self, drilldown: Drilldown) -> None:
        self.detail.show_screens(drilldown)

    def _changed(self, changes: Changes) -> None:
        """New scores, or a study's ratings (who may see which score): read the judges and answers again when
        shown; a hidden view reads them when it shows."""
        if (changes.judged or changes.studies) and self.isVisible() and self.workspace is not None:
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.form.offer_collect_endpoint()
        if self.workspace is not None:
            self.refresh()  # while hidden, studies may have begun, ratings closed them, or the person changed

    def person_changed(self) -> None:
        if self.workspace is not None and self._person != (identity.current_person()[0] or None):
            self.refresh()  # another person works: their hidden scores, and so the means, differ

    def _show_answers_heading(self) -> None:
        answers = self.answers.answers
        if answers is None:
            self.answers_heading.setText(self.tr("Choose a judge above to see its answers"))
            return
        text = fill(self.tr("Answers of judge %1: %2"), answers.judge_id, len(answers.rows))
        hidden = sum(answer.hidden for answer in answers.rows)
        if hidden:
            text += " · " + self.tr("%n hidden from you while a study you rate is being rated", "", hidden)
        self.answers_heading.setText(text)

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
        run, relay = Run(next(self._run_ids), workspace), self.relay
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

    def _finished(self, run: Run, summary: RunSummary) -> None:
        if run is not self.current_run:  # left when its workspace closed
            return
        self.current_run = None
        self.panel.finished(summary)
        self.status_message.emit(self.panel.summary_text())
        self._update_controls()
        self.refresh(select_judge=summary.config_id)
        self.run_finished.emit(summary)
        self.hub.announce(Changes(judged=True))

    def _failed(self, run: Run, error: BaseException) -> None:
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
        self._show_answers_heading()
        self.heading.setText(self.tr("Judges of this workspace"))
        self.refresh_button.setText(self.tr("Refresh"))
        self.refresh_button.setToolTip(self.tr("Read the judges and their scores again"))
        self._show_hint()
