"""A data folder without a workspace becomes one only with a word on stderr (a mistyped --data-dir must not pass
for an empty workspace); a workspace opened for reading in a read-only folder refuses a write in one line."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.storage import labels
from annotator.storage.database import ReadOnlyDatabaseError
from annotator.storage.workspace import DATABASE_FILE, Workspace, is_new
from tests.cli.test_workspace_errors import files_under, tmpfs
from tests.factories import add_trajectory


def test_a_new_workspace_is_announced_once(tmp_path: Path) -> None:
    typo = tmp_path / "wrok"
    assert is_new(typo)
    first = CliRunner().invoke(cli, ["--data-dir", str(typo), "stats", "--json"])
    assert first.exit_code == 0
    assert first.stderr == f"Created a new workspace in {typo} (it had none).\n"
    assert first.stdout.startswith("{") and (typo / DATABASE_FILE).exists() and not is_new(typo)
    again = CliRunner().invoke(cli, ["--data-dir", str(typo), "stats", "--json"])
    assert again.exit_code == 0 and again.stderr == ""


def test_a_database_url_is_never_a_new_folder(tmp_path: Path) -> None:
    assert not is_new(tmp_path / "none", f"sqlite:///{tmp_path / 'elsewhere.sqlite'}")


@pytest.mark.slow
def test_a_write_to_a_workspace_opened_read_only_is_refused_in_one_line(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "16m") as data:
        with Workspace.open(data) as workspace:
            trajectory = add_trajectory(workspace, "设置", "打开蓝牙", 2, label=False)
        subprocess.run(["mount", "-o", "remount,ro", str(data)], check=True)
        before = files_under(data)
        with Workspace.open(data, writes=False) as workspace:
            assert workspace.read_only and not workspace.created
            with pytest.raises(ReadOnlyDatabaseError) as refused:
                labels.write_outcome(workspace.database, trajectory, "success", person="小王", role="annotator")
        assert str(refused.value) == (
            "the workspace is open read-only (its folder cannot be written), so nothing was changed: it can be "
            "browsed and exported, not edited"
        )
        assert files_under(data) == before
