"""Export and import bundles from the File menu: on a worker, with the outcome in the status bar."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from annotator.storage.workspace import Workspace
from annotator.ui.app import AnnotatorApp
from annotator.ui.main_window import MainWindow
from tests.ui.conftest import open_window, wait_loaded

pytestmark = pytest.mark.slow


def test_export_then_import_into_another_workspace(
    qtbot: QtBot, qapp: AnnotatorApp, window: MainWindow, tmp_path: Path
) -> None:
    out = tmp_path / "team.zip"
    with qtbot.waitSignal(window.bundles.finished, timeout=30_000) as done:
        window.bundles.export_bundle(out)
    assert out.is_file() and "Exported 3 trajectories" in done.args[0]
    Workspace.open(tmp_path / "other").close()
    other = open_window(qtbot, qapp, tmp_path / "other")
    wait_loaded(qtbot, other)
    assert other.browser.model.rowCount() == 0
    with qtbot.waitSignal(other.bundles.finished, timeout=30_000) as done:
        other.bundles.import_bundle(out)
    assert "Imported 3 trajectories" in done.args[0]
    qtbot.waitUntil(lambda: other.browser.model.rowCount() == 3)


def test_a_truncated_bundle_is_reported_and_nothing_is_added(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    out = tmp_path / "team.zip"
    with qtbot.waitSignal(window.bundles.finished, timeout=30_000):
        window.bundles.export_bundle(out)
    broken = tmp_path / "broken.zip"
    broken.write_bytes(out.read_bytes()[: out.stat().st_size // 2])
    with qtbot.waitSignal(window.jobs.failed, timeout=30_000) as failed:
        window.bundles.import_bundle(broken)
    assert failed.args[0] == "Importing a bundle" and "truncated" in failed.args[1]
    qtbot.waitUntil(lambda: "truncated" in window.status.currentMessage())
    assert not window.bundles.bar.isVisible()
