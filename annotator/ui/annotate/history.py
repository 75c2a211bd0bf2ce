"""The history pane: every change to a trajectory's labels (who, when, old -> new), and restoring one.

The pane shows what the services' ``Editor.history`` returns (newest first) and asks for a restore with
``restore_requested``; the view runs it. A revision that wrote the value a field holds now (the newest of
its field, or one that wrote the same value) would change nothing, so it cannot be restored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, Qt, Signal
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.services.annotation import Revision
from annotator.ui import labels
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill

CONTEXT = "HistoryPane"
ID_ROLE = Qt.ItemDataRole.UserRole
SIDES_ROLE = Qt.ItemDataRole.UserRole + 1  # (old, new) short texts of the change column
ARROW = " → "
SIDE_LIMIT = 40  # characters of each side of "old → new" in the table; the tooltip has all of it
FIELDS = {
    "think": QT_TRANSLATE_NOOP("HistoryPane", "Think"),
    "action_text": QT_TRANSLATE_NOOP("HistoryPane", "Action"),
    "tool_call": QT_TRANSLATE_NOOP("HistoryPane", "Tool call"),
    "target_box": QT_TRANSLATE_NOOP("HistoryPane", "Target box"),
    "verdict": QT_TRANSLATE_NOOP("HistoryPane", "Verdict"),
    "privacy_regions": QT_TRANSLATE_NOOP("HistoryPane", "Privacy regions"),
    "outcome": QT_TRANSLATE_NOOP("HistoryPane", "Task outcome"),
    "removed": QT_TRANSLATE_NOOP("HistoryPane", "Left out"),
    "inserted": QT_TRANSLATE_NOOP("HistoryPane", "Inserted"),
}
VERDICTS = {
    "correct": QT_TRANSLATE_NOOP("HistoryPane", "correct"),
    "wrong": QT_TRANSLATE_NOOP("HistoryPane", "wrong"),
    "redundant": QT_TRANSLATE_NOOP("HistoryPane", "redundant"),
}
COLUMNS = (
    QT_TRANSLATE_NOOP("HistoryPane", "When"),
    QT_TRANSLATE_NOOP("HistoryPane", "Who"),
    QT_TRANSLATE_NOOP("HistoryPane", "Step"),
    QT_TRANSLATE_NOOP("HistoryPane", "Field"),
    QT_TRANSLATE_NOOP("HistoryPane", "Change"),
)
CHANGE_COLUMN = len(COLUMNS) - 1
WORDS = {
    "empty": QT_TRANSLATE_NOOP("HistoryPane", "(empty)"),
    "left out": QT_TRANSLATE_NOOP("HistoryPane", "left out"),
    "kept": QT_TRANSLATE_NOOP("HistoryPane", "kept"),
    "inserted": QT_TRANSLATE_NOOP("HistoryPane", "inserted"),
    "task": QT_TRANSLATE_NOOP("HistoryPane", "task"),  # the step column of a trajectory-level change
}


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def field_key(field: str) -> str:
    """Inserting a step and leaving it out change the same thing: whether the step is in the trajectory."""
    return "removed" if field == "inserted" else field


def value_text(field: str, value: Any, short: bool = False) -> str:
    """A stored value as a person reads it; on one line of at most SIDE_LIMIT characters when `short`."""
    if value is None:
        text = _tr(WORDS["empty"])
    elif field == "verdict" and value in VERDICTS:
        text = _tr(VERDICTS[value])
    elif field == "outcome":
        text = labels.label(labels.OUTCOME, value)
    elif field == "removed":
        text = _tr(WORDS["left out"] if value else WORDS["kept"])
    elif field == "inserted":
        text = _tr(WORDS["inserted"])
    elif field == "privacy_regions" and isinstance(value, list):
        text = "; ".join(value_text("target_box", box) for box in value)  # [x1, y1, x2, y2]; [...]
    elif field == "tool_call" and isinstance(value, dict):
        arguments = value.get("arguments")  # the informative part, when the table is short of room
        text = _json(arguments if short and isinstance(arguments, dict) else value)
    elif isinstance(value, (list, tuple)):
        text = "[" + ", ".join(_number(v) for v in value) + "]"
    elif isinstance(value, str):
        text = value
    else:
        text = _json(value)
    return _short(text) if short else text


def short_sides(revision: Revision) -> tuple[str, str]:
    """Both sides of a change for the table; of two tool calls only the arguments that differ."""
    old, new = revision.old, revision.new
    if revision.field == "tool_call" and isinstance(old, dict) and isinstance(new, dict):
        before, after = old.get("arguments"), new.get("arguments")
        if isinstance(before, dict) and isinstance(after, dict) and old.get("name") == new.get("name"):
            keys = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
            if len(keys) == 1:  # e.g. only the coordinate moved: [540,1200] → [300,640]
                key = keys.pop()
                return _short(_json(before.get(key))), _short(_json(after.get(key)))
            if keys:
                old = {"arguments": {k: v for k, v in before.items() if k in keys}}
                new = {"arguments": {k: v for k, v in after.items() if k in keys}}
    return value_text(revision.field, old, short=True), value_text(revision.field, new, short=True)


def _short(text: str) -> str:
    text = " ".join(text.split())  # one line in the table
    return text if len(text) <= SIDE_LIMIT else text[: SIDE_LIMIT - 1] + "…"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def local_time(moment: datetime, now: QDateTime | None = None) -> tuple[str, str]:
    """(short, long) local time of a stored UTC moment: the time alone today, the date too on other days."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite hands UTC back without a zone
    local = QDateTime.fromMSecsSinceEpoch(round(aware.timestamp() * 1000)).toLocalTime()
    now = now or QDateTime.currentDateTime()
    if local.date() == now.date():
        short = local.toString("HH:mm")
    elif local.date().year() == now.date().year():
        short = local.toString("MM-dd HH:mm")
    else:
        short = local.toString("yyyy-MM-dd HH:mm")
    return short, QLocale().toString(local, QLocale.FormatType.LongFormat)


def current_values(revisions: Sequence[Revision]) -> dict[tuple[int | None, str], Any]:
    """What each (step, field) holds now: the value its newest revision wrote (revisions come newest first)."""
    current: dict[tuple[int | None, str], Any] = {}
    for revision in revisions:
        key = (revision.step_id, field_key(revision.field))
        if key not in current:
            current[key] = False if revision.field == "inserted" else revision.new
    return current


def restorable(revision: Revision, current: dict[tuple[int | None, str], Any]) -> bool:
    wrote = False if revision.field == "inserted" else revision.new
    return current.get((revision.step_id, field_key(revision.field)), object()) != wrote


class ChangeDelegate(QStyledItemDelegate):
    """Paints "old → new" so that both sides stay in sight: each is elided into its share of the width."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Any) -> None:
        sides = index.data(SIDES_ROLE)
        if not sides:
            super().paint(painter, option, index)
            return
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        item.text = ""
        style = item.widget.style() if item.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, item.widget)
        old, new = sides
        metrics = item.fontMetrics
        room = item.rect.adjusted(4, 0, -4, 0)
        arrow = metrics.horizontalAdvance(ARROW)
        old_width, new_width = metrics.horizontalAdvance(old), metrics.horizontalAdvance(new)
        share = (room.width() - arrow) // 2  # whole pixels, as the widths it is compared with
        if old_width + new_width > room.width() - arrow:  # the shorter side keeps all it needs
            old_width = min(old_width, max(share, room.width() - arrow - new_width))
            new_width = room.width() - arrow - old_width
        selected = bool(item.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.save()
        painter.setPen(item.palette.color(role))
        flags = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        x = room.left()
        for text, width in ((old, old_width), (ARROW, arrow), (new, new_width)):
            shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(int(width), 0) + 2)  # +2: rounding
            painter.drawText(x, room.top(), int(width) + 2, room.height(), int(flags), shown)
            x += int(width)
        painter.restore()


class HistoryPane(Retranslating, QWidget):
    restore_requested = Signal(int)  # revision id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("history-pane")
        self._revisions: list[Revision] = []
        self._restorable: set[int] = set()
        self.title = QLabel(self)
        self.title.setObjectName("history-title")
        self.title.setStyleSheet("font-weight: bold;")
        self.restore_button = QPushButton(self)
        self.restore_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays on the canvas or editor
        self.restore_button.clicked.connect(self._restore_selected)
        self.table = QTreeWidget(self)
        self.table.setObjectName("history-table")
        self.table.setColumnCount(len(COLUMNS))
        self.table.setRootIsDecorated(False)
        self.table.setUniformRowHeights(True)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setItemDelegateForColumn(CHANGE_COLUMN, ChangeDelegate(self.table))
        header = self.table.header()
        header.setStretchLastSection(True)
        for column in range(CHANGE_COLUMN):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.restore_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        self.retranslate()

    def set_revisions(self, revisions: Sequence[Revision]) -> None:
        """Newest first, as the services return them; the selected revision stays selected if it is still there."""
        selected = self.selected_revision()
        self._revisions = list(revisions)
        current = current_values(self._revisions)
        self._restorable = {r.id for r in self._revisions if restorable(r, current)}
        self.table.clear()
        self.table.addTopLevelItems([self._item(revision) for revision in self._revisions])
        if selected is not None:
            for row in range(self.table.topLevelItemCount()):
                item = self.table.topLevelItem(row)
                if item is not None and item.data(0, ID_ROLE) == selected:
                    self.table.setCurrentItem(item)
        self._show_count()
        self._selection_changed()

    def revisions(self) -> list[Revision]:
        return list(self._revisions)

    def selected_revision(self) -> int | None:
        item = self.table.currentItem()
        return item.data(0, ID_ROLE) if item is not None and item.isSelected() else None

    def _item(self, revision: Revision) -> QTreeWidgetItem:
        short_time, long_time = local_time(revision.at)
        who = revision.person or "—"
        step = str(revision.step_position) if revision.step_position is not None else _tr(WORDS["task"])
        field = _tr(FIELDS[revision.field]) if revision.field in FIELDS else revision.field
        old, new = short_sides(revision)
        change = new if revision.field == "inserted" else old + ARROW + new
        item = QTreeWidgetItem([short_time, who, step, field, change])
        item.setData(0, ID_ROLE, revision.id)
        if revision.field != "inserted":
            item.setData(CHANGE_COLUMN, SIDES_ROLE, (old, new))
        detail = fill(
            QCoreApplication.translate("HistoryPane", "%1 changed %2 on %3\n\nBefore:\n%4\n\nAfter:\n%5"),
            who,
            field,
            long_time,
            value_text(revision.field, revision.old),
            value_text(revision.field, revision.new),
        )
        for column in range(len(COLUMNS)):
            item.setToolTip(column, detail)
        item.setToolTip(0, long_time)
        return item

    def _selection_changed(self) -> None:
        selected = self.selected_revision()
        can = selected is not None and selected in self._restorable
        self.restore_button.setEnabled(can)
        if selected is None:
            tip = self.tr("Select a change to give its field the value it wrote")
        elif can:
            tip = self.tr("Give the field the value this change wrote (Ctrl+Z takes it back)")
        else:
            tip = self.tr("The field holds this value now")
        self.restore_button.setToolTip(tip)

    def _restore_selected(self) -> None:
        selected = self.selected_revision()
        if selected is not None and selected in self._restorable:
            self.restore_requested.emit(selected)

    def _show_count(self) -> None:
        count = len(self._revisions)
        self.title.setText(self.tr("History: %n change(s)", "", count) if count else self.tr("History: no changes yet"))

    def retranslate(self) -> None:
        self.table.setHeaderLabels([_tr(title) for title in COLUMNS])
        self.restore_button.setText(self.tr("Restore This Value"))
        self._show_count()
        if self._revisions:
            self.set_revisions(self._revisions)  # field names and values in the new language
        else:
            self._selection_changed()
