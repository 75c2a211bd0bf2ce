"""The status bar: which workspace is open, how much work it holds, and what just failed; and what keeps its
counts current."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QLocale, QObject
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

from annotator.services.changes import Changes
from annotator.storage.browse import BrowseFilter, Summary, summarize
from annotator.storage.workspace import Workspace
from annotator.ui.hub import Hub
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.identity_dialog import role_title
from annotator.ui.workers import Jobs

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
        self._read_only = False
        self._summary: Summary | None = None
        self._person = ("", "")
        self.retranslate()

    def set_person(self, name: str, role: str) -> None:
        self._person = (name, role)
        self.retranslate()

    def set_workspace(self, path: Path | None, read_only: bool = False) -> None:
        self._path, self._read_only = path, read_only
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

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.clearMessage()  # said in the language before: the next message comes in the new one
        super().changeEvent(event)

    def retranslate(self) -> None:
        shown = fill(self.tr("%1 (read-only)"), self._path) if self._read_only else str(self._path or "")
        self.workspace.setText(shown or self.tr("No workspace open"))
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


class StatusCounts(QObject):
    """Keeps the status bar's counts of the whole workspace current: recounted after every announced write that may
    move a trajectory between review states or add one (the browser, which counts too, refreshes only while it
    shows), so that they agree with the Review view; a label edit alone is not counted again (Changes.review_counts)."""

    def __init__(self, status: WindowStatus, jobs: Jobs, hub: Hub) -> None:
        super().__init__(status)
        self.status, self.jobs = status, jobs
        self.workspace: Workspace | None = None
        self._counting = False  # a count is running
        self._count_again = False  # a write arrived while it ran: its figures may be old
        hub.changed.connect(self._changed)

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.workspace = workspace
        if workspace is None:
            self.status.set_summary(None)

    def browser_counts(self, summary: Summary | None) -> None:
        """The browser's counts serve when it shows everything; filtered, the whole workspace is counted."""
        if summary is None or summary.shown == summary.total:
            self.status.set_summary(summary)
        else:
            self.recount()

    def _changed(self, changes: Changes) -> None:
        if changes.review_counts:  # not every saved keystroke: a count reads the whole workspace
            self.recount()

    def recount(self) -> None:
        workspace = self.workspace
        if workspace is None:
            return
        if self._counting:  # one count at a time; the writes meanwhile are counted by one more after it
            self._count_again = True
            return
        self._counting, self._count_again = True, False
        db = workspace.database
        self.jobs.submit(
            self.tr("Counting trajectories"),
            lambda: summarize(db, BrowseFilter()),
            on_result=lambda summary: self._counted(workspace, summary),
            on_error=lambda _error: self._counted(workspace, None),
        )

    def _counted(self, workspace: Workspace, summary: Summary | None) -> None:
        self._counting = False
        if workspace is not self.workspace:
            return  # another workspace is open now
        if summary is not None:
            self.status.set_summary(summary)
        if self._count_again:
            self.recount()
