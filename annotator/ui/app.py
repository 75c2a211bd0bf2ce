"""Starting the desktop app: the QApplication, fonts, languages, the main window and the workspace."""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType

from platformdirs import user_log_dir
from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from annotator import __version__
from annotator.ui import settings as keys
from annotator.ui.fonts import register_fonts
from annotator.ui.i18n import LanguageSwitcher
from annotator.ui.identity_dialog import ask_if_unknown
from annotator.ui.main_window import MainWindow
from annotator.ui.workers import describe

log = logging.getLogger(__name__)


class AnnotatorApp(QApplication):
    """The QApplication with what every window shares: the language switcher and the shipped fonts."""

    def __init__(self, argv: Sequence[str]) -> None:
        super().__init__(list(argv))
        self.setOrganizationName(keys.ORGANIZATION)
        self.setApplicationName(keys.APPLICATION)
        self.setApplicationDisplayName(keys.APPLICATION)
        self.setApplicationVersion(__version__)
        self.setDesktopFileName("mobile-annotator")
        self.font_families = register_fonts(self)
        self.languages = LanguageSwitcher(self)
        self.languages.install(keys.text(keys.LANGUAGE))


def make_app(argv: Sequence[str] | None = None) -> AnnotatorApp:
    """The one application object of this process (created on the first call; tests share it)."""
    existing = QCoreApplication.instance()
    if isinstance(existing, AnnotatorApp):
        return existing
    if existing is not None:
        raise RuntimeError(f"a {type(existing).__name__} already exists; make_app must create the application")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    return AnnotatorApp(sys.argv[:1] if argv is None else argv)


def set_up_logging() -> Path:
    """Log to stderr and to a rotating file in the user's log folder (a desktop launch has no terminal)."""
    folder = Path(user_log_dir("mobile-annotator", False))
    folder.mkdir(parents=True, exist_ok=True)
    log_file = folder / "annotator.log"
    file_handler = RotatingFileHandler(log_file, maxBytes=2_000_000, backupCount=3, encoding="utf-8")
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(threadName)s %(name)s: %(message)s",
        handlers=[logging.StreamHandler(), file_handler],
    )
    logging.getLogger("alembic").setLevel(logging.WARNING)  # "Context impl SQLiteImpl" on every open is noise
    return log_file


def report_uncaught_errors(window: MainWindow) -> None:
    """An exception in a Qt slot or event handler goes to the log and the status bar, not only to stderr."""

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        log.error("unexpected error", exc_info=(kind, error, trace))
        window.status.show_unexpected(describe(error))

    sys.excepthook = hook


def run_gui(data_dir: Path, *, db_url: str | None = None, demo_peers: bool = False) -> int:
    """Show the main window on the workspace in `data_dir` (or at `db_url`); returns the exit code.

    `demo_peers` starts the built-in virtual phone and the scripted endpoint once the workspace is open, so that
    the demo's Collect view has a phone and an agent ready, and the demo's training loop in the background, so that
    its Runs and Models views get real runs and an evaluation (annotator.ui.demo_loop)."""
    log_file = set_up_logging()
    app = make_app()
    log.info("Mobile Annotator %s; log file %s", __version__, log_file)
    if not ask_if_unknown():
        log.info("no name given: the workspace opens, edits are refused until one is given (File menu)")
    window = MainWindow(app.languages)
    report_uncaught_errors(window)
    window.show()
    if demo_peers:
        from annotator.ui.demo_loop import attach_demo_loop  # the demo's alone: its loop's imports take ~0.2 s

        window.workspace_opened.connect(lambda _workspace: start_demo_peers(window))
        # the demo's folder, whichever workspace is opened later; once per window, like the peers
        window.workspace_opened.connect(lambda _workspace: attach_demo_loop(window, Path(data_dir)))
    window.open_workspace(Path(data_dir), db_url)
    return app.exec()


def start_demo_peers(window: MainWindow) -> None:
    window.collect.start_virtual_phone()  # both start once; a second call finds them running
    window.collect.start_demo_endpoint()
