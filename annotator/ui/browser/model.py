"""The table model over trajectories: pages fetched on demand from the browse service, off the GUI thread.

Qt asks ``canFetchMore`` / ``fetchMore`` when the view nears the end of what is loaded; each fetch is one
keyset page on a worker, appended when it arrives. A new filter or sort starts a new generation, and
pages of an older generation that arrive late are dropped, so fast typing in the search box never mixes
results. Sorting re-queries the database: the model never sorts rows in memory.
"""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QDateTime,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from annotator.storage import browse
from annotator.storage.database import Database
from annotator.storage.studies import HiddenJudging
from annotator.ui import labels
from annotator.ui.i18n import QT_TRANSLATE_NOOP, fill
from annotator.ui.workers import Jobs

CONTEXT = "TrajectoryTableModel"
# (sort column of the browse service, header source text); the order is the order on screen.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", QT_TRANSLATE_NOOP("TrajectoryTableModel", "ID")),
    ("app", QT_TRANSLATE_NOOP("TrajectoryTableModel", "App")),
    ("instruction", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Instruction")),
    ("steps", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Steps")),
    ("collector", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Collector")),
    ("phone", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Phone")),
    ("status", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Status")),
    ("outcome", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Outcome")),
    ("review", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Review")),
    ("judge_score", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Judge")),
    ("labelled_by", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Labelled by")),
    ("started", QT_TRANSLATE_NOOP("TrajectoryTableModel", "Started")),
)
COLUMN_INDEX = {key: index for index, (key, _title) in enumerate(COLUMNS)}
NUMERIC = {"id", "steps", "judge_score"}
NO_SCORE = "—"
ID_ROLE = Qt.ItemDataRole.UserRole
Parent = QModelIndex | QPersistentModelIndex


def local_time(value: datetime | None) -> str:
    """Stored times are UTC (SQLite hands them back without a zone); people read their local time ("" for none)."""
    if value is None:
        return ""
    aware = value if value.tzinfo else value.replace(tzinfo=UTC)
    moment = QDateTime.fromSecsSinceEpoch(int(aware.timestamp())).toLocalTime()
    return QLocale().toString(moment, "yyyy-MM-dd HH:mm")


class TrajectoryTableModel(QAbstractTableModel):
    loading_changed = Signal(bool)

    def __init__(self, jobs: Jobs, page_size: int = 200, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self.page_size = page_size
        self.db: Database | None = None
        self.where = browse.BrowseFilter()
        self.order = browse.Sort("id", descending=True)  # newest first: what was just collected is on top
        self._rows: list[browse.TrajectoryRow] = []
        self._cursor: browse.Cursor | None = None
        self._exhausted = True
        self._fetching = False
        self._failed = False
        self._generation = 0
        self.hidden: HiddenJudging | None = None  # whose judge results the person looking may not see, and why
        self.judge: tuple[int, str] | None = None  # the judge whose scores the column shows

    # what the view asks ------------------------------------------------------------------------------------

    def rowCount(self, parent: Parent = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Parent = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate(CONTEXT, COLUMNS[section][1])
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section][0] == "judge_score":
            return self._judge_tooltip()
        return None

    def _judge_tooltip(self) -> str:
        if self.judge is None:
            return self.tr("The judge's score (0-4); no judge has scored anything yet")
        return fill(self.tr("The score (0-4) of judge %1 (%2), the newest"), self.judge[0], self.judge[1])

    def data(self, index: Parent, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        row, key = self._rows[index.row()], COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, key)
        if role == ID_ROLE:
            return row.id
        if role == Qt.ItemDataRole.ToolTipRole and key in ("instruction", "collector", "labelled_by", "judge_score"):
            return self._tooltip(row, key)
        if role == Qt.ItemDataRole.TextAlignmentRole and key in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, row: browse.TrajectoryRow, key: str) -> object:
        """One cell's text; computed per call (only visible cells are asked), so a language switch just repaints."""
        if key in ("id", "app", "steps", "phone"):
            return getattr(row, key)
        if key == "instruction":
            return row.instruction.replace("\n", " ")
        if key == "collector":
            return row.collector or labels.label(labels.COLLECTOR, row.collector_kind)
        if key == "labelled_by":
            return ", ".join(row.labelled_by)
        if key == "started":
            return local_time(row.started_at)
        if key == "judge_score":
            if row.judge_hidden:
                return self.tr("hidden")
            return str(row.judge_score) if row.judge_score is not None else NO_SCORE
        table, value = {
            "status": (labels.STATUS, row.status),
            "outcome": (labels.OUTCOME, row.outcome),
            "review": (labels.REVIEW, row.review_status),
        }[key]
        return labels.label(table, value)

    def _tooltip(self, row: browse.TrajectoryRow, key: str) -> str:
        if key == "judge_score":
            return hidden_reason(self.hidden, row.id) if row.judge_hidden else self._judge_tooltip()
        if key == "collector":
            return f"{labels.label(labels.COLLECTOR, row.collector_kind)}: {row.collector}"
        if key == "labelled_by":
            return "\n".join(row.labelled_by)
        return row.instruction

    def canFetchMore(self, parent: Parent = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and self.db is not None and not (self._exhausted or self._fetching or self._failed)

    def fetchMore(self, parent: Parent = QModelIndex()) -> None:  # noqa: B008
        if not self.canFetchMore(parent):
            return
        db, where, order, cursor, size = self.db, self.where, self.order, self._cursor, self.page_size
        assert db is not None
        generation = self._generation
        self._set_fetching(True)
        self.jobs.submit(
            QCoreApplication.translate("TrajectoryTableModel", "Loading trajectories"),
            lambda: browse.fetch_page(db, where, order, cursor, size),
            on_result=lambda page: self._append(generation, page),
            on_error=lambda _error: self._fetch_failed(generation),
        )

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        wanted = browse.Sort(COLUMNS[column][0], descending=order == Qt.SortOrder.DescendingOrder)
        if wanted != self.order:
            self.order = wanted
            self.reload()

    # what the browser asks ---------------------------------------------------------------------------------

    def set_database(self, db: Database | None) -> None:
        self.db = db
        self.reload()

    def set_filter(self, where: browse.BrowseFilter) -> None:
        if where != self.where:
            self.where = where
            self.reload()

    def reload(self) -> None:
        """Forget the loaded rows and fetch the first page again (filter, sort or data changed)."""
        self.beginResetModel()
        self._generation += 1
        self._rows, self._cursor = [], None
        self._exhausted, self._failed = self.db is None, False
        self._set_fetching(False)
        self.endResetModel()
        self.fetchMore()

    def loading(self) -> bool:
        return self._fetching

    def all_loaded(self) -> bool:
        return self._exhausted

    def trajectory_id(self, row: int) -> int:
        return self._rows[row].id

    def row_of(self, trajectory_id: int) -> int | None:
        return next((i for i, row in enumerate(self._rows) if row.id == trajectory_id), None)

    def retranslate(self) -> None:
        """Headers and value labels follow the language; the rows stay loaded."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(COLUMNS) - 1))

    # pages arriving ----------------------------------------------------------------------------------------

    def _append(self, generation: int, page: browse.Page) -> None:
        if generation != self._generation:
            return  # a page for a filter or sort that is no longer shown
        if page.rows:
            start = len(self._rows)
            self.beginInsertRows(QModelIndex(), start, start + len(page.rows) - 1)
            self._rows.extend(page.rows)
            self.endInsertRows()
        self._cursor = page.cursor
        self._exhausted = page.cursor is None
        self._set_fetching(False)

    def _fetch_failed(self, generation: int) -> None:
        if generation == self._generation:
            self._failed = True  # stop asking until the next reload; Jobs has told the user why
            self._set_fetching(False)

    def _set_fetching(self, fetching: bool) -> None:
        if fetching != self._fetching:
            self._fetching = fetching
            self.loading_changed.emit(fetching)


def hidden_reason(hidden: HiddenJudging | None, trajectory_id: int | None = None) -> str:
    """Why the judge's result (of `trajectory_id`) is not shown, for a tooltip; the views that show judge results
    share it."""
    studies = ", ".join(
        study.name
        for study in (hidden.studies if hidden else ())
        if trajectory_id is None or trajectory_id in study.trajectory_ids
    )
    if hidden is not None and hidden.person is None:
        text = QCoreApplication.translate(
            "TrajectoryTableModel",
            "Hidden while %1 is being rated: say who you are (File › Who Is Working…); a rater sees the judge's "
            "results once every rater has finished",
        )
    else:
        text = QCoreApplication.translate(
            "TrajectoryTableModel",
            "Hidden while %1 is being rated: you rate it, and see the judge's results once every rater has finished",
        )
    return fill(text, studies)
