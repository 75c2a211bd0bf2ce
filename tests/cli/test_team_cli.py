"""`annotator people`, `assign` and `queue` through click on a real workspace."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from tests.factories import add_trajectory
from tests.workspaces import NewWorkspace


def run(data_dir: Path, *args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], catch_exceptions=False)


@pytest.mark.slow
def test_an_admin_names_people_assigns_work_and_each_reads_their_queue(
    tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    with new_workspace(tmp_path) as workspace:
        ids = [add_trajectory(workspace, "设置", f"任务 {n}", 1, seed=n, label=False) for n in range(3)]
    assert run(tmp_path, "people", "add", "主管", "--role", "admin").exit_code == 0
    refused = run(tmp_path, "people", "add", "小王", "--role", "annotator", "--as", "小王")
    assert refused.exit_code == 1 and "nobody called '小王'" in refused.output
    assert run(tmp_path, "people", "add", "小王", "--role", "annotator", "--as", "主管").exit_code == 0
    not_admin = run(tmp_path, "assign", "--to", "小王", "--id", str(ids[0]), "--as", "小王")
    assert not_admin.exit_code == 1
    assert "Error: 小王 is an annotator: only admins assign work" in not_admin.output
    given = run(tmp_path, "assign", "--to", "小王", "--app", "设置", "--limit", "2", "--as", "主管")
    assert given.output.strip() == "Assigned to 小王: 2 new, 0 held already."
    queue = json.loads(run(tmp_path, "queue", "--person", "小王", "--json").output)
    assert [(row["trajectory_id"], row["assigned"]) for row in queue["label"]] == [
        (ids[0], True),
        (ids[1], True),
        (ids[2], False),
    ]
    assert queue["review"] is None and queue["role"] == "annotator" and queue["label_total"] == 3
    shown = run(tmp_path, "queue", "--person", "小王", "--limit", "2").output.splitlines()
    assert shown[1] == "To label (3: the first 2 listed, 2 of them assigned to you)"
    assert shown[4] == "  … and 1 more (--limit)"
    listed = run(tmp_path, "people", "list").output.splitlines()
    assert listed == ["主管\tadmin\t0 open assignments", "小王\tannotator\t2 open assignments"]
