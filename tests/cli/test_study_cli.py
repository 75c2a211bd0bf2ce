"""`annotator study create` takes its raters from the people the workspace knows (issue 29, item 8): a misspelt
name is refused in one line with exit code 2, naming it and the name it likely meant, and nothing is written."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.storage import judging
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, database_snapshot
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow


def run(data_dir: Path, *args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args])


def snapshot(data_dir: Path) -> dict[str, list[tuple]]:
    with Workspace.open(data_dir) as workspace:
        return database_snapshot(workspace)


@pytest.fixture
def judged(tmp_path: Path, new_workspace: NewWorkspace) -> Path:
    """Four trajectories scored by judge 1; 小王 and 张审核 are on the list (`annotator people add`)."""
    with new_workspace(tmp_path) as workspace:
        config = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
        for n in range(4):
            trajectory = add_trajectory(workspace, "淘宝", f"任务 {n}", 1, seed=n, label=False)
            record = ScoreRecord(n, "理由", "{}", None, None, 1.0, 1)
            judging.save_score(workspace.database, config, None, trajectory, record)
    for name, role in (("小王", "annotator"), ("张审核", "reviewer")):
        assert run(tmp_path, "people", "add", name, "--role", role).exit_code == 0
    return tmp_path


def test_an_unknown_rater_is_refused_in_one_line_and_nothing_is_written(judged: Path) -> None:
    before = snapshot(judged)
    refused = run(judged, "study", "create", "试点", "--judge", "1", "--rater", "小王", "--rater", "张审和")
    assert refused.exit_code == 2, refused.output
    error = [line for line in refused.output.splitlines() if line.startswith("Error")]
    assert len(error) == 1 and "张审和" in error[0] and "张审核" in error[0] and "小王" not in error[0]
    assert snapshot(judged) == before  # no study, no person 张审和


def test_known_raters_make_the_study(judged: Path) -> None:
    created = run(judged, "study", "create", "试点", "--judge", "1", "--rater", "小王", "--rater", "张审核")
    assert created.exit_code == 0, created.output
    assert "小王: 0/4 rating" in created.output and "张审核: 0/4 rating" in created.output
