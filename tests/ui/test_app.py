"""run_gui end to end in its own process: the window shows the workspace, a long session, a clean exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from annotator.storage.workspace import Workspace
from tests.ui.conftest import known_person

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SESSION = """
import sys
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication
from annotator.ui.app import make_app, run_gui

rounds = []

def busy_then_close():
    windows = [w for w in QApplication.topLevelWidgets() if w.objectName() == "main-window"]
    window = windows[0] if windows else None
    if window is None or window.browser.summary is None or window.browser.model.loading():
        QTimer.singleShot(50, busy_then_close)
        return
    if len(rounds) < 12:  # a long session: 24,000 trips through the event loop from Python
        rounds.append(1)
        for _ in range(2000):
            QCoreApplication.processEvents()
        QTimer.singleShot(300, busy_then_close)
        return
    if len(rounds) == 12:  # a bug in a slot: it must reach the status bar and the log, not only stderr
        rounds.append(1)
        QTimer.singleShot(0, lambda: {}["no such key"])
        QTimer.singleShot(100, busy_then_close)
        return
    print("rows", window.browser.model.rowCount(), "title", window.windowTitle(), flush=True)
    print("status", window.status.currentMessage(), flush=True)
    window.close()

make_app(["annotator"])
QTimer.singleShot(0, busy_then_close)
sys.exit(run_gui(Path(sys.argv[1])))
"""


def test_run_gui_shows_the_workspace_and_exits_cleanly_after_a_long_session(
    populated: Workspace, tmp_path: Path
) -> None:
    environment = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    known_person(tmp_path / "config")
    done = subprocess.run(
        [sys.executable, "-c", SESSION, str(populated.data_dir)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"rows 3 title {populated.data_dir}\n" in done.stdout  # Qt adds " — Mobile Annotator" in the title bar
    assert "status Something went wrong: 'no such key' (the details are in the log)" in done.stdout
    log_file = tmp_path / "state" / "mobile-annotator" / "log" / "annotator.log"
    assert "KeyError: 'no such key'" in log_file.read_text(encoding="utf-8")  # with the traceback
