"""SIGKILL in the middle of an export (`annotator export bundle` and `trainer-bridge export`): nothing appears under
the name asked for, so a half export is never taken for a whole one; the next export to the same place works and
removes what the killed one left beside it.

Each export is stopped at a deterministic point: one stored screenshot is swapped for a named pipe, and the export
is killed once it is reading that file, half-way through its copies."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from annotator.services.bundle import export_bundle, import_bundle
from annotator.storage.workspace import Workspace
from tests.faults.processes import db_check, kill, open_fifo_writer, start
from tests.workspaces import NewWorkspace
from trainer_bridge.cli.root import cli as trainer_bridge

pytestmark = pytest.mark.slow


def killed_while_reading_a_screenshot(workspace: Workspace, command: list[str]) -> None:
    """Run `command`, kill it while it reads the last screenshot (by hash), and put the screenshot back."""
    blob = workspace.blobs.path(max(workspace.blobs.all_hashes()))
    content = blob.read_bytes()
    blob.unlink()
    os.mkfifo(blob)
    try:
        process = start(command)
        writer = open_fifo_writer(blob, process)
        os.write(writer, content[: len(content) // 2])
        kill(process)
        os.close(writer)
    finally:
        blob.unlink()
        blob.write_bytes(content)


def leftovers(out: Path) -> list[str]:
    return sorted(path.name for path in out.parent.iterdir() if path.name.startswith(f".{out.name}"))


def test_a_killed_bundle_export_leaves_no_bundle_and_the_next_one_works(
    populated: Workspace, tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    out = tmp_path / "exports" / "team.zip"
    command = ["-m", "annotator", "--data-dir", str(populated.data_dir), "export", "bundle", str(out)]
    killed_while_reading_a_screenshot(populated, command)
    assert not out.exists() and leftovers(out), "a killed export leaves its staging folder, under another name"

    assert export_bundle(populated, out).trajectories == 3
    assert leftovers(out) == []  # the killed export's staging folder is removed
    with new_workspace(tmp_path / "elsewhere") as elsewhere:
        assert import_bundle(elsewhere, out).trajectories_added == 3
    assert db_check(populated.data_dir)["corrupt"] == 0


def test_a_killed_training_export_leaves_no_dataset_and_the_next_one_works(
    populated: Workspace, tmp_path: Path
) -> None:
    out = tmp_path / "sft"
    options = ["export", "--stage", "sft", "--format", "jsonl", "--out", str(out)]
    data = ["--data-dir", str(populated.data_dir)]
    killed_while_reading_a_screenshot(populated, ["-m", "trainer_bridge", *options, *data])
    assert not out.exists() and leftovers(out), "a killed export leaves its staging folder, under another name"

    again = CliRunner().invoke(trainer_bridge, [*options, *data], catch_exceptions=False)
    assert again.exit_code == 0, again.output
    assert leftovers(out) == []
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert {entry["path"] for entry in manifest["files"]} == {
        path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file() and path.name != "manifest.json"
    }
