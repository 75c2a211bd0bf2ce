"""Export and import bundles from the File menu: on a worker, with the outcome in the status bar."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import studies
from annotator.storage import judging
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.main_window import MainWindow
from tests.factories import add_people
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


def test_a_rater_exports_no_judge_result_of_an_open_study(
    qtbot: QtBot, qapp: AnnotatorApp, populated: Workspace, tmp_path: Path
) -> None:
    """Issue 16, defect 8: the GUI's export is the same leak as `annotator export bundle`."""
    db = populated.database
    config = judging.ensure_config(db, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    for trajectory in (1, 2, 3):
        judging.save_score(db, config, None, trajectory, ScoreRecord(2, "理由", "{}", None, None, 1.0, 1))
    add_people(db, "小王", "小李")  # raters are people the workspace knows
    studies.create_study(db, "试点", config, 2, ["小王", "小李"], seed=1)
    identity.remember("小王", "annotator")
    window = open_window(qtbot, qapp, populated.data_dir)
    wait_loaded(qtbot, window)
    out = tmp_path / "mine"
    with qtbot.waitSignal(window.bundles.finished, timeout=30_000) as done:
        window.bundles.export_bundle(out)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert len(manifest["judges"][0]["scores"]) == 1 and manifest["studies"] == []
    assert manifest["withheld"]["person"] == "小王"
    assert "without the judge results of 2 trajectories" in done.args[0]
