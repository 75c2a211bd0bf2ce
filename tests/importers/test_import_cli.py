"""The `annotator import aitz | gui-odyssey | androidcontrol` commands: summary, progress, exit status."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from annotator.cli.root import cli
from annotator.services.review import review_queue
from annotator.storage.workspace import Workspace
from tests.importers.datasets import (
    ac_episode,
    ac_good_actions,
    aitz_good_steps,
    aitz_step,
    odyssey_episode,
    odyssey_good_steps,
    write_aitz,
    write_odyssey,
    write_tfrecord,
)


def run(data_dir: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), "import", *args], catch_exceptions=False)


def test_import_aitz_prints_a_summary_and_progress_and_a_second_run_adds_nothing(tmp_path: Path) -> None:
    write_aitz(tmp_path / "train", "101", aitz_good_steps())
    write_aitz(tmp_path / "train", "102", aitz_good_steps(), subset="install")
    result = run(tmp_path / "ws", "aitz", str(tmp_path / "train"), "--as", "小王")
    assert result.exit_code == 0, result.output
    assert result.stdout == "AITZ: 2 episodes imported (14 steps) for review, 0 already imported, 0 failed.\n"
    assert "AITZ: 2/2 episodes" in result.stderr
    again = run(tmp_path / "ws", "aitz", str(tmp_path / "train"))
    assert again.stdout == "AITZ: 0 episodes imported (0 steps) for review, 2 already imported, 0 failed.\n"
    with Workspace.open(tmp_path / "ws") as workspace:
        queue = review_queue(workspace)
    assert [item.annotators for item in queue] == [("小王",), ("小王",)]


def test_a_failed_episode_is_listed_and_the_exit_status_says_so(tmp_path: Path) -> None:
    write_aitz(tmp_path / "train", "101", aitz_good_steps())
    bad = write_aitz(tmp_path / "train", "102", [aitz_step(0, 4, (0.5, 0.5)), aitz_step(1, 12)])
    result = run(tmp_path / "ws", "aitz", str(tmp_path / "train"))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "AITZ: 1 episodes imported (7 steps) for review, 0 already imported, 1 failed."
    assert lines[1].startswith(f"  failed: {bad}: episode 102, step 1: result_action_type: 12 is not")


def test_import_gui_odyssey_finds_screenshots_given_with_images(tmp_path: Path) -> None:
    data = write_odyssey(tmp_path / "data", [odyssey_episode("9", odyssey_good_steps())], screenshots=tmp_path / "s")
    missing = run(tmp_path / "ws", "gui-odyssey", str(data))
    assert missing.exit_code == 1 and "give the screenshots folder with --images" in missing.stdout
    result = run(tmp_path / "ws", "gui-odyssey", str(data), "--images", str(tmp_path / "s"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("GUI-Odyssey: 1 episodes imported (8 steps)")


def test_import_androidcontrol_reports_episodes_without_a_known_total(tmp_path: Path) -> None:
    write_tfrecord(tmp_path / "records" / "android_control-00000-of-00002", [ac_episode(1, ac_good_actions())])
    write_tfrecord(tmp_path / "records" / "android_control-00001-of-00002", [ac_episode(2, ac_good_actions())])
    result = run(tmp_path / "ws", "androidcontrol", str(tmp_path / "records"), "--app", "时钟")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("AndroidControl: 2 episodes imported (18 steps)")
    assert "AndroidControl: 2 episodes" in result.stderr


def test_a_path_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path), "import", "aitz", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "does not exist" in result.output


@pytest.mark.slow
def test_a_folder_without_episodes_is_an_error_not_an_empty_success(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = run(tmp_path / "ws", "gui-odyssey", str(tmp_path / "empty"))
    assert result.exit_code == 1 and f"no GUI-Odyssey episodes found at {tmp_path / 'empty'}" in result.output
