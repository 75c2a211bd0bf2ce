"""The demo's training loop in the status bar: it says what runs, and Cancel stops it with nothing left running."""

from __future__ import annotations

import shutil
from pathlib import Path

import psutil
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from annotator.demo.workspace.build import demo_db_url
from annotator.storage import training_runs
from annotator.storage.database import open_database
from annotator.ui.demo_loop import DemoLoopBar, attach_demo_loop

pytestmark = pytest.mark.slow


def processes_of(folder: Path) -> list[str]:
    """Every live process whose command line names the folder (the loop's commands and the training they start)."""
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        try:
            if process.info["status"] != psutil.STATUS_ZOMBIE and str(folder) in " ".join(
                process.info["cmdline"] or ()
            ):
                found.append(" ".join(process.info["cmdline"]))
        except psutil.Error:
            continue
    return found


def test_the_status_bar_shows_the_loop_and_cancel_stops_it_leaving_no_process(
    qtbot: QtBot, exports: dict[str, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "demo"
    shutil.copytree(exports["sft"].parent / "data", folder)  # the shared workspace of two accepted trajectories
    window = QMainWindow()
    window.statusBar()  # made before the window shows, as the app's main window does
    qtbot.addWidget(window)
    window.show()
    bar = attach_demo_loop(window, folder)
    qtbot.addWidget(bar, before_close_func=lambda bar: bar.shutdown())  # a failed check leaves nothing running
    assert attach_demo_loop(window, folder) is bar and window.findChildren(DemoLoopBar) == [bar]
    assert bar.isVisible() and bar.label.text().startswith("Demo:")

    qtbot.waitUntil(
        lambda: bar.progress is not None and bar.progress.step == "tiny-sft" and bool(bar.progress.done),
        timeout=120_000,
    )
    assert "Demo: training tiny-sft (2/5), step" in bar.label.text()
    with qtbot.waitSignal(bar.finished, timeout=90_000) as ended:
        qtbot.mouseClick(bar.cancel_button, Qt.MouseButton.LeftButton)
        assert bar.label.text() == "Demo: cancelling the training loop…"
    assert ended.args == ["cancelled"] and bar.cancel_button.isHidden()
    assert bar.jobs.wait(10_000)

    assert processes_of(folder) == []
    database = open_database(demo_db_url(folder), migrate=False)
    try:
        runs = training_runs.list_runs(database)
    finally:
        database.dispose()
    assert [(run.recipe, run.status) for run in runs] == [("tiny-sft", "cancelled")]
