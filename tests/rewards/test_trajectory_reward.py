"""Mobile-R1's task-level reward R_task = R_Fmt + R_judge, against values worked out by hand, and its judge of
rollouts held in memory through the real judge module and the scripted endpoint."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.llm.client import LLMConfig
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import add_virtual_trajectory
from trainer_bridge.rewards import RECIPES, trajectory_reward, trl_rewards
from trainer_bridge.rewards.rollout_judge import RolloutJudge
from trainer_bridge.rewards.trajectory import format_term

OK = (
    '<think>看到首页</think><action>点击搜索框</action><tool_call>{"name": "mobile_use", "arguments": '
    '{"action": "click", "coordinate": [10, 20]}}</tool_call>'
)
BAD = "<think>没有动作</think>"


@pytest.mark.parametrize(
    ("replies", "expected"),
    [([OK, OK, OK, OK], 1.0), ([OK, OK, OK, BAD], 0.5), ([OK, BAD], 0.0), ([BAD, BAD], -1.0), ([], -1.0)],
)
def test_the_format_term_maps_the_mean_format_reward_to_minus_one_to_one(replies: list[str], expected: float) -> None:
    assert format_term(replies) == pytest.approx(expected)


def test_the_phone_check_wins_over_a_judge_score_and_the_score_counts_a_quarter_a_level() -> None:
    rollouts = [[OK, OK], [OK, OK], [OK, BAD], [OK, OK], [OK]]
    found = trajectory_reward(rollouts, task_success=[True, False, None, None, None], judge_score=[0, 4, 3, 0, None])
    assert found == [2.0, 1.0, 0.75, 1.0, None]  # 1 + 1, 1 + 0, 0 + 3/4, 1 + 0/4, no outcome: not applicable


def test_chat_message_rollouts_count_only_the_assistant_turns() -> None:
    parts = [{"type": "text", "text": BAD}]
    chat = [
        {"role": "user", "content": "屏幕"},
        {"role": "assistant", "content": OK},
        {"role": "user", "content": "屏幕"},
        {"role": "assistant", "content": parts},
    ]
    assert trajectory_reward([chat], judge_score=[4]) == [0.0 + 1.0]


@given(
    st.lists(st.one_of(st.none(), st.integers(), st.text(), st.lists(st.text()), st.dictionaries(st.text(), st.text())))
)
def test_malformed_rollouts_stay_in_range_and_never_raise(rollouts: list) -> None:
    scores = trajectory_reward(rollouts, judge_score=[2] * len(rollouts))
    assert all(score is not None and -1.0 <= score <= 2.0 for score in scores)


def test_a_judge_score_out_of_the_rubric_is_no_outcome() -> None:
    assert trajectory_reward([[OK], [OK]], judge_score=[5, True]) == [None, None]


def test_the_recipe_has_the_two_terms_weighted_one_and_one() -> None:
    funcs, weights = trl_rewards("mobile-r1-task")
    assert [fn.__name__ for fn in funcs] == ["trajectory_format_reward", "task_outcome_reward"] and weights == [1, 1]
    assert RECIPES["mobile-r1-task"].paper.startswith("Mobile-R1")
    terms = [fn([[OK, BAD]], judge_score=[2])[0] for fn in funcs]
    assert sum(terms) == trajectory_reward([[OK, BAD]], judge_score=[2])[0] == 0.5


@pytest.mark.slow
def test_a_rollout_in_memory_is_judged_by_the_project_judge(workspace: Workspace) -> None:
    done = load_trajectory(workspace.database, add_virtual_trajectory(workspace, "video-pause"))
    gave_up = load_trajectory(workspace.database, add_virtual_trajectory(workspace, "video-pause", actions_done=1))
    rollouts, screens = [], []
    for stored in (done, gave_up):
        rollouts.append(replace(stored, id=None, uid=None, steps=tuple(replace(s, id=None) for s in stored.steps)))
        screens.append([workspace.blobs.read_bytes(step.screenshot_sha256) for step in stored.executed])
    with ScriptedEndpoint() as endpoint:
        judge = RolloutJudge(LLMConfig(endpoint.base_url, "scripted", timeout_s=30))
        scores = [judge(rollout, pngs) for rollout, pngs in zip(rollouts, screens, strict=True)]
        rewards = trajectory_reward([[OK] * 3, [OK, BAD]], judge=judge, trajectory=rollouts, screenshots=screens)
    assert scores[0] >= 3 > scores[1]  # the solution played out, against a run that gave up after one action
    assert rewards == [1.0 + scores[0] / 4, 0.0 + scores[1] / 4]
