"""The judge takes a trajectory, not a database row: a rollout held only in memory is judged with exactly the
messages a stored copy of it gets, through the real openai client against a loopback server."""

from __future__ import annotations

from dataclasses import replace

import pytest

from annotator.domain.judge_settings import ImagePolicy, JudgeSettings, builtin_prompt
from annotator.domain.trajectory import LabelledTrajectory
from annotator.judge.runner import JudgeRunner, judge_messages, judge_trajectory
from annotator.judge.screens import MemoryScreens, ScreenCache
from annotator.llm.client import LLMConfig
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, chat_completion
from tests.factories import add_trajectory

SETTINGS = JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "judge-model", images=ImagePolicy(max_side=512))


def in_memory_copy(
    workspace: Workspace, trajectory_id: int
) -> tuple[LabelledTrajectory, LabelledTrajectory, MemoryScreens]:
    """The stored trajectory as a rollout would hold it: no ids, its screenshots as bytes."""
    stored = load_trajectory(workspace.database, trajectory_id)
    rollout = replace(stored, id=None, uid=None, steps=tuple(replace(step, id=None) for step in stored.steps))
    pngs = [workspace.blobs.read_bytes(step.screenshot_sha256) for step in stored.executed]
    return stored, rollout, MemoryScreens.of(pngs)


def test_a_rollout_in_memory_gets_the_messages_of_its_stored_copy(workspace: Workspace) -> None:
    trajectory_id = add_trajectory(workspace, "设置", "打开蓝牙", 4, seed=2)
    stored, rollout, screens = in_memory_copy(workspace, trajectory_id)
    expected = judge_messages(stored, SETTINGS, ScreenCache(workspace.blobs, None))
    assert judge_messages(rollout, SETTINGS, screens) == expected
    assert expected[1] == 4  # the start screen and the screens after the first three steps


def test_a_rollout_in_memory_is_scored_and_nothing_is_stored(workspace: Workspace) -> None:
    trajectory_id = add_trajectory(workspace, "设置", "打开蓝牙", 3, seed=2)
    _stored, rollout, screens = in_memory_copy(workspace, trajectory_id)
    with ChatServer([Reply(body=chat_completion('{"reason": "完成了任务", "reward": 4}'))]) as server:
        endpoint = LLMConfig(server.base_url, "ignored", timeout_s=10)
        score = judge_trajectory(rollout, SETTINGS, endpoint, screens)
        runner = JudgeRunner(workspace, SETTINGS, endpoint)
        runner.run([trajectory_id])
    assert (score.reward, score.reason, score.images) == (4, "完成了任务", 3)
    in_memory, from_the_store = (seen.body["messages"] for seen in server.seen)
    assert in_memory == from_the_store  # the same request, whether the trajectory is stored or not
    assert server.seen[0].body["model"] == "judge-model"


def test_a_screenshot_the_rollout_lacks_is_a_clear_error(workspace: Workspace) -> None:
    trajectory_id = add_trajectory(workspace, "设置", "打开蓝牙", 2, seed=2)
    _stored, rollout, _screens = in_memory_copy(workspace, trajectory_id)
    with pytest.raises(ValueError, match="no screenshot"):
        judge_messages(rollout, SETTINGS, MemoryScreens({}))
