"""Rejecting a trajectory: the comment the annotator will read at the top of their queue.

A rejection without a comment leaves the annotator guessing, so the dialog cannot be accepted until the
comment says something. Quick-pick reasons add the usual Mobile-R1 labelling mistakes as whole sentences; the
reviewer can then name the step.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QTextCursor
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

from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill

CONTEXT = "RejectDialog"
# (button title, the sentence it adds): the mistakes reviewers send back most often.
REASONS: tuple[tuple[str, str], ...] = (
    (QT_TRANSLATE_NOOP("RejectDialog", "Think: not state → action → goal"),
     QT_TRANSLATE_NOOP("RejectDialog", "The think does not follow state -> next action -> goal.")),
    (QT_TRANSLATE_NOOP("RejectDialog", "Wrong tool call coordinates"),
     QT_TRANSLATE_NOOP("RejectDialog", "Wrong tool call coordinates: the point is not on the target element.")),
    (QT_TRANSLATE_NOOP("RejectDialog", "Task not completed"),
     QT_TRANSLATE_NOOP("RejectDialog", "The task is not completed, but the outcome says it is.")),
    (QT_TRANSLATE_NOOP("RejectDialog", "Wrong step marked correct"),
     QT_TRANSLATE_NOOP("RejectDialog", "A wrong or redundant step is marked correct.")),
    (QT_TRANSLATE_NOOP("RejectDialog", "Unclear action text"),
     QT_TRANSLATE_NOOP("RejectDialog", "The action text is not a clear low-level instruction.")),
    (QT_TRANSLATE_NOOP("RejectDialog", "Target box missing"),
     QT_TRANSLATE_NOOP("RejectDialog", "The target element box is missing or does not frame the element.")),
)  # fmt: skip


class RejectDialog(Retranslating, QDialog):
    """Asks for the rejection comment; `comment()` is the trimmed text once accepted."""

    def __init__(self, instruction: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reject-dialog")
        self.instruction = instruction
        self.prompt = QLabel(self)
        self.prompt.setWordWrap(True)
        self.comment_edit = QPlainTextEdit(self)
        self.comment_edit.setObjectName("reject-comment")
        self.comment_edit.setTabChangesFocus(True)
        self.comment_edit.textChanged.connect(self._update_ok)
        self.reasons_caption = QLabel(self)
        self.reason_buttons: list[QPushButton] = []
        grid = QGridLayout()
        for n, (_title, sentence) in enumerate(REASONS):
            button = QPushButton(self)
            button.setAutoDefault(False)  # Enter in the dialog means OK, not "add the first reason"
            button.clicked.connect(lambda _checked=False, text=sentence: self.add_reason(text))
            self.reason_buttons.append(button)
            grid.addWidget(button, n // 2, n % 2)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, parent=self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        layout.addWidget(self.prompt)
        layout.addWidget(self.comment_edit, 1)
        layout.addWidget(self.reasons_caption)
        layout.addLayout(grid)
        layout.addWidget(self.buttons)
        self.resize(560, 380)
        self.retranslate()
        self._update_ok()
        self.comment_edit.setFocus()

    @classmethod
    def ask(
        cls, instruction: str, parent: QWidget, rejected: Callable[[str], None], closed: Callable[[], None]
    ) -> RejectDialog:
        """Open it; `rejected(comment)` runs on OK, `closed()` however it ends (it deletes itself then)."""
        dialog = cls(instruction, parent)
        dialog.accepted.connect(lambda: rejected(dialog.comment()))

        def finish(_result: int) -> None:
            closed()
            dialog.deleteLater()

        dialog.finished.connect(finish)
        dialog.open()
        return dialog

    def comment(self) -> str:
        return self.comment_edit.toPlainText().strip()

    def add_reason(self, source: str) -> None:
        """Append a quick-pick sentence (in the current language) on a line of its own."""
        text = self.comment_edit.toPlainText().rstrip()
        sentence = QCoreApplication.translate(CONTEXT, source)
        self.comment_edit.setPlainText(f"{text}\n{sentence}" if text else sentence)
        self.comment_edit.moveCursor(QTextCursor.MoveOperation.End)
        self.comment_edit.setFocus()

    def accept(self) -> None:
        if not self.comment():
            self.comment_edit.setFocus()  # refused: the annotator needs to know what to fix
            return
        super().accept()

    def _update_ok(self) -> None:
        self.ok_button.setEnabled(bool(self.comment()))

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Reject Trajectory"))
        prompt = self.tr("<b>%1</b><br>Tell the annotator what to fix: they read it at the top of their queue.")
        self.prompt.setText(fill(prompt, html.escape(self.instruction)))
        self.comment_edit.setPlaceholderText(self.tr("For example: step 3 clicks the wrong tab; the think …"))
        self.reasons_caption.setText(self.tr("Common reasons (click to add):"))
        for button, (title, sentence) in zip(self.reason_buttons, REASONS, strict=True):
            button.setText(QCoreApplication.translate(CONTEXT, title))
            button.setToolTip(QCoreApplication.translate(CONTEXT, sentence))
        self.ok_button.setText(self.tr("Reject"))
