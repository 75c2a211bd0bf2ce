"""SIGKILL in the middle of `annotator judge run`: the run never writes its counts, so its row said `scored 0`
beside the scores it stored. `annotator db check` marks it stopped (its process is gone), with the counts of what
it stored, and says how many runs it marked; the next command that opens the workspace does the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from annotator.cli.root import cli
from annotator.storage import models
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, Seen, chat_completion
from tests.factories import add_trajectory
from tests.faults.processes import kill, start, wait_until
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow
ANSWERED = 4  # answers the server gives before it holds the next request until the run is killed


def stored_scores(data: Path) -> int:
    with Workspace.open(data, migrate=False) as workspace, workspace.database.session() as session:
        return session.scalar(select(func.count(models.JudgeScore.id))) or 0


def db_check(data: Path) -> dict[str, Any]:
    """`annotator db check --json`, as a person runs it after a crash."""
    checked = CliRunner().invoke(cli, ["--data-dir", str(data), "db", "check", "--json"])
    assert checked.exit_code == 0, checked.output
    return json.loads(checked.output)


def judge_run(data: Path) -> models.JudgeRun:
    with Workspace.open(data, migrate=False) as workspace, workspace.database.session() as session:
        (run,) = session.scalars(select(models.JudgeRun)).all()
        session.expunge(run)
        return run


def test_a_killed_judge_run_counts_what_it_stored(tmp_path: Path, new_workspace: NewWorkspace) -> None:
    data = tmp_path / "data"
    with new_workspace(data) as workspace:
        for n in range(6):
            add_trajectory(workspace, "设置", f"任务 {n}", 1, seed=n)
    seen: list[Seen] = []

    def respond(request: Seen) -> Reply:
        seen.append(request)
        if len(seen) > ANSWERED:
            return Reply(delay_s=120, body=chat_completion('{"reason": "晚了", "reward": 1}'))
        return Reply(body=chat_completion('{"reason": "完成了", "reward": 3}'))

    with ChatServer([], respond=respond) as server:
        command = ["judge", "run", "--base-url", server.base_url, "--model", "m", "--concurrency", "1"]
        process = start(["-m", "annotator", "--data-dir", str(data), *command])
        wait_until(lambda: stored_scores(data) == ANSWERED and len(seen) > ANSWERED, process, "the held request")
        kill(process)
    assert judge_run(data).status == "running" and judge_run(data).scored == 0  # as the killed process left it

    checked = db_check(data)
    assert checked["reaped"] == 1
    (note,) = checked["reaped_runs"]
    assert note.startswith("judge run 1 was left running: its process") and note.endswith(
        f"it is stopped now ({ANSWERED} scored, 0 without a usable score)"
    )
    run = judge_run(data)
    assert (run.status, run.scored, run.failed) == ("stopped", ANSWERED, 0)
    assert db_check(data)["reaped"] == 0
