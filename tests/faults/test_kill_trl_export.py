"""SIGKILL in the middle of a `trainer-bridge export --format trl`: its Arrow file, as big as the dataset, is written
inside the export's staging folder, so the next export removes it with that folder once the killed process is gone
(its scratch copy was once a `.export-arrow-*` folder beside the output that nothing removed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from annotator.storage.workspace import Workspace
from tests.faults.processes import assert_checks_clean
from tests.faults.test_kill_exports import killed_while_reading_a_screenshot, leftovers
from trainer_bridge.cli.root import cli as trainer_bridge

pytestmark = pytest.mark.slow


def hidden(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("."))


def test_a_killed_trl_export_leaves_nothing_the_next_one_does_not_remove(populated: Workspace, tmp_path: Path) -> None:
    out = tmp_path / "exports" / "trl"
    options = ["export", "--stage", "sft", "--format", "trl", "--out", str(out)]
    data = ["--data-dir", str(populated.data_dir)]
    killed_while_reading_a_screenshot(populated, ["-m", "trainer_bridge", *options, *data])
    (staging,) = leftovers(out)
    assert hidden(out.parent) == [staging], "nothing beside the staging folder"
    assert (out.parent / staging / "train" / "data-00000-of-00001.arrow").is_file()  # begun, in the staging folder

    again = CliRunner().invoke(trainer_bridge, [*options, *data], catch_exceptions=False)
    assert again.exit_code == 0, again.output
    assert hidden(out.parent) == [] and out.is_dir()
    listed = {entry["path"] for entry in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]}
    assert {path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file()} == listed | {"manifest.json"}
    assert_checks_clean(populated.data_dir)
