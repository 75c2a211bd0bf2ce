"""The Studies view: blind human studies of a judge, as Mobile-R1 Appendix I did one.

Which page a person gets depends on who they are (File → Who Is Working): a rater who has not finished a study
rates it blind (RatingPage; nothing on it or reachable from it shows the judge's score); a rater who has
finished sees where they and the judge differ most, with the judge's reasons, and the report; everyone else
sees the report, adjudicates items without a majority and saves the report as HTML, Markdown or JSON.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from annotator.judge.agreement_consensus import TIE_RULES, TieRule
from annotator.services import blind_rating, judging, studies
from annotator.services.changes import Changes
from annotator.services.studies import StudyInfo
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.hub import Hub
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.studies.new_study import NewStudyDialog
from annotator.ui.studies.rating import RatingPage
from annotator.ui.studies.report_page import ReportPage, fill_rows, read_only_table
from annotator.ui.workers import Jobs, describe

if TYPE_CHECKING:
    from annotator.judge.agreement import AgreementReport

MESSAGE, RATING, RESULTS = 0, 1, 2  # the pages
EXPORTS = {"html": "HTML (*.html)", "md": "Markdown (*.md)", "json": "JSON (*.json)"}


class StudiesView(Retranslating, QWidget):
    status_message = Signal(str)
    open_requested = Signal(int)  # a trajectory to open in the annotation view

    def __init__(self, jobs: Jobs, parent: QWidget | None = None, *, hub: Hub | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("studies-view")
        self.jobs = jobs
        self.hub = hub or Hub(self)
        self.hub.changed.connect(self._changed)
        self.workspace: Workspace | None = None
        self.infos: list[StudyInfo] = []
        self.tie_rule: TieRule = "median"
        self._generation = 0
        self._rows_generation = 0
        self.table = read_only_table(5, self)
        self.table.setObjectName("studies-table")
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.itemSelectionChanged.connect(self.show_selected)
        self.new_button, self.refresh_button = QPushButton(self), QPushButton(self)
        self.new_button.clicked.connect(self.new_study)
        self.refresh_button.clicked.connect(self.reload)
        self.message = QLabel(self)
        self.message.setObjectName("studies-message")
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.rating = RatingPage(jobs, self)
        self.rating.finished.connect(self.reload)
        self.rating.saved.connect(lambda: self.hub.announce(Changes(studies=True)))
        self.rating.status_message.connect(self.status_message)
        self.report = ReportPage(self)
        self.report.tie_rule_changed.connect(self._tie_rule_changed)
        self.report.adjudicate_requested.connect(self.adjudicate)
        self.report.export_requested.connect(self.export_report)
        self.differences = read_only_table(5, self)
        self.differences.setObjectName("study-disagreements")
        self.differences.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.differences.doubleClicked.connect(self._open_difference)
        self.results = QTabWidget(self)
        self.results.addTab(self.differences, "")
        self.results.addTab(self.report, "")
        self.pages = QStackedWidget(self)
        for page in (self.message, self.rating, self.results):
            self.pages.addWidget(page)
        self._lay_out()
        self.retranslate()

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.refresh_button)
        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.table)
        top_layout.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(top)
        splitter.addWidget(self.pages)
        splitter.setStretchFactor(1, 4)
        splitter.setSizes([150, 650])
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

    # the studies -----------------------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        """Read the studies when the view is shown, not before: a report takes seconds to compute."""
        self.workspace = workspace
        self.infos = []
        self._fill_table()
        if self.isVisible() or workspace is None:
            self.reload()

    def reload(self) -> None:
        workspace = self.workspace
        self._generation += 1
        generation = self._generation
        if workspace is None:
            self.infos = []
            self._fill_table()
            self._show_message(self.tr("Open a workspace to see its studies."))
            return
        self.jobs.submit(
            self.tr("Reading the studies"),
            lambda: studies.list_studies(workspace.database),
            on_result=lambda infos: self._listed(generation, infos),
        )

    def _listed(self, generation: int, infos: list[StudyInfo]) -> None:
        if generation != self._generation:
            return
        chosen = self.selected()
        self.infos = infos
        self.table.blockSignals(True)  # the selection is shown once, below: a report takes seconds to compute
        try:
            self._fill_table()
            names = [info.name for info in infos]
            row = names.index(chosen.name) if chosen and chosen.name in names else (0 if infos else -1)
            if row >= 0:
                self.table.selectRow(row)
        finally:
            self.table.blockSignals(False)
        self.show_selected()

    def _changed(self, changes: Changes) -> None:
        """A score given (here or by another view) moves the raters' counts; a hidden view reads all when shown."""
        if changes.studies and self.workspace is not None and self.isVisible():
            self._refresh_rows()

    def _refresh_rows(self) -> None:
        """Read the table's rows again without touching the page below: a rater keeps rating where they are."""
        workspace = self.workspace
        if workspace is None:
            return
        self._rows_generation += 1
        generation = self._rows_generation
        self.jobs.submit(
            self.tr("Reading the studies"),
            lambda: studies.list_studies(workspace.database),
            on_result=lambda infos: self._rows_arrived(generation, infos),
        )

    def _rows_arrived(self, generation: int, infos: list[StudyInfo]) -> None:
        if generation != self._rows_generation:
            return
        if [info.name for info in infos] != [info.name for info in self.infos]:
            self.reload()  # studies came or went: choose again
            return
        rows = self.table.selectionModel().selectedRows()
        self.infos = infos
        self.table.blockSignals(True)
        try:
            self._fill_table()
            if rows:
                self.table.selectRow(rows[0].row())
        finally:
            self.table.blockSignals(False)

    def _fill_table(self) -> None:
        rows = []
        for info in self.infos:
            progress = ", ".join(f"{rater.name} {rater.rated}/{rater.total}" for rater in info.raters)
            state = self.tr("finished") if info.finished else self.tr("being rated")
            rows.append(
                [info.name, fill(self.tr("%1 (%2)"), info.judge_id, info.judge), str(info.size), progress, state]
            )
        fill_rows(self.table, rows)

    def selected(self) -> StudyInfo | None:
        rows = self.table.selectionModel().selectedRows()
        return self.infos[rows[0].row()] if rows and rows[0].row() < len(self.infos) else None

    def show_selected(self) -> None:
        info, workspace = self.selected(), self.workspace
        if workspace is None:
            return
        if info is None:
            self._show_message(
                self.tr(
                    "No study yet. A study samples trajectories the judge scored, stratified "
                    "over its levels, for people to score blind: New Study…"
                )
            )
            return
        person = identity.current_person()[0]
        mine = next((rater for rater in info.raters if rater.name == person), None)
        if mine is not None and not mine.finished:
            self._start_rating(workspace, info, person)
            return
        if mine is not None and not info.differences_for(person):
            self.report.show_report(None, "")
            self._show_message(self._waiting_text(info, mine.total))  # blind until every rater has finished
            return
        report = mine is None or info.finished  # a rater reads the others' scores once every rater has given theirs
        self.pages.setCurrentIndex(RESULTS)
        self.results.setTabVisible(0, mine is not None)
        self.results.setTabVisible(1, report)
        self.results.setCurrentIndex(0 if mine is not None else 1)
        if report:
            self._load_report(workspace, info, person)
        else:
            self.report.show_report(None, "")  # nor another study's, shown before
        if mine is not None:
            self._load_differences(workspace, info, person)

    def _waiting_text(self, info: StudyInfo, total: int) -> str:
        pending = ", ".join(f"{rater.name} {rater.rated}/{rater.total}" for rater in info.raters if not rater.finished)
        text = self.tr(
            "You have scored all %1 trajectories of %2. Where you and the judge differ, and the agreement report, "
            "show once every rater has finished (still rating: %3): until then nobody sees another's scores."
        )
        return fill(text, total, info.name, pending)

    def _start_rating(self, workspace: Workspace, info: StudyInfo, person: str) -> None:
        self.pages.setCurrentIndex(RATING)
        name, db = info.name, workspace.database
        self.jobs.submit(
            self.tr("Reading your items"),
            lambda: (blind_rating.rubric(db, name), blind_rating.rater_queue(db, name, person)),
            on_result=lambda found: self.rating.start(workspace, name, person, *found),
        )

    def _load_report(self, workspace: Workspace, info: StudyInfo, person: str) -> None:
        generation, rule, name = self._generation, self.tie_rule, info.name
        self.report.show_report(None, self.tr("Computing the report…"))
        self.jobs.submit(
            self.tr("Computing the agreement report"),
            lambda: studies.study_report(workspace.database, name, person or None, tie_rule=rule),
            on_result=lambda report: self._show_report(generation, report),
            on_error=lambda error: self.report.show_report(None, describe(error)),
        )

    def _show_report(self, generation: int, report: AgreementReport) -> None:
        if generation == self._generation:  # else a newer request's report is on its way
            self.report.show_report(report)

    def _load_differences(self, workspace: Workspace, info: StudyInfo, person: str) -> None:
        name = info.name
        self.jobs.submit(
            self.tr("Reading where you and the judge differ"),
            lambda: blind_rating.disagreements(workspace.database, name, person),
            on_result=self._show_differences,
        )

    def _show_differences(self, found: list[blind_rating.Disagreement]) -> None:
        rows = [[str(d.trajectory_id), d.instruction, str(d.yours), str(d.judge), d.judge_reason or ""] for d in found]
        fill_rows(self.differences, rows, [d.judge_reason or "" for d in found])

    def _open_difference(self) -> None:
        rows = self.differences.selectionModel().selectedRows()
        item = self.differences.item(rows[0].row(), 0) if rows else None
        if item is not None:
            self.open_requested.emit(int(item.text()))

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.pages.setCurrentIndex(MESSAGE)

    def _tie_rule_changed(self, rule: str) -> None:
        self.tie_rule = TIE_RULES[TIE_RULES.index(rule)]  # the typed rule of that name: the page offers only these
        info, workspace = self.selected(), self.workspace
        if info is not None and workspace is not None:
            self._load_report(workspace, info, identity.current_person()[0])

    # commands --------------------------------------------------------------------------------------------------

    def new_study(self) -> None:
        workspace = self.workspace
        if workspace is None:
            return
        self.jobs.submit(
            self.tr("Reading the judges"),
            lambda: (
                [judge for judge in judging.list_judges(workspace.database) if judge.scored],
                studies.known_people(workspace.database),  # who may rate
            ),
            on_result=lambda found: self._ask_new_study(workspace, *found),
        )

    def _ask_new_study(self, workspace: Workspace, judges: list, people: list[str]) -> None:
        dialog = NewStudyDialog(judges, people, self)
        if dialog.exec() != NewStudyDialog.DialogCode.Accepted:
            return
        name, judge, size = dialog.name.text().strip(), dialog.judge.currentData(), dialog.sample_size.value()
        raters, seed, by_app = dialog.rater_names(), dialog.seed.value(), dialog.by_app.isChecked()
        create = partial(studies.create_study, workspace.database, name, judge, size, raters, seed=seed, by_app=by_app)
        creator, early = identity.current_person()[0] or None, dialog.show_early.isChecked()
        self.jobs.submit(
            self.tr("Creating the study"),
            lambda: create(created_by=creator, show_differences_early=early),
            on_result=self._study_created,
            on_error=lambda error: self.status_message.emit(describe(error)),
        )

    def _study_created(self, info: StudyInfo) -> None:
        self.status_message.emit(fill(self.tr("Study %1 created with %2 trajectories."), info.name, info.size))
        self.reload()
        self.hub.announce(Changes(studies=True))  # its raters no longer see its judge scores elsewhere

    def adjudicate(self, item: str) -> None:
        info, workspace, person = self.selected(), self.workspace, identity.current_person()[0]
        if info is None or workspace is None:
            return
        if not person:
            self.status_message.emit(
                self.tr("Say who you are first (File → Who Is Working): adjudications are signed.")
            )
            return
        label, ok = QInputDialog.getInt(
            self, self.tr("Adjudicate"), fill(self.tr("Final label of trajectory %1:"), item), 2, 0, 4
        )
        if not ok:
            return
        note, _ok = QInputDialog.getText(self, self.tr("Adjudicate"), self.tr("Why (optional):"))
        name = info.name
        self.jobs.submit(
            self.tr("Saving the adjudication"),
            lambda: studies.adjudicate(workspace.database, name, int(item), label, note, person),
            on_result=lambda _none: self.reload(),
            on_error=lambda error: self.status_message.emit(describe(error)),
        )

    def export_report(self) -> None:
        from annotator.reports.agreement import render  # loaded with the report it saves, not at start

        info, report = self.selected(), self.report.report
        if info is None or report is None:
            return
        path, chosen = QFileDialog.getSaveFileName(
            self, self.tr("Save Report"), str(Path.home() / f"{info.name}.html"), ";;".join(EXPORTS.values())
        )
        if not path:
            return
        suffix = Path(path).suffix.lstrip(".")
        kind = suffix if suffix in EXPORTS else next(k for k, v in EXPORTS.items() if v == chosen)
        title = fill(self.tr("Judge agreement: study %1"), info.name)
        self.jobs.submit(
            self.tr("Saving the report"),
            lambda: Path(path).write_text(render(report, kind, title), encoding="utf-8"),
            on_result=lambda _size: self.status_message.emit(fill(self.tr("Saved %1"), path)),
        )

    # language and showing --------------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.reload()  # who is working may have changed, and ratings arrive from other machines

    def retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels(
            [self.tr("Study"), self.tr("Judge"), self.tr("Trajectories"), self.tr("Raters"), self.tr("State")]
        )
        self.new_button.setText(self.tr("New Study…"))
        self.refresh_button.setText(self.tr("Refresh"))
        self.differences.setHorizontalHeaderLabels(
            [self.tr("Trajectory"), self.tr("Instruction"), self.tr("You"), self.tr("Judge"), self.tr("Judge's reason")]
        )
        self.results.setTabText(0, self.tr("Where you and the judge differ"))
        self.results.setTabText(1, self.tr("Agreement report"))
        self._fill_table()
