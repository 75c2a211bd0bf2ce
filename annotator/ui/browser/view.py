"""The trajectory browser view: counts, filters, the table, and "next unlabelled / needing review".

The judge score column shows no score that the person working may not see (storage.studies.hidden_judging): which
those are is read before the first rows, again on Refresh, when judge scores or studies change, and each time the
view shows (a study may have begun in another process); the rows are read again when it differs.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from annotator.services.changes import Changes
from annotator.storage import browse
from annotator.storage.database import Database
from annotator.storage.studies import HiddenJudging, hidden_judging
from annotator.storage.workspace import Workspace
from annotator.ui import identity, labels
from annotator.ui import settings as keys
from annotator.ui.browser.columns import ColumnChooser
from annotator.ui.browser.filters import FilterBar
from annotator.ui.browser.model import COLUMN_INDEX, ID_ROLE, TrajectoryTableModel
from annotator.ui.hub import Hub
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.workers import Jobs

HEADER_STATE = "browser/header-3"  # "-3": the phone column came; an older layout would misplace it
# The instruction column takes what is left: it is the one people read.
COLUMN_WIDTHS = {
    "id": 60,
    "app": 90,
    "steps": 50,
    "collector": 104,
    "phone": 90,
    "status": 76,
    "outcome": 96,
    "review": 108,
    "judge_score": 54,
    "labelled_by": 90,
    "started": 122,
}
MIN_INSTRUCTION = 260  # with the others as above, the instruction stretches in a 1280-pixel-wide window
LABEL_COLUMNS = {"status": labels.STATUS, "outcome": labels.OUTCOME, "review": labels.REVIEW}
LABEL_PADDING = 24  # the cell's margins and the sort arrow's room


class TrajectoryTable(QTableView):
    """A table where Enter, like a double click, chooses the current row.

    The instruction column takes the width the others leave, but never less than MIN_INSTRUCTION pixels: on a
    narrow window the table scrolls sideways instead of squeezing the one column people read.
    """

    chosen = Signal(int)  # row

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doubleClicked.connect(lambda index: self.chosen.emit(index.row()))
        self.horizontalHeader().sectionResized.connect(self._other_column_resized)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_instruction()

    def fit_labels(self) -> None:
        """The columns of stored values as wide as their longest label in the language shown (an English "task
        completed" was cut to "task comple…" in a width made for Chinese)."""
        header, metrics = self.horizontalHeader(), self.fontMetrics()
        for key, table in LABEL_COLUMNS.items():
            texts = [labels.label(table, value) for value in table]
            texts.append(str(self.model().headerData(COLUMN_INDEX[key], Qt.Orientation.Horizontal)))
            wanted = max(metrics.horizontalAdvance(text) for text in texts) + LABEL_PADDING
            if header.sectionSize(COLUMN_INDEX[key]) < wanted:
                header.resizeSection(COLUMN_INDEX[key], wanted)
        self.fit_instruction()

    def fit_instruction(self) -> None:
        header, column = self.horizontalHeader(), COLUMN_INDEX["instruction"]
        if header.count() <= column:
            return
        others = sum(
            header.sectionSize(i) for i in range(header.count()) if i != column and not header.isSectionHidden(i)
        )
        roomy = self.viewport().width() - others >= MIN_INSTRUCTION
        mode = QHeaderView.ResizeMode.Stretch if roomy else QHeaderView.ResizeMode.Interactive
        if header.sectionResizeMode(column) != mode:
            header.setSectionResizeMode(column, mode)
        if not roomy and header.sectionSize(column) < MIN_INSTRUCTION:  # also when it was never stretched
            header.resizeSection(column, MIN_INSTRUCTION)

    def _other_column_resized(self, column: int, _old: int, _new: int) -> None:
        if column != COLUMN_INDEX["instruction"]:
            self.fit_instruction()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.chosen.emit(self.currentIndex().row())
            return
        super().keyPressEvent(event)


class BrowserView(Retranslating, QWidget):
    open_requested = Signal(int)  # a trajectory id: the window opens it in the view that edits trajectories
    summary_changed = Signal(object)  # browse.Summary of the current filter
    status_message = Signal(str)

    def __init__(self, jobs: Jobs, parent: QWidget | None = None, *, hub: Hub | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self.hub = hub or Hub(self)
        self.hub.changed.connect(self._changed)
        self._stale = False  # something changed while the view was hidden: refresh when it shows
        self.db: Database | None = None
        self.summary: browse.Summary | None = None
        self._summary_generation = 0
        self.hidden: HiddenJudging | None = None  # judge results the person working may not see; None: not read yet
        self._hidden_generation = 0
        self._person: str | None = None  # whom `hidden` is for
        self.counts = QLabel(self)
        self.counts.setObjectName("browser-counts")
        self.counts.setWordWrap(True)  # a long message wraps instead of widening the window
        self.filters = FilterBar(self)
        self.filters.changed.connect(self._filter_changed)
        self.model = TrajectoryTableModel(jobs, parent=self)
        self.model.loading_changed.connect(lambda _loading: self._show_counts())
        self.table = TrajectoryTable(self)
        self.table.setObjectName("browser-table")
        self.table.setModel(self.model)
        self.table.chosen.connect(lambda row: self.open_requested.emit(self.model.trajectory_id(row)))
        self._set_up_table()
        top = QHBoxLayout()
        top.addWidget(self.counts, 1)
        top.addWidget(self.filters.search, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.filters)
        layout.addWidget(self.table, 1)
        self.setFocusProxy(self.table)
        self._show_counts()

    def _set_up_table(self) -> None:
        table, header = self.table, self.table.horizontalHeader()
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        table.verticalHeader().hide()
        table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 10)
        header.setHighlightSections(False)
        for key, width in COLUMN_WIDTHS.items():
            header.resizeSection(COLUMN_INDEX[key], width)
        header.setSortIndicator(COLUMN_INDEX["id"], Qt.SortOrder.DescendingOrder)
        state = keys.settings().value(HEADER_STATE)
        if state is not None:
            header.restoreState(state)
        self.columns = ColumnChooser(header)  # right click on the header: which columns show
        table.setSortingEnabled(True)  # asks the model to sort by the header's indicator: a database query
        table.fit_labels()

    # the workspace ------------------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.db = workspace.database if workspace else None
        self.hidden = None
        self.model.set_database(None)  # no row before it is known whose judge scores may show
        self._load_choices()
        self._load_hidden()

    def save_state(self) -> None:
        keys.settings().setValue(HEADER_STATE, self.table.horizontalHeader().saveState())

    # commands (rows of the actions table) ------------------------------------------------------------------

    def _changed(self, changes: Changes) -> None:
        """Rows may differ (new trajectories, labels, review states, judge scores, who may see them): refresh now if
        shown, else when shown."""
        if not (changes.trajectory_list or changes.judged or changes.studies):
            return
        if self.isVisible():
            self.refresh()
        else:
            self._stale = True

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale or (self.hidden is not None and self._person != (identity.current_person()[0] or None)):
            self._stale = False
            self.refresh()  # things changed, or another person works: their judge scores may differ
        elif self.hidden is not None:
            self._load_hidden(rows_anyway=False)  # a study begun or closed unannounced: rows only if it did

    def person_changed(self) -> None:
        """Someone else sits down while the list shows: the judge scores they may see are read again."""
        if self.hidden is not None and self._person != (identity.current_person()[0] or None):
            self.refresh()

    def refresh(self) -> None:
        """Read everything again: new trajectories from a running collection, labels from other annotators, judge
        scores, and which of them the person working may see."""
        self._load_choices()
        self._load_hidden()

    def focus_search(self) -> None:
        self.filters.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filters.search.selectAll()

    def open_next(self, want: browse.Want) -> None:
        """Open the next trajectory to label or to review within the current filters, after the selected one."""
        db = self.db
        if db is None:
            return
        where, after = self.model.where, self.current_id()
        self.jobs.submit(
            self.tr("Finding the next trajectory"),
            lambda: browse.next_trajectory(db, want, where, after),
            on_result=lambda found: self._next_found(want, found),
        )

    # helpers ---------------------------------------------------------------------------------------------------

    def current_id(self) -> int | None:
        index = self.table.currentIndex()
        value = self.model.data(index, ID_ROLE) if index.isValid() else None
        return value if isinstance(value, int) else None

    def select_id(self, trajectory_id: int) -> bool:
        """Select the row of a loaded trajectory; False when it is not among the loaded rows."""
        row = self.model.row_of(trajectory_id)
        if row is None:
            return False
        self.table.selectRow(row)
        self.table.scrollTo(self.model.index(row, 0), QAbstractItemView.ScrollHint.EnsureVisible)
        return True

    def _next_found(self, want: browse.Want, found: int | None) -> None:
        if found is None:
            none_left = {
                "unlabelled": self.tr("No unlabelled trajectory matches the filters."),
                "review": self.tr("No trajectory matching the filters is waiting for review."),
            }
            self.status_message.emit(none_left[want])
            return
        self.select_id(found)
        self.open_requested.emit(found)

    def _filter_changed(self, where: browse.BrowseFilter) -> None:
        self.model.set_filter(self._blind(where))
        self._load_summary()

    def _blind(self, where: browse.BrowseFilter) -> browse.BrowseFilter:
        """The filter, with the trajectories whose judge results the person working may not see."""
        return replace(where, hidden=self.hidden.trajectory_ids if self.hidden else frozenset())

    def _load_hidden(self, rows_anyway: bool = True) -> None:
        """Which judge results the person working may not see; then the rows and the counts (with `rows_anyway`
        False, only when what is hidden changed)."""
        self._hidden_generation += 1
        generation, db, person = self._hidden_generation, self.db, identity.current_person()[0] or None
        if db is None:
            self._load_summary()
            return
        self.jobs.submit(
            self.tr("Reading which judge scores you may see"),
            lambda: hidden_judging(db, person),
            on_result=lambda hidden: self._hidden_arrived(generation, db, hidden, rows_anyway),
        )

    def _hidden_arrived(self, generation: int, db: Database, hidden: HiddenJudging, rows_anyway: bool) -> None:
        if generation != self._hidden_generation or db is not self.db:
            return
        if not rows_anyway and hidden == self.hidden and self.model.db is db:
            return  # the rows shown hide what they must
        self.hidden, self._person, self.model.hidden = hidden, hidden.person, hidden
        where = self._blind(self.filters.current())
        if self.model.db is not db:
            self.model.where = where
            self.model.set_database(db)
        elif where != self.model.where:
            self.model.set_filter(where)
        else:
            self.model.reload()
        self._load_summary()

    def _load_choices(self) -> None:
        db = self.db
        if db is None:
            self._choices_arrived(browse.Choices())
            return
        loading = self.tr("Loading filter choices")
        self.jobs.submit(loading, lambda: browse.filter_choices(db), on_result=self._choices_arrived)

    def _choices_arrived(self, choices: browse.Choices) -> None:
        self.model.judge = choices.judge  # the column's tooltip names it
        self.filters.set_choices(choices)

    def _load_summary(self) -> None:
        self._summary_generation += 1
        generation, db, where = self._summary_generation, self.db, self.model.where
        if db is None:
            self._summary_arrived(generation, None)
            return
        self.jobs.submit(
            self.tr("Counting trajectories"),
            lambda: browse.summarize(db, where),
            on_result=lambda summary: self._summary_arrived(generation, summary),
        )

    def _summary_arrived(self, generation: int, summary: browse.Summary | None) -> None:
        if generation == self._summary_generation:
            self.summary = summary
            self._show_counts()
            self.summary_changed.emit(summary)

    def _show_counts(self) -> None:
        summary, locale = self.summary, QLocale()
        if summary is None:
            no_workspace = self.tr("No workspace open: choose one with File › Open Workspace Folder…")
            self.counts.setText(self.tr("Loading…") if self.db is not None else no_workspace)
            return
        if summary.shown == summary.total:
            shown = self.tr("%Ln trajectories", "", summary.total)
        else:
            shown = fill(
                self.tr("Showing %1 of %2 trajectories"), locale.toString(summary.shown), locale.toString(summary.total)
            )
        work = fill(
            self.tr("%1 unlabelled · %2 awaiting review"),
            locale.toString(summary.unlabelled),
            locale.toString(summary.awaiting_review),
        )
        loading = " · " + self.tr("loading more…") if self.model.loading() else ""
        self.counts.setText(f"<b>{shown}</b> · {work}{loading}")

    def retranslate(self) -> None:
        self.model.retranslate()
        self.table.fit_labels()
        self._show_counts()
