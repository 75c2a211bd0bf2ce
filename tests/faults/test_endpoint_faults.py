"""The LLM endpoint misbehaving for real on loopback: trickling its answer, 429 then 500, hanging up, sending
something that is not JSON, or a runaway reply of megabytes. A judge run and an agent collection finish (they
do not hang) with the failure recorded, and a second `judge run` asks only about what has no score yet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from annotator.cli.root import cli
from annotator.collect.agent import AgentDecider
from annotator.collect.session import CollectionRun, Settings, StopKind, Task
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.device.android import AndroidDevice
from annotator.domain.reply_text import MAX_STORED_CHARS
from annotator.domain.trajectory import CollectorKind, TrajectoryStatus
from annotator.llm.client import LLMClient, LLMConfig
from annotator.storage import collection, models
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, Seen, chat_completion, error_body
from tests.factories import add_trajectory
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow

RUNAWAY = "好" * 2_000_000  # a model that never stops: 6 MB of JSON
# each fault: the replies in turn (the last repeats) and what the recorded failure says
FAULTS = {
    "trickle": ([Reply(body=chat_completion('{"reward": 3}'), trickle_s=0.4)], "did not answer within 1 s"),
    "429 then 500": ([Reply(429, error_body("slow down")), Reply(500, error_body("boom"))], "failed with 500"),
    "hang up": ([Reply(hang_up=True)], "closed the connection without a complete answer"),
    "not JSON": ([Reply(body=b"<html>502 Bad Gateway</html>", content_type="text/html")], "no choices"),
    "runaway reply": ([Reply(body=chat_completion(RUNAWAY))], ""),
}
GOOD = Reply(body=chat_completion('{"reason": "完成了", "reward": 4}'))


class _Faulty:
    """Answers requests about the instruction `good_for` well and all others with the fault's replies in turn."""

    def __init__(self, fault: list[Reply], good_for: str | None = None) -> None:
        self.fault, self.good_for, self.asked = list(fault), good_for, 0

    def __call__(self, seen: Seen) -> Reply:
        if self.good_for is not None and self.good_for in json.dumps(seen.body, ensure_ascii=False):
            return GOOD
        reply = self.fault[min(self.asked, len(self.fault) - 1)]
        self.asked += 1
        return reply


def judge(data_dir: Path, base_url: str) -> tuple[int, dict, str]:
    """`annotator judge run`: its exit status, its JSON summary and all it printed."""
    args = ["--data-dir", str(data_dir), "judge", "run", "--base-url", base_url, "--model", "judge"]
    result = CliRunner().invoke(cli, [*args, "--timeout", "1", "--retries", "1", "--concurrency", "1", "--json"])
    summary = next(line for line in result.output.splitlines() if line.startswith("{"))
    return result.exit_code, json.loads(summary), result.output


@pytest.mark.parametrize("fault", FAULTS)
def test_a_judge_run_records_the_failure_exits_1_and_the_next_run_asks_only_about_the_unscored(
    tmp_path: Path, fault: str, new_workspace: NewWorkspace
) -> None:
    data_dir = tmp_path / "data"
    with new_workspace(data_dir) as workspace:
        scored = add_trajectory(workspace, "设置", "打开蓝牙", 2)
        failing = add_trajectory(workspace, "设置", "关闭飞行模式", 2, seed=1)
    replies, says = FAULTS[fault]
    with ChatServer([], respond=_Faulty(replies, good_for="打开蓝牙")) as server:
        code, summary, output = judge(data_dir, server.base_url)
    assert code == 1 and "Not done: 1 of 2" in output
    assert (summary["scored"], summary["failed"]) == (1, 1)
    with Workspace.open(data_dir) as workspace, workspace.database.session() as session:
        rows = {row.trajectory_id: row for row in session.scalars(select(models.JudgeScore))}
    assert rows[scored].reward == 4 and rows[failing].reward is None and says in rows[failing].error
    raw = rows[failing].raw_reply or ""
    assert len(raw) < MAX_STORED_CHARS + 200  # a runaway reply is kept as its head and tail
    if fault == "runaway reply":
        assert f"{len(RUNAWAY):,} characters long" in rows[failing].error
        assert f"of {len(RUNAWAY):,} characters left out" in raw

    with ChatServer([GOOD]) as server:
        code, summary, _output = judge(data_dir, server.base_url)
        asked = len(server.seen)
    assert code == 0 and asked == 1  # the one scored before is not paid for again
    assert (summary["scored"], summary["skipped"], summary["failed"]) == (1, 1, 0)


@pytest.mark.parametrize("fault", FAULTS)
def test_agent_collection_ends_with_the_failure_recorded(
    workspace: Workspace, device: AndroidDevice, phone: VirtualPhone, fault: str
) -> None:
    replies, says = FAULTS[fault]
    instruction = instruction_by_uid("settings-wifi-off")
    row = collection.add_instruction(workspace.database, instruction.app, instruction.text)
    packages = {app.label: package for package, app in phone.apps.items()}
    with ChatServer([], respond=_Faulty(replies)) as server:
        client = LLMClient(LLMConfig(server.base_url, "agent", timeout_s=1, max_retries=1))
        decider = AgentDecider(client, reply_retries=2)
        collector = collection.Collector(CollectorKind.AGENT, agent_model="agent", agent_endpoint=server.base_url)
        run = CollectionRun(workspace, device, decider, settings=Settings(max_steps=3), packages=packages)
        with client:
            result = run.start(Task(row, instruction.text, instruction.app), collector)
        decider.close()
    with workspace.database.session() as session:
        trajectory = session.get(models.Trajectory, result.trajectory_id)
        assert trajectory is not None and trajectory.stop_reason
        steps = list(trajectory.steps)
    if fault == "runaway reply":  # three replies without an action: the run ends, each reply kept capped
        assert result.stop == StopKind.NO_ACTION and result.status == TrajectoryStatus.COMPLETE
        (step,) = steps
        stored = [step.model_reply or "", *(attempt["reply"] for attempt in step.attempts or [])]
        assert len(stored) == 3 and all(len(text) < MAX_STORED_CHARS + 200 for text in stored)
        assert [attempt["reply_chars"] for attempt in step.attempts or []] == [len(RUNAWAY)] * 2
    else:
        assert result.stop == StopKind.DECIDER_FAILED and result.status == TrajectoryStatus.INTERRUPTED
        assert says in trajectory.stop_reason and not steps
