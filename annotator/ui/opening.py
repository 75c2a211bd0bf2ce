"""The questions opening a workspace may ask: a folder without one (create it, or choose another) and a folder
nobody can write (open it read-only, to browse and export).

A mistyped folder used to become a new, empty workspace without a word, and a read-only one only failed; each
now says what it found and offers what can be done. The dialogs are window-modal (open(), not exec()): the
window's other work goes on while they wait.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from annotator.storage.database import SchemaTooNewError
from annotator.ui.i18n import QT_TRANSLATE_NOOP, fill
from annotator.ui.workers import describe


class Question(QMessageBox):
    """A question with one button that goes ahead (`go`) and one that chooses another folder (`other`, or None)."""

    def __init__(self, parent: QWidget, icon: QMessageBox.Icon, title: str, text: str, detail: str) -> None:
        super().__init__(icon, title, text, parent=parent)
        self.setInformativeText(detail)
        self.go: QPushButton = self.addButton("", QMessageBox.ButtonRole.AcceptRole)
        self.other: QPushButton | None = None
        self.addButton(QMessageBox.StandardButton.Cancel)
        self.setDefaultButton(self.go)


def create_question(parent: QWidget, data_dir: Path) -> Question:
    question = Question(
        parent,
        QMessageBox.Icon.Question,
        QCoreApplication.translate("Opening", "New Workspace?"),
        fill(QCoreApplication.translate("Opening", "There is no workspace in %1."), data_dir),
        QCoreApplication.translate(
            "Opening", "Create a new, empty workspace there, or choose the folder that holds yours."
        ),
    )
    question.setObjectName("create-workspace")
    question.go.setText(QCoreApplication.translate("Opening", "Create Workspace"))
    question.other = question.addButton(
        QCoreApplication.translate("Opening", "Choose Another Folder…"), QMessageBox.ButtonRole.ActionRole
    )
    return question


def read_only_question(parent: QWidget, data_dir: Path) -> Question:
    question = Question(
        parent,
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("Opening", "Read-Only Workspace"),
        fill(
            QCoreApplication.translate(
                "Opening", "The workspace folder %1 is read-only: nothing in it can be changed here."
            ),
            data_dir,
        ),
        QCoreApplication.translate(
            "Opening", "Open it read-only to browse and export it? Labels, reviews and ratings cannot be saved then."
        ),
    )
    question.setObjectName("read-only-workspace")
    question.go.setText(QCoreApplication.translate("Opening", "Open Read-Only"))
    return question


def unmerged_question(parent: QWidget, steps: int, *, closing: bool) -> Question:
    """Closing the window, or opening another trajectory, while edits wait for a merge (someone else changed those
    steps): the text is kept (annotate.unmerged), but the person may rather merge it now."""
    title = (
        QT_TRANSLATE_NOOP("Opening", "Close Without Merging?")
        if closing
        else QT_TRANSLATE_NOOP("Opening", "Leave Without Merging?")
    )
    question = Question(
        parent,
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("Opening", title),
        fill(
            QCoreApplication.translate(
                "Opening",
                "Your edits of %1 step(s) are not saved: someone else changed those steps while you were editing them.",
            ),
            steps,
        ),
        QCoreApplication.translate(
            "Opening",
            "Your text is kept and comes back, unsaved, when you open the "
            "trajectory again. Cancel to go back and merge it now.",
        ),
    )
    question.setObjectName("close-unmerged" if closing else "leave-unmerged")
    go = QT_TRANSLATE_NOOP("Opening", "Close Anyway") if closing else QT_TRANSLATE_NOOP("Opening", "Open the Other One")
    question.go.setText(QCoreApplication.translate("Opening", go))
    question.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return question


def resume_anyway_question(parent: QWidget, reason: str) -> Question:
    """Resuming a run on a phone that shows another screen than the run's last one (restarted, or used since)."""
    question = Question(
        parent,
        QMessageBox.Icon.Question,
        QCoreApplication.translate("Opening", "Resume From This Screen?"),
        fill(
            QCoreApplication.translate("Opening", "The phone does not show the screen the run stopped on: %1"), reason
        ),
        QCoreApplication.translate(
            "Opening", "Bring the phone back to that screen and resume, or go on from the screen it shows now."
        ),
    )
    question.setObjectName("resume-anyway")
    question.go.setText(QCoreApplication.translate("Opening", "Resume From This Screen"))
    question.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return question


def cannot_open_dialog(parent: QWidget, data_dir: Path, error: BaseException) -> QMessageBox:
    """Why a workspace could not be opened: a newer version's, or the error in one line (all of it in the details)."""
    dialog = QMessageBox(
        QMessageBox.Icon.Critical, QCoreApplication.translate("Opening", "Cannot Open the Workspace"), "", parent=parent
    )
    if isinstance(error, SchemaTooNewError):
        dialog.setText(
            fill(
                QCoreApplication.translate(
                    "Opening", "The workspace in %1 was saved by a newer version of Mobile Annotator."
                ),
                data_dir,
            )
        )
        dialog.setInformativeText(
            QCoreApplication.translate("Opening", "Install the newer version to open it. Nothing in it was changed.")
        )
    else:
        dialog.setText(
            fill(QCoreApplication.translate("Opening", "The workspace in %1 could not be opened."), data_dir)
        )
        dialog.setInformativeText(describe(error))
    dialog.setDetailedText(str(error))
    return dialog
