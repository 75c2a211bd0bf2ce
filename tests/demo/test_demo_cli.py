"""`annotator demo`, run as a user runs it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from annotator.cli.gui import load_gui
from annotator.cli.root import cli

pytestmark = pytest.mark.slow

SHORT = "7"  # a seed whose first tasks are short ones: quick tests


def invoke(*args: str, env: dict[str, str] | None = None) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_demo_no_gui_builds_the_workspace_and_prints_a_summary(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    result = invoke("demo", "--no-gui", "--data-dir", str(folder), "--trajectories", "2", "--seed", SHORT)
    assert result.exit_code == 0, result.output
    assert f"Demo workspace: {folder}" in result.output
    assert "2 trajectories" in result.output and "teleoperated: 1" in result.output
    assert "[1/2] 优选商城" in result.output  # one progress line per trajectory
    stats = json.loads(invoke("--data-dir", str(folder), "stats", "--every-row", "--json").output)
    assert stats["trajectories"] == 2 and stats["instructions"] >= 40

    again = invoke("demo", "--no-gui", "--data-dir", str(folder))
    assert again.exit_code == 1
    assert "already holds a workspace with 2 trajectories" in again.output and "--replace" in again.output
    again_stats = json.loads(invoke("--data-dir", str(folder), "stats", "--every-row", "--json").output)
    assert again_stats["steps"] == stats["steps"]


def test_the_global_data_dir_option_and_replace(tmp_path: Path) -> None:
    first = invoke("--data-dir", str(tmp_path), "demo", "--no-gui", "--trajectories", "1", "--seed", SHORT)
    assert first.exit_code == 0, first.output
    replaced = invoke(
        "--data-dir", str(tmp_path), "demo", "--no-gui", "--trajectories", "1", "--seed", "5", "--replace"
    )
    assert replaced.exit_code == 0, replaced.output
    assert json.loads(invoke("--data-dir", str(tmp_path), "stats", "--every-row", "--json").output)["trajectories"] == 1


def test_the_default_folder_is_a_demo_folder_beside_the_users_workspace(tmp_path: Path) -> None:
    result = invoke(
        "demo", "--no-gui", "--trajectories", "1", "--seed", SHORT, env={"ANNOTATOR_DATA_DIR": str(tmp_path)}
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "demo" / "annotator.sqlite").is_file()
    assert not (tmp_path / "annotator.sqlite").exists()


def test_a_missing_desktop_app_is_said_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "annotator.ui.app", None)  # what Python does for a module it cannot import
    with pytest.raises(click.ClickException, match=r"desktop app is not available.*--no-gui"):
        load_gui()
