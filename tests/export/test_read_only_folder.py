"""`trainer-bridge export` and `trainer-bridge stats` only read the workspace: a read-only data folder (a tmpfs
remounted read-only, so that root is refused too) opens for reading, they work, and nothing in it changes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from click.testing import CliRunner

from annotator.storage.workspace import Workspace
from tests.cli.test_workspace_errors import files_under, tmpfs
from tests.factories import add_trajectory
from trainer_bridge.cli.root import cli


def test_export_and_stats_read_a_read_only_folder(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "16m") as data:
        with Workspace.open(data) as workspace:
            add_trajectory(workspace, "设置", "打开蓝牙", 2)
        subprocess.run(["mount", "-o", "remount,ro", str(data)], check=True)
        before = files_under(data)
        stats = CliRunner().invoke(cli, ["stats", "--data-dir", str(data)])
        assert stats.exit_code == 0 and stats.exception is None, stats.output
        out = tmp_path / "export"
        arguments = ["export", "--stage", "sft", "--format", "jsonl", "--out", str(out), "--data-dir", str(data)]
        export = CliRunner().invoke(cli, arguments)
        assert export.exit_code == 0 and export.exception is None, export.output
        assert "train: 2 samples from 1 trajectories" in export.output
        assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        assert files_under(data) == before


def test_a_damaged_database_is_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Workspace.open(data) as workspace:
        add_trajectory(workspace, "设置", "打开蓝牙", 2)
    database = data / "annotator.sqlite"
    database.write_bytes(database.read_bytes()[: database.stat().st_size // 2])
    for command in (["stats"], ["export", "--stage", "sft", "--format", "jsonl", "--out", str(tmp_path / "out")]):
        result = CliRunner().invoke(cli, [*command, "--data-dir", str(data)])
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        (line,) = result.output.strip().splitlines()
        assert line.startswith(f"Error: the database in {data} is damaged"), line
    assert not (tmp_path / "out").exists()
