"""The main window: navigation between views, menus from the actions table, the workspace, the status bar.

It holds no view logic. A view is a row of ``view_table.VIEW_ROWS``, made when first shown or read; the window
gives it the open workspace (``set_workspace(workspace | None)`` if it has one), binds the actions table's rows
aimed at it, adds a "go to" entry with Ctrl+<position>, shows its ``status_message`` signal in the status bar and
calls its ``save_state()`` on close. Trajectories chosen in the browser or the review queue open in the
annotation view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QCoreApplication, QSize, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QFileDialog,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QToolBar,
    QWidget,
)

from annotator import __version__
from annotator.storage.workspace import ReadOnlyFolderError, Workspace, is_new
from annotator.ui import identity
from annotator.ui import settings as keys
from annotator.ui.actions import WINDOW, ActionRegistry, ActionSpec
from annotator.ui.bundles import BundleCommands
from annotator.ui.hub import Hub
from annotator.ui.i18n import LANGUAGES, QT_TRANSLATE_NOOP, LanguageSwitcher, Retranslating, fill
from annotator.ui.identity_dialog import IdentityDialog
from annotator.ui.opening import Question, cannot_open_dialog, create_question, read_only_question, unmerged_question
from annotator.ui.shortcuts import ShortcutSheet
from annotator.ui.status import StatusCounts, WindowStatus
from annotator.ui.view_page import view_page
from annotator.ui.view_table import HOME, VIEW_ROWS, ViewAttribute, ViewRow
from annotator.ui.workers import Jobs

if TYPE_CHECKING:
    from annotator.ui.annotate import AnnotationView
    from annotator.ui.browser import BrowserView
    from annotator.ui.collect import CollectView
    from annotator.ui.judge import JudgeView
    from annotator.ui.models import ModelsView
    from annotator.ui.review import ReviewView
    from annotator.ui.runs import RunsView
    from annotator.ui.stats import StatsView
    from annotator.ui.studies import StudiesView

log = logging.getLogger(__name__)
VIEWS = "Views"  # translation context of view titles
# The smallest window that keeps the Annotate view whole: its filmstrip, the step panel and a canvas of about
# 200 px square (smaller windows scrolled the filmstrip out of sight); it fits a 1024 x 768 screen with room to spare.
MINIMUM_SIZE = QSize(760, 560)


class MainWindow(Retranslating, QMainWindow):
    workspace_opened = Signal(object)  # Workspace
    workspace_failed = Signal(str)  # what the user was told
    trajectory_requested = Signal(int)
    # The views (annotator.ui.view_table), each made when first shown or read here.
    collect: ViewAttribute[CollectView] = ViewAttribute()
    browser: ViewAttribute[BrowserView] = ViewAttribute()
    annotate: ViewAttribute[AnnotationView] = ViewAttribute()
    review: ViewAttribute[ReviewView] = ViewAttribute()
    stats: ViewAttribute[StatsView] = ViewAttribute()
    judge: ViewAttribute[JudgeView] = ViewAttribute()
    studies: ViewAttribute[StudiesView] = ViewAttribute()
    models: ViewAttribute[ModelsView] = ViewAttribute()
    runs: ViewAttribute[RunsView] = ViewAttribute()

    def __init__(self, languages: LanguageSwitcher | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("main-window")
        self.setMinimumSize(MINIMUM_SIZE)
        self.languages = languages
        self.workspace: Workspace | None = None
        self.rows: dict[str, ViewRow] = {}  # every view of the window, in navigation order
        self.views: dict[str, QWidget] = {}  # the views made so far
        self.error_dialog: QMessageBox | None = None
        self.question: Question | None = None  # the last question opening a workspace asked
        self.closing_anyway = False  # the person chose to close although edits wait for a merge
        self.shortcut_sheet: ShortcutSheet | None = None
        self.jobs = Jobs(self)
        self.status = WindowStatus(self)
        self.setStatusBar(self.status)
        self.jobs.failed.connect(self.status.show_error)
        self.nav = QListWidget(self)
        self.nav.setObjectName("navigation")
        self.nav.setFixedWidth(130)
        self.nav.setIconSize(QSize(0, 0))
        self.nav.currentRowChanged.connect(self._view_changed)
        self.stack = QStackedWidget(self)
        central = QWidget(self)
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.nav)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.toolbar = QToolBar(self)
        self.toolbar.setObjectName("main-toolbar")
        self.toolbar.setMovable(False)
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.addToolBar(self.toolbar)
        self.menu_actions = ActionRegistry(self)
        self.menu_actions.build_menus(self.menuBar(), self.toolbar)
        self.menu_actions.bind(WINDOW, self)
        self.hub = Hub(self)  # the views announce what they wrote and listen for what others wrote
        self.counts = StatusCounts(self.status, self.jobs, self.hub)
        self.bundles = BundleCommands(self.jobs, self, hub=self.hub)
        self.menu_actions.bind("bundles", self.bundles)
        self.bundles.finished.connect(self.status.show_info)
        self.status.addPermanentWidget(self.bundles.bar)
        self.language_menu = self.menu_actions.menus["view"].addMenu("")
        self.language_actions = self._language_actions()
        self._add_views()
        self._restore_window()
        self._show_person()
        self.retranslate()

    # views ---------------------------------------------------------------------------------------------------

    def _add_views(self) -> None:
        """The views in the order of the work: collect, find, annotate, review, count, check the judge (Ctrl+1 …);
        each is made when first shown, the trajectory list at once."""
        for row in VIEW_ROWS:
            self._add_view(row)
        self.view(HOME)

    def _add_view(self, row: ViewRow) -> None:
        """A navigation entry, a page that will hold the view, its commands (greyed until it is made) and Ctrl+<n>."""
        self.rows[row.view_id] = row
        self.stack.addWidget(QWidget(self.stack))
        item = QListWidgetItem(QCoreApplication.translate(VIEWS, row.title))
        item.setData(Qt.ItemDataRole.UserRole, row.view_id)
        item.setSizeHint(QSize(0, 40))
        self.nav.addItem(item)
        self.menu_actions.promise(row.view_id)
        position = len(self.rows)
        go = ActionSpec(
            f"view.{row.view_id}",
            row.title,
            "go",
            "show_view",
            target=f"nav.{row.view_id}",
            args=(row.view_id,),
            context=VIEWS,
            tooltip=QT_TRANSLATE_NOOP("Views", "Switch to this view"),
            shortcut=f"Ctrl+{position}" if position < 10 else "",
        )
        self.menu_actions.add(go)
        self.menu_actions.bind(go.target, self)

    def view(self, view_id: str) -> QWidget:
        """The view `view_id`, made (and given the workspace, its commands and the status bar) if it was not yet."""
        if (made := self.views.get(view_id)) is not None:
            return made
        row = self.rows[view_id]
        widget = self.views[view_id] = row.make(self)
        index = list(self.rows).index(view_id)
        placeholder = self.stack.widget(index)
        self.stack.insertWidget(index, view_page(widget, self.stack))  # a window smaller than the view scrolls
        if placeholder is not None:
            self.stack.removeWidget(placeholder)
            placeholder.deleteLater()
        self.menu_actions.bind(view_id, widget)
        message = getattr(widget, "status_message", None)
        if message is not None:
            message.connect(self.status.show_info)
        if self.workspace is not None and hasattr(widget, "set_workspace"):
            widget.set_workspace(self.workspace)
        row.connect(self, widget)
        return widget

    def _view_changed(self, row: int) -> None:
        if 0 <= row < len(self.rows):
            view_id = list(self.rows)[row]
            self.view(view_id)
            self.stack.setCurrentIndex(row)
            self.menu_actions.show_scope(view_id)

    def find_trajectories(self) -> None:
        """Find (Ctrl+F) from any view: the trajectory list, with its search box ready."""
        self.show_view("browser")
        self.browser.focus_search()

    def show_view(self, view_id: str) -> None:
        self.nav.setCurrentRow(list(self.rows).index(view_id))
        self.view(view_id).setFocus(Qt.FocusReason.ShortcutFocusReason)

    def current_view(self) -> str:
        return list(self.rows)[self.nav.currentRow()]

    def open_trajectory(self, trajectory_id: int) -> None:
        """Show a trajectory chosen anywhere (browser, review queue) in the annotation view."""
        self.trajectory_requested.emit(trajectory_id)
        self.show_view("annotate")
        self.hub.open(trajectory_id)  # after the view shows its last one: what Review follows is this one
        self.annotate.open_trajectory(trajectory_id)

    def open_evaluation(self, evaluation_id: int) -> None:
        """An evaluation made from the Runs view, shown (chosen) in the Models view."""
        from annotator.ui.runs import choose_in_models

        self.show_view("models")
        choose_in_models(self.models, evaluation_id)

    # the workspace -------------------------------------------------------------------------------------------

    def open_workspace(
        self, data_dir: Path, db_url: str | None = None, *, create: bool = False, read_only: bool = False
    ) -> None:
        """Open (and migrate) a workspace on a worker; the views get it when it is ready. A folder without one is
        asked about first unless `create`; `read_only` opens a folder nobody can write, for reading."""
        self._close_workspace()
        if not (create or read_only) and is_new(data_dir, db_url):
            self._ask(create_question(self, data_dir), lambda: self.open_workspace(data_dir, db_url, create=True))
            return
        self.status.show_info(fill(self.tr("Opening %1…"), data_dir))
        self.jobs.submit(
            self.tr("Opening the workspace"),
            lambda: Workspace.open(data_dir, db_url, writes=not read_only),
            on_result=self._workspace_opened,
            on_error=lambda error: self._workspace_failed(data_dir, db_url, error),
        )

    def _close_anyway(self) -> None:
        self.closing_anyway = True
        self.close()

    def _ask(self, question: Question, go: Callable[[], None]) -> None:
        """Show `question`; its go button runs `go`, its other button chooses another folder, Cancel does nothing."""
        self.question = question
        question.buttonClicked.connect(lambda button: self._answered(question, button, go))
        question.open()

    def _answered(self, question: Question, button: QAbstractButton, go: Callable[[], None]) -> None:
        if button is question.go:
            go()
        elif button is question.other:
            self.choose_workspace()

    def choose_workspace(self) -> None:
        start = str(self.workspace.data_dir) if self.workspace else str(Path.home())
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Open Workspace Folder"), start)
        if chosen:
            self.open_workspace(Path(chosen))

    def _workspace_opened(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.status.set_workspace(workspace.data_dir, workspace.read_only)
        self.status.clearMessage()  # "Opening …" is over
        if workspace.read_only:
            self.status.show_info(self.tr("Opened read-only: browse and export; nothing can be changed."))
        elif workspace.created:
            self.status.show_info(fill(self.tr("Created a new workspace in %1."), workspace.data_dir))
        if workspace.database.schema.backup is not None:
            upgraded = self.tr("The database was upgraded; a backup of the old one is in %1.")
            self.status.show_info(fill(upgraded, workspace.database.schema.backup))
        self._vouch_for_person(workspace)
        self.bundles.set_workspace(workspace)
        self.counts.set_workspace(workspace)
        for widget in self.views.values():
            if hasattr(widget, "set_workspace"):
                widget.set_workspace(workspace)
        self.retranslate()
        self.workspace_opened.emit(workspace)

    def _vouch_for_person(self, workspace: Workspace) -> None:
        """On a team database the login says who works here: that person, whatever the settings keep."""
        if (nobodys := identity.vouch_for(workspace.database)) is not None:
            text = self.tr("The login %1 is nobody's on this workspace's list of people: ask an administrator.")
            self.status.show_info(fill(text, nobodys))
        self.status.set_person(*identity.current_person())

    def _workspace_failed(self, data_dir: Path, db_url: str | None, error: BaseException) -> None:
        if isinstance(error, ReadOnlyFolderError):
            question = read_only_question(self, data_dir)
            self._ask(question, lambda: self.open_workspace(data_dir, db_url, read_only=True))
            self.workspace_failed.emit(f"{question.text()} {question.informativeText()}")
            return
        dialog = self.error_dialog = cannot_open_dialog(self, data_dir, error)
        dialog.open()
        self.workspace_failed.emit(f"{dialog.text()} {dialog.informativeText()}")

    def _close_workspace(self) -> None:
        if self.workspace is None:
            return
        self.bundles.set_workspace(None)
        for widget in self.views.values():
            if hasattr(widget, "set_workspace"):
                widget.set_workspace(None)
        self.jobs.wait(10_000)  # queries still running on the old database finish before it closes
        self.workspace.close()
        self.workspace = None
        identity.vouch(None)
        self.status.set_workspace(None)
        self.counts.set_workspace(None)

    # the person ----------------------------------------------------------------------------------------------

    def change_person(self) -> None:
        dialog = IdentityDialog(self)
        dialog.accepted.connect(self._show_person)
        dialog.open()

    def _show_person(self) -> None:
        name, role = identity.current_person()
        self.status.set_person(name, role)
        if self.workspace is not None:
            if "review" in self.views:
                self.review.reload()  # "My work" is the new person's
            if self.current_view() == "studies":
                self.studies.reload()  # a rater rates, anyone else reads the report
            for view in (self.browser, self.judge if "judge" in self.views else None):
                if view is not None and view.isVisible():
                    view.person_changed()  # the judge scores this person may see differ

    # help ----------------------------------------------------------------------------------------------------

    def show_shortcuts(self) -> None:
        if self.shortcut_sheet is None:
            self.shortcut_sheet = ShortcutSheet(self.menu_actions, self)
        self.shortcut_sheet.refresh()
        self.shortcut_sheet.open()

    def show_about(self) -> None:
        text = self.tr(
            "<h3>Mobile Annotator %1</h3><p>Collect, annotate and review Android GUI-agent trajectories, "
            "and export them for training, in the way of the Mobile-R1 paper.</p>"
        )
        QMessageBox.about(self, self.tr("About Mobile Annotator"), fill(text, __version__))

    # language ------------------------------------------------------------------------------------------------

    def _language_actions(self) -> dict[str, QAction]:
        group = QActionGroup(self)
        found: dict[str, QAction] = {}
        chosen = keys.text(keys.LANGUAGE)
        for code, name in {"": "", **LANGUAGES}.items():
            action = self.language_menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(code == chosen)
            action.setObjectName(f"language.{code or 'system'}")
            action.triggered.connect(lambda _checked=False, language=code: self.set_language(language))
            group.addAction(action)
            found[code] = action
        return found

    def set_language(self, language: str) -> None:
        """Switch now (every widget retranslates) and remember the choice; "" follows the system."""
        stored = keys.settings()
        stored.setValue(keys.LANGUAGE, language)
        stored.sync()
        self.language_actions[language if language in LANGUAGES else ""].setChecked(True)
        if self.languages is not None:
            self.languages.install(language)

    def retranslate(self) -> None:
        self.setWindowTitle(self._folder_title())
        self.menu_actions.retranslate()
        self.language_menu.setTitle(self.tr("&Language"))
        self.language_actions[""].setText(self.tr("System Language"))
        for row in range(self.nav.count()):
            item = self.nav.item(row)
            item.setText(QCoreApplication.translate(VIEWS, self.rows[item.data(Qt.ItemDataRole.UserRole)].title))
        self.toolbar.setWindowTitle(self.tr("Toolbar"))

    def _folder_title(self) -> str:
        """The open folder: Qt adds the application's name to the title itself ("folder — Mobile Annotator")."""
        workspace = self.workspace
        if workspace is None:
            return ""
        if workspace.read_only:
            return fill(self.tr("%1 (read-only)"), workspace.data_dir)
        return str(workspace.data_dir)

    # window state --------------------------------------------------------------------------------------------

    def _restore_window(self) -> None:
        stored = keys.settings()
        geometry, state = stored.value(keys.GEOMETRY), stored.value(keys.STATE)
        if not (isinstance(geometry, QByteArray) and self.restoreGeometry(geometry)):
            self.resize(1280, 800)
        if isinstance(state, QByteArray):
            self.restoreState(state)
        view = stored.value(keys.CURRENT_VIEW)
        self.show_view(view if isinstance(view, str) and view in self.rows else HOME)

    def closeEvent(self, event: QCloseEvent) -> None:
        unmerged = self.annotate.saver.unmerged_steps() if "annotate" in self.views else 0
        if unmerged and not self.closing_anyway:  # asked first: closing would lose them
            event.ignore()
            self.show_view("annotate")
            self._ask(unmerged_question(self, unmerged, closing=True), self._close_anyway)
            return
        stored = keys.settings()
        stored.setValue(keys.GEOMETRY, self.saveGeometry())
        stored.setValue(keys.STATE, self.saveState())
        stored.setValue(keys.CURRENT_VIEW, self.current_view())
        for widget in self.views.values():
            if hasattr(widget, "save_state"):
                widget.save_state()
        stored.sync()
        self._close_workspace()
        super().closeEvent(event)
