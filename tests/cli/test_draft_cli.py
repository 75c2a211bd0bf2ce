"""`annotator draft` against the scripted endpoint and loopback servers: the summary, clear errors, two processes
drafting the same app at once, and a run killed with SIGKILL that the next run finishes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from annotator.cli.root import cli
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.storage import models
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, chat_completion
from tests.factories import add_virtual_trajectory
from tests.services.test_concurrent_writes import at_once
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
SHOP = "优选商城"
TAP_CORNER = chat_completion(
    '<think>看</think><action>点</action><tool_call>{"name": "mobile_use", "arguments": {"action": "click", '
    '"coordinate": [5, 5]}}</tool_call>'
)


def run(data_dir: Path, *args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    with ScriptedEndpoint(seed=0) as running:
        yield running


@pytest.fixture
def shop(tmp_path: Path, new_workspace: NewWorkspace) -> Path:
    """A workspace with two unlabelled shop trajectories (6 and 5 steps), their screens' hierarchies stored."""
    data_dir = tmp_path / "data"
    with new_workspace(data_dir) as workspace:
        add_virtual_trajectory(workspace, "shop-search-earbuds", hierarchy=True)
        add_virtual_trajectory(workspace, "shop-my-orders", hierarchy=True)
        add_virtual_trajectory(workspace, "settings-wifi-off", hierarchy=True)  # another app: never asked
    return data_dir


def drafts(data_dir: Path) -> list[tuple[int, str]]:
    D = models.StepDraft
    with Workspace.open(data_dir) as workspace, workspace.database.session() as session:
        return [tuple(row) for row in session.execute(select(D.step_id, D.model).order_by(D.step_id))]


def test_drafts_with_the_scripted_endpoint_then_a_rerun_skips_them(shop: Path, endpoint: ScriptedEndpoint) -> None:
    args = ["draft", "--app", SHOP, "--base-url", endpoint.base_url, "--model", "scripted"]
    first = run(shop, *args, "--json")
    assert first.exit_code == 0, first.output
    summary = json.loads(first.output.splitlines()[-1])
    assert (summary["steps"], summary["kept"], summary["flagged"], summary["failed"]) == (10, 10, 0, 0)
    again = run(shop, *args)
    assert again.exit_code == 0 and "0 kept" in again.output and "10 drafted before" in again.output
    assert len(drafts(shop)) == 10


def test_clear_errors_for_no_such_app_no_choice_a_down_endpoint_and_junk(shop: Path) -> None:
    no_app = run(shop, "draft", "--app", "淘宝", "--base-url", "http://127.0.0.1:9/v1", "--model", "m")
    assert no_app.exit_code == 1 and "no app named '淘宝' in this workspace (apps: 优选商城, 设置)" in no_app.output
    no_choice = run(shop, "draft", "--base-url", "http://127.0.0.1:9/v1", "--model", "m")
    assert no_choice.exit_code == 2 and "say which steps to draft" in no_choice.output
    down = run(shop, "draft", "--app", SHOP, "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--retries", "0")
    assert down.exit_code == 1 and "The run ended early: the endpoint stayed unavailable: cannot connect" in down.output
    assert "Run the same command again" in down.output and drafts(shop) == []
    with ChatServer([Reply(body=chat_completion("不是答案"))]) as server:
        junk = run(shop, "draft", "--app", SHOP, "--base-url", server.base_url, "--model", "junk")
    assert junk.exit_code == 0 and "0 kept (their action matched the executed one), 10 flagged" in junk.output


def test_two_processes_drafting_one_app_at_once_both_finish_and_each_step_gets_one_draft(
    shop: Path, endpoint: ScriptedEndpoint
) -> None:
    results = at_once(shop, "draft", "--app", SHOP, "--base-url", endpoint.base_url, "--model", "scripted", "--json")
    assert [result.returncode for result in results] == [0, 0], [result.stdout for result in results]
    summaries = [json.loads(result.stdout.splitlines()[-1]) for result in results]
    assert sum(summary["kept"] for summary in summaries) == 10  # a step the other stored first counts as skipped
    assert all(summary["kept"] + summary["skipped"] == 10 for summary in summaries)
    stored = drafts(shop)
    assert len(stored) == len({step for step, _ in stored}) == 10


def test_a_run_killed_with_sigkill_loses_only_what_was_in_flight_and_the_next_run_finishes(shop: Path) -> None:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("ANNOTATOR_")}
    with ChatServer([Reply(body=TAP_CORNER, delay_s=0.4)]) as server:
        command = [
            sys.executable,
            "-m",
            "annotator",
            "--data-dir",
            str(shop),
            "draft",
            "--app",
            SHOP,
            "--base-url",
            server.base_url,
            "--model",
            "slow",
            "--concurrency",
            "1",
        ]
        process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            deadline = time.monotonic() + 60
            while len(drafts(shop)) < 3 and time.monotonic() < deadline:
                time.sleep(0.05)
            os.kill(process.pid, signal.SIGKILL)
        finally:
            process.wait(timeout=30)
        kept = len(drafts(shop))
        assert 3 <= kept < 10
        resumed = run(shop, "draft", "--app", SHOP, "--base-url", server.base_url, "--model", "slow", "--json")
    summary = json.loads(resumed.output.splitlines()[-1])
    assert (summary["skipped"], summary["asked"], summary["flagged"]) == (kept, 10 - kept, 10 - kept)
    with Workspace.open(shop) as workspace, workspace.database.session() as session:
        assert session.scalar(select(func.count(func.distinct(models.StepDraft.step_id)))) == 10
