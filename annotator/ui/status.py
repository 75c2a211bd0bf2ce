"""The status bar: which workspace is open, how much work it holds, and what just failed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

from annotator.storage.browse import Summary
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.identity_dialog import role_title

ERROR_MS = 15_000
INFO_MS = 6_000


class WindowStatus(Retranslating, QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = QLabel(self)
        self.workspace.setObjectName("status-workspace")
        self.counts = QLabel(self)
        self.counts.setObjectName("status-counts")
        self.person = QLabel(self)
        self.person.setObjectName("status-person")
        for label in (self.person, self.counts, self.workspace):
            label.setMinimumWidth(40)  # long text is cut rather than widening the window's minimum
        self.addPermanentWidget(self.person)
        self.addPermanentWidget(self.counts)
        self.addPermanentWidget(self.workspace)
        self._path: Path | None = None
        self._summary: Summary | None = None
        self._person = ("", "")
        self.retranslate()

    def set_person(self, name: str, role: str) -> None:
        self._person = (name, role)
        self.retranslate()

    def set_workspace(self, path: Path | None) -> None:
        self._path = path
        self.retranslate()

    def set_summary(self, summary: Summary | None) -> None:
        self._summary = summary
        self.retranslate()

    def show_error(self, title: str, message: str) -> None:
        """A failure in words the user can act on; the traceback is in the log."""
        self.showMessage(fill(self.tr("%1 failed: %2"), title, message), ERROR_MS)

    def show_unexpected(self, message: str) -> None:
        """An error no command expected (a bug): the user learns that something failed and where to look."""
        self.showMessage(fill(self.tr("Something went wrong: %1 (the details are in the log)"), message), ERROR_MS)

    def show_info(self, message: str) -> None:
        self.showMessage(message, INFO_MS)

    def retranslate(self) -> None:
        self.workspace.setText(str(self._path) if self._path else self.tr("No workspace open"))
        self.workspace.setToolTip(self.tr("The workspace folder: database and screenshots"))
        name, role = self._person
        self.person.setText(name or self.tr("Nobody signed in"))
        self.person.setToolTip(
            fill(self.tr("Working as %1 (%2); change it in the File menu"), name, role_title(role))
            if name
            else self.tr("Say who you are in the File menu: edits are refused until then")
        )
        summary, locale = self._summary, QLocale()
        if summary is None:
            self.counts.clear()
            return
        self.counts.setText(
            self.tr("%Ln trajectories", "", summary.total)
            + " · "
            + fill(
                self.tr("%1 unlabelled · %2 awaiting review"),
                locale.toString(summary.unlabelled),
                locale.toString(summary.awaiting_review),
            )
        )
