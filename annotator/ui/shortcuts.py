"""The shortcut sheet (F1): every command of this window with its shortcut, and a place to change it."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QKeySequenceEdit,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.ui.actions import MENUS, ActionRegistry, plain, scope_title, translate
from annotator.ui.i18n import Retranslating, fill


class ShortcutSheet(Retranslating, QDialog):
    """A table of commands; select one and press keys in the editor below to change its shortcut."""

    def __init__(self, registry: ActionRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.registry = registry
        self.table = QTableWidget(0, 5, self)
        self.table.setObjectName("shortcut-table")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.editor_label = QLabel(self)
        self.editor = QKeySequenceEdit(self)
        self.editor.setMaximumSequenceLength(1)
        self.editor.setClearButtonEnabled(True)
        self.editor.editingFinished.connect(self._apply)
        self.editor_label.setBuddy(self.editor)
        self.reset_button = QPushButton(self)
        self.reset_button.clicked.connect(self._reset)
        self.message = QLabel(self)
        self.message.setObjectName("shortcut-message")
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        edit_row = QHBoxLayout()
        for widget in (self.editor_label, self.editor, self.reset_button):
            edit_row.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addLayout(edit_row)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.resize(self._room(parent))
        self.retranslate()

    @staticmethod
    def _room(parent: QWidget | None) -> QSize:
        """Most of the window, so that the whole list of commands is seen with little scrolling."""
        if parent is None:
            return QSize(900, 640)
        window = parent.window().size()
        return QSize(max(760, int(window.width() * 0.8)), max(420, int(window.height() * 0.85)))

    def selected_id(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        item = self.table.item(rows[0].row(), 0) if rows else None
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def refresh(self) -> None:
        """Fill the table from the registry; keeps the selected command selected."""
        selected = self.selected_id()
        specs = self.registry.bound()
        self.table.setRowCount(len(specs))
        for row, spec in enumerate(specs):
            native = QKeySequence.SequenceFormat.NativeText
            shortcut = ", ".join(key.toString(native) for key in self.registry.actions[spec.id].shortcuts())
            texts = (
                plain(translate(spec.title, spec.context)),
                shortcut,
                scope_title(spec),
                plain(translate(MENUS[spec.menu])),
                translate(spec.tooltip, spec.context),
            )
            for column, text in enumerate(texts):
                item = QTableWidgetItem(text)
                item.setToolTip(text)  # a narrow column elides; the tooltip has all of it
                item.setData(Qt.ItemDataRole.UserRole, spec.id)
                self.table.setItem(row, column, item)
            if spec.id == selected:
                self.table.selectRow(row)
        self.table.resizeColumnsToContents()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        headers = [self.tr("Command"), self.tr("Shortcut"), self.tr("Where it acts"), self.tr("Menu")]
        self.table.setHorizontalHeaderLabels([*headers, self.tr("What it does")])
        self.editor_label.setText(self.tr("&Shortcut for the selected command:"))
        self.reset_button.setText(self.tr("Reset to &Default"))
        self.refresh()

    def _selection_changed(self) -> None:
        action_id = self.selected_id()
        self.editor.blockSignals(True)
        self.editor.setKeySequence(self.registry.actions[action_id].shortcut() if action_id else QKeySequence())
        self.editor.blockSignals(False)
        self.message.clear()

    def _apply(self) -> None:
        action_id = self.selected_id()
        if action_id is None:
            return
        sequence = self.editor.keySequence().toString(QKeySequence.SequenceFormat.PortableText)
        taken = self.registry.conflicts(sequence, except_id=action_id)
        if taken:
            owner = plain(translate(self.registry.specs[taken[0]].title, self.registry.specs[taken[0]].context))
            pressed = self.editor.keySequence().toString(QKeySequence.SequenceFormat.NativeText)
            self.message.setText(
                fill(self.tr("%1 is already the shortcut of “%2”; choose another one."), pressed, owner)
            )
            self._selection_changed_keep_message()
            return
        self.registry.set_shortcut(action_id, sequence)
        self.message.setText(self.tr("Saved. The new shortcut works now and in later sessions."))
        self.refresh()

    def _reset(self) -> None:
        action_id = self.selected_id()
        if action_id is not None:
            self.registry.reset_shortcut(action_id)
            self.refresh()
            self._selection_changed()

    def _selection_changed_keep_message(self) -> None:
        text = self.message.text()
        self._selection_changed()
        self.message.setText(text)
