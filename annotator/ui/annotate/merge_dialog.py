"""Merging a save refused as stale: someone else changed the step (or the outcome) after this person read it.

The dialog shows, per field, theirs (with who and when) and mine, and an edit box filled with mine. Take Theirs
drops mine and shows theirs; Keep Mine saves mine on top of theirs (their version becomes the base); Save Edited
saves what the edit boxes hold the same way. Cancel saves nothing and loses nothing: the edit stays in the editor,
marked unsaved, and is offered again with the next change. ``StaleMerges`` shows one dialog at a time, without
blocking (``open``), so that autosave and the tests keep running while it is up.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from annotator.services.annotation import StaleLabelError
from annotator.ui.annotate.history import FIELDS, local_time
from annotator.ui.i18n import Retranslating, fill

if TYPE_CHECKING:
    from annotator.ui.annotate.view import AnnotationView


def field_name(field: str) -> str:
    """A label field's name as the history pane shows it (one table of names for both)."""
    return QCoreApplication.translate("HistoryPane", FIELDS[field]) if field in FIELDS else field


PLAIN_TEXT = ("think", "action_text", "verdict", "outcome")  # edited as they are; the others as JSON


def as_text(field: str, value: Any) -> str:
    if value is None:
        return ""
    return value if field in PLAIN_TEXT and isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def from_text(field: str, text: str) -> Any:
    """The value an edit box holds; ValueError when a JSON field does not hold JSON."""
    if not text.strip():
        return None
    if field in PLAIN_TEXT:
        return text if field in ("think", "action_text") else text.strip()
    return json.loads(text)


class MergeDialog(Retranslating, QDialog):
    """Theirs and mine side by side; `chosen` says what the person took: "theirs" (values None), "mine" or
    "edited" (the values to save on top of theirs)."""

    chosen = Signal(str, object)

    def __init__(self, stale: StaleLabelError, position: int | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("merge-dialog")
        self.setModal(True)
        self.stale, self.position = stale, position
        self.prompt = QLabel(self)
        self.prompt.setWordWrap(True)
        self.headings = [QLabel(self) for _ in range(3)]
        self.names: dict[str, QLabel] = {}
        self.edits: dict[str, QPlainTextEdit] = {}
        self.shown: list[QPlainTextEdit] = []  # theirs and mine, read-only
        grid = QGridLayout()
        for column, heading in enumerate(self.headings, start=1):
            grid.addWidget(heading, 0, column)
        for row, field in enumerate(stale.mine, start=1):
            self.names[field] = QLabel(self)
            grid.addWidget(self.names[field], row, 0)
            for column, value in enumerate((stale.theirs.get(field), stale.mine[field]), start=1):
                self.shown.append(self._box(field, value, read_only=True))
                grid.addWidget(self.shown[-1], row, column)
            self.edits[field] = self._box(field, stale.mine[field], read_only=False)
            grid.addWidget(self.edits[field], row, 3)
        self.problem = QLabel(self)
        self.problem.setStyleSheet("color: #8c1d18;")
        self.problem.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, parent=self)
        self.take_theirs = self._button("take-theirs", self._take_theirs)
        self.keep_mine = self._button("keep-mine", self._keep_mine)
        self.save_edited = self._button("save-edited", self._save_edited)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.prompt)
        layout.addLayout(grid, 1)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.resize(820, 160 + 110 * len(stale.mine))
        self.retranslate()

    def _box(self, field: str, value: Any, *, read_only: bool) -> QPlainTextEdit:
        box = QPlainTextEdit(as_text(field, value), self)
        box.setReadOnly(read_only)
        box.setTabChangesFocus(True)
        return box

    def _button(self, name: str, then: Any) -> QPushButton:
        button = QPushButton(self)
        button.setObjectName(name)
        button.setAutoDefault(False)
        button.clicked.connect(then)
        self.buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)  # closes the dialog itself
        return button

    def edited_values(self) -> dict[str, Any]:
        """What the edit boxes hold; ValueError naming the field whose JSON does not read."""
        values = {}
        for field, box in self.edits.items():
            try:
                values[field] = from_text(field, box.toPlainText())
            except ValueError as error:
                name = field_name(field)
                raise ValueError(fill(self.tr("%1: not valid JSON (%2)"), name, error)) from error
        return values

    def _take_theirs(self) -> None:
        self.chosen.emit("theirs", None)
        self.accept()

    def _keep_mine(self) -> None:
        self.chosen.emit("mine", dict(self.stale.mine))
        self.accept()

    def _save_edited(self) -> None:
        try:
            values = self.edited_values()
        except ValueError as error:
            self.problem.setText(str(error))
            self.problem.show()
            return
        self.chosen.emit("edited", values)
        self.accept()

    def retranslate(self) -> None:
        stale = self.stale
        self.setWindowTitle(self.tr("Someone Else Changed This"))
        who = stale.changed_by or self.tr("someone")
        when = local_time(stale.changed_at)[0] if stale.changed_at else ""  # the time alone today
        what = fill(self.tr("Step %1"), self.position) if stale.step_id is not None else self.tr("The outcome")
        prompt = self.tr(
            "%1 was changed by %2 at %3 while you were editing it. Your change is not saved yet: "
            "take theirs, keep yours on top of theirs, or edit and save."
        )
        self.prompt.setText(fill(prompt, what, who, when))
        theirs = fill(self.tr("Theirs (%1, %2)"), who, when)
        titles = (theirs, self.tr("Mine"), self.tr("Edit (saved with Save Edited)"))
        for heading, title in zip(self.headings, titles, strict=True):
            heading.setText(title)
        for field, label in self.names.items():
            label.setText(field_name(field))
        for box in self.shown:
            box.setPlaceholderText(self.tr("(empty)"))
        self.take_theirs.setText(self.tr("Take Theirs"))
        self.keep_mine.setText(self.tr("Keep Mine"))
        self.save_edited.setText(self.tr("Save Edited"))


class StaleMerges(QObject):
    """The annotation view's refused saves, merged one dialog at a time."""

    def __init__(self, view: AnnotationView) -> None:
        super().__init__(view)
        self.view = view
        self.waiting: list[StaleLabelError] = []
        self.dialog: MergeDialog | None = None

    def refused(self, stale: StaleLabelError) -> None:
        self.waiting.append(stale)
        if self.dialog is None:
            self._next()

    def _next(self) -> None:
        if not self.waiting:
            return
        stale = self.waiting.pop(0)
        step = self.view.steps.get(stale.step_id) if stale.step_id is not None else None
        dialog = MergeDialog(stale, step.position if step else None, self.view)
        dialog.chosen.connect(lambda choice, values: self._chosen(stale, choice, values))
        dialog.rejected.connect(lambda: self._cancelled(stale))
        dialog.finished.connect(lambda _result: self._closed(dialog))
        self.dialog = dialog
        dialog.open()

    def _chosen(self, stale: StaleLabelError, choice: str, values: dict[str, Any] | None) -> None:
        self.view.saver.resolve(stale, values)
        self.view.panel.show_unsaved(False)
        done = {
            "theirs": self.tr("Took their version."),
            "mine": self.tr("Saved yours on top of theirs."),
            "edited": self.tr("Saved the edited version on top of theirs."),
        }
        self.view.status_message.emit(done[choice])

    def _cancelled(self, stale: StaleLabelError) -> None:
        self.view.panel.show_unsaved(stale.step_id is not None)
        self.view.status_message.emit(
            self.tr(
                "Not saved: someone else changed this meanwhile. Your text stays in the editor, unsaved; your next "
                "change offers the merge again."
            )
        )

    def _closed(self, dialog: MergeDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()
        self._next()
