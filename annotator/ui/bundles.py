"""Import and export of bundles from the File menu, on a worker, with progress in the status bar."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QProgressBar, QWidget

from annotator.services.changes import Changes
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.hub import Hub
from annotator.ui.i18n import fill
from annotator.ui.workers import Jobs

if TYPE_CHECKING:
    from annotator.services.bundle import ExportResult, ImportResult

QUEUE = "bundles"  # one import or export at a time


class BundleCommands(QObject):
    """The handlers of the "bundle.*" rows of the actions table."""

    progressed = Signal(int, int)  # done, total: emitted from the worker, shown on the GUI thread
    finished = Signal(str)  # what the status bar says when it is over

    def __init__(self, jobs: Jobs, parent: QWidget, *, hub: Hub | None = None) -> None:
        super().__init__(parent)
        self.jobs, self.hub, self.parent_widget = jobs, hub or Hub(self), parent
        self.workspace: Workspace | None = None
        self.bar = QProgressBar(parent)
        self.bar.setObjectName("bundle-progress")
        self.bar.setMaximumWidth(160)
        self.bar.hide()
        self.progressed.connect(self._show_progress)

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.workspace = workspace

    def export_bundle(self, out: Path | None = None) -> None:
        if self.workspace is None:
            return
        if out is None:
            chosen, _ = QFileDialog.getSaveFileName(
                self.parent_widget, self.tr("Export Bundle"), str(Path.home() / "bundle.zip"), self.tr("Zip (*.zip)")
            )
            if not chosen:
                return
            out = Path(chosen)
        workspace, person = self.workspace, identity.current_person()[0] or None
        self._start()
        self.jobs.submit(
            self.tr("Exporting a bundle"),  # without the judge results the person working may not see
            lambda: _export(workspace, out, self.progressed.emit, person),
            on_result=self._exported,
            on_error=lambda _error: self.bar.hide(),
            queue=QUEUE,
        )

    def import_bundle(self, path: Path | None = None) -> None:
        if self.workspace is None:
            return
        if path is None:
            chosen, _ = QFileDialog.getOpenFileName(
                self.parent_widget, self.tr("Import Bundle"), str(Path.home()), self.tr("Bundles (*.zip manifest.json)")
            )
            if not chosen:
                return
            path = Path(chosen).parent if Path(chosen).name == "manifest.json" else Path(chosen)
        workspace = self.workspace
        self._start()
        self.jobs.submit(
            self.tr("Importing a bundle"),
            lambda: _import(workspace, path, self.progressed.emit),
            on_result=self._imported,
            on_error=lambda _error: self.bar.hide(),
            queue=QUEUE,
        )

    def _start(self) -> None:
        self.bar.setRange(0, 0)
        self.bar.show()

    def _show_progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)

    def _exported(self, result: ExportResult) -> None:
        self.bar.hide()
        text = fill(self.tr("Exported %n trajectory(s) to %1", "", result.trajectories), result.path)
        if result.withheld:
            left_out = len(result.withheld["judge_results_of"])
            text += " " + self.tr(
                "(without the judge results of %n trajectory(s) in a study still being rated)", "", left_out
            )
        self.finished.emit(text)

    def _imported(self, result: ImportResult) -> None:
        self.bar.hide()
        text = self.tr("Imported %n trajectory(s); %1 were already here", "", result.trajectories_added)
        self.finished.emit(fill(text, result.trajectories_skipped))
        self.hub.announce(
            Changes(collected=True, judged=bool(result.judge_scores_added), studies=bool(result.studies_added))
        )


# The bundle services (readers, writers, the judging they hide) load when a bundle is first moved, not at start.


def _export(workspace: Workspace, out: Path, progress: Callable[[int, int], None], person: str | None) -> ExportResult:
    from annotator.services.bundle import export_bundle
    from annotator.services.studies import hidden_judging

    return export_bundle(workspace, out, progress=progress, hidden=hidden_judging(workspace.database, person))


def _import(workspace: Workspace, path: Path, progress: Callable[[int, int], None]) -> ImportResult:
    from annotator.services.bundle import import_bundle

    return import_bundle(workspace, path, progress=progress)
