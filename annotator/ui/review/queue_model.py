"""A review queue: the table model over QueueItem rows handed over by the view (it loads them on a worker),
and the table that shows it.

The same model serves both queues with different columns: a reviewer reads who annotated an item and when;
an annotator reads what came back and why, so rejected rows are coloured and carry the reviewer's comment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from annotator.domain.trajectory import ReviewStatus
from annotator.services import team
from annotator.services.review import QueueItem
from annotator.storage.workspace import Workspace
from annotator.ui import labels
from annotator.ui.browser.model import local_time
from annotator.ui.i18n import QT_TRANSLATE_NOOP, fill

CONTEXT = "QueueModel"
TITLES = {
    "id": QT_TRANSLATE_NOOP("QueueModel", "ID"),
    "app": QT_TRANSLATE_NOOP("QueueModel", "App"),
    "instruction": QT_TRANSLATE_NOOP("QueueModel", "Instruction"),
    "steps": QT_TRANSLATE_NOOP("QueueModel", "Steps"),
    "annotators": QT_TRANSLATE_NOOP("QueueModel", "Annotator"),
    "updated": QT_TRANSLATE_NOOP("QueueModel", "Last edit"),
    "state": QT_TRANSLATE_NOOP("QueueModel", "State"),
    "comment": QT_TRANSLATE_NOOP("QueueModel", "Comment"),
}
REVIEW_COLUMNS = ("id", "app", "instruction", "steps", "annotators", "updated")
WORK_COLUMNS = ("id", "app", "instruction", "state", "comment")
NUMERIC = {"id", "steps"}
WIDTHS = {"id": 58, "app": 72, "steps": 44, "annotators": 72, "updated": 84, "state": 84}
ID_ROLE = Qt.ItemDataRole.UserRole
ITEM_ROLE = Qt.ItemDataRole.UserRole + 1
REJECTED_BACKGROUND = QColor("#fde7e4")
REJECTED_TEXT = QColor("#8c1d18")
ASSIGNED_MARK = QColor("#1a73e8")  # the square before the id of work an admin assigned to this person
Parent = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Queues:
    """Both queues as one worker read them."""

    waiting: list[QueueItem]
    mine: list[QueueItem]
    person: str  # whose work `mine` is
    assigned: dict[int, str | None] = field(default_factory=dict)  # given to `person`: id -> by whom
    waiting_total: int = 0  # how many each queue holds; the lists are their first team.QUEUE_LIMIT
    mine_total: int = 0


def load_queues(workspace: Workspace, person: str) -> Queues:
    """Both queues of `person` (services.team): what an admin assigned to them first, others' assignments out."""
    waiting = team.review_queue(workspace, person or None)
    mine = team.work_queue(workspace, person) if person else team.Queue([], {})
    return Queues(waiting.items, mine.items, person, {**waiting.assigned, **mine.assigned}, waiting.total, mine.total)


def short_time(value: datetime) -> str:
    """Month, day and time in local time: a queue spans days, rarely years (the tooltip has the full date)."""
    aware = value if value.tzinfo else value.replace(tzinfo=UTC)  # stored in UTC, read back without a zone
    moment = QDateTime.fromSecsSinceEpoch(int(aware.timestamp())).toLocalTime()
    return QLocale().toString(moment, "MM-dd HH:mm")


class QueueModel(QAbstractTableModel):
    def __init__(self, columns: tuple[str, ...], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = columns
        self.items: list[QueueItem] = []
        self.assigned: dict[int, str | None] = {}  # trajectory id -> who assigned it to this person

    def set_items(self, items: list[QueueItem], assigned: dict[int, str | None] | None = None) -> None:
        self.beginResetModel()
        self.items = list(items)
        self.assigned = dict(assigned or {})
        self.endResetModel()

    def column(self, key: str) -> int:
        return self.columns.index(key)

    def item(self, row: int) -> QueueItem | None:
        return self.items[row] if 0 <= row < len(self.items) else None

    def row_of(self, trajectory_id: int) -> int | None:
        return next((n for n, item in enumerate(self.items) if item.trajectory_id == trajectory_id), None)

    # what the view asks ------------------------------------------------------------------------------------

    def rowCount(self, parent: Parent = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent: Parent = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate(CONTEXT, TITLES[self.columns[section]])
        return None

    def data(self, index: Parent, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        item = self.item(index.row()) if index.isValid() else None
        if item is None:
            return None
        key = self.columns[index.column()]
        rejected = item.review_status == ReviewStatus.REJECTED
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(item, key)
        if role == ID_ROLE:
            return item.trajectory_id
        if role == ITEM_ROLE:
            return item
        if role == Qt.ItemDataRole.ToolTipRole:
            if key == "id" and item.trajectory_id in self.assigned:
                by = self.assigned[item.trajectory_id] or "?"
                return fill(QCoreApplication.translate("QueueModel", "Assigned to you by %1"), by)
            return local_time(item.updated_at) if key == "updated" and item.updated_at else self._tooltip(item)
        if role == Qt.ItemDataRole.DecorationRole and key == "id" and item.trajectory_id in self.assigned:
            return ASSIGNED_MARK
        if role == Qt.ItemDataRole.TextAlignmentRole and key in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole and rejected:
            return QBrush(REJECTED_BACKGROUND)  # work that came back stands out at the top of the queue
        if role == Qt.ItemDataRole.ForegroundRole and rejected and key in ("state", "comment"):
            return QBrush(REJECTED_TEXT)
        if role == Qt.ItemDataRole.FontRole and rejected and key in ("state", "comment"):
            bold = QFont()
            bold.setBold(True)
            return bold
        return None

    def _display(self, item: QueueItem, key: str) -> object:
        if key == "id":
            return item.trajectory_id
        if key in ("app", "steps"):
            return getattr(item, key)
        if key == "instruction":
            return item.instruction.replace("\n", " ")
        if key == "annotators":
            return ", ".join(item.annotators)
        if key == "updated":
            return short_time(item.updated_at) if item.updated_at else ""
        if key == "state":
            return labels.label(labels.REVIEW, item.review_status)
        # the comment column: only a rejection's comment is meant for the annotator
        return (item.comment or "").replace("\n", " ") if item.review_status == ReviewStatus.REJECTED else ""

    def _tooltip(self, item: QueueItem) -> str:
        if item.review_status == ReviewStatus.REJECTED and item.comment:
            who = item.reviewer or QCoreApplication.translate("QueueModel", "a reviewer")
            template = QCoreApplication.translate("QueueModel", "Rejected by %1: %2")
            return f"{item.instruction}\n\n" + fill(template, who, item.comment)
        return item.instruction

    def retranslate(self) -> None:
        """Headers and state labels follow the language; the rows stay."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.columns) - 1)
        if self.items:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.items) - 1, len(self.columns) - 1))


class QueueTable(QTableView):
    """A queue; Enter, like a double click, chooses the current row."""

    chosen = Signal(int)  # row

    def __init__(self, model: QueueModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.queue = model
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        for column, key in enumerate(model.columns):
            if key in ("instruction", "comment"):
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)  # the columns people read
            else:
                header.resizeSection(column, WIDTHS[key])
        self.doubleClicked.connect(lambda index: self.chosen.emit(index.row()))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.chosen.emit(self.currentIndex().row())
            return
        super().keyPressEvent(event)

    def selected_row(self) -> int | None:
        rows = self.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def selected_item(self) -> QueueItem | None:
        row = self.selected_row()
        return self.queue.item(row) if row is not None else None

    def follow(self, trajectory_id: int) -> None:
        """Select the trajectory's row; where the queue has none, select nothing, not another trajectory: the
        person's attention went to this one, and a decision must not fall on one they left."""
        row = self.queue.row_of(trajectory_id)
        if row is None:
            self.clearSelection()
            return
        self.selectRow(row)
        self.scrollTo(self.queue.index(row, 0), QAbstractItemView.ScrollHint.EnsureVisible)

    def reselect(self, kept: int | None, wanted_row: int | None) -> None:
        """After new rows: the same trajectory as before; else `wanted_row` (the row that took a decided one's
        place), kept within the rows; else the first."""
        row = self.queue.row_of(kept) if kept is not None else None
        if row is None and self.queue.rowCount():
            row = min(wanted_row, self.queue.rowCount() - 1) if wanted_row is not None else 0
        if row is not None:
            self.selectRow(row)
            self.scrollTo(self.queue.index(row, 0), QAbstractItemView.ScrollHint.EnsureVisible)
