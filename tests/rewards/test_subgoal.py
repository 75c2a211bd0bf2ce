"""InfiGUI-R1's sub-goal reward and R_agent (section 3.2.2), against the demo's scripted endpoint and a loopback
server whose answers a test lays out: the score / 10, the cache, failures that score 0 and never raise, and the
conditional combination of R_type, R_param and R_subgoal."""

from __future__ import annotations

import pytest

from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.domain.subgoal_prompt import read_subgoal_request, subgoal_messages
from tests.chat_server import ChatServer, Reply, chat_completion
from tests.rewards.calls import mobile, truth
from trainer_bridge.rewards.subgoal import SubgoalScorer, infigui_agent_reward_with, subgoal_reward_with

LABELLED = "<think>当前在首页</think><action>点击“搜索”</action><tool_call>{}</tool_call>"


@pytest.fixture(scope="module")
def endpoint():
    with ScriptedEndpoint() as running:
        yield running


def test_the_scripted_scorer_rates_a_matching_sub_goal_10_and_an_unrelated_one_lower(endpoint) -> None:
    scorer = SubgoalScorer(endpoint.base_url, "scripted")
    reward = subgoal_reward_with(scorer)
    completions = [mobile("click", think="下一步点击“搜索”打开搜索页", coordinate=[1, 2]),
                   mobile("click", think="向下滑动看看", coordinate=[1, 2]),
                   mobile("click", think=" ", coordinate=[1, 2])]  # fmt: skip
    scores = reward(completions, answer=[LABELLED] * 3)
    assert scores[0] == 1.0 and 0.1 <= scores[1] < 1.0 and scores[2] == 0.0  # no reasoning: S_raw = 0
    assert reward(completions[:1], gt_action_text=["打开搜索页"]) == [0.9]  # every character shared, nothing quoted
    assert reward(completions[:1]) == [None]  # no labelled sub-goal: not applicable
    assert scorer.failures == 0


def test_each_pair_is_asked_once_and_a_failure_scores_0_and_is_asked_again() -> None:
    replies = [
        Reply(body=chat_completion('{"subgoal": "搜索", "score": 7}')),
        Reply(status=500, body={"error": {}}),
        Reply(body=chat_completion('{"subgoal": "返回", "score": 3}')),
    ]
    with ChatServer(replies) as server:
        scorer = SubgoalScorer(server.base_url, "m", concurrency=1, max_retries=0)
        reward = subgoal_reward_with(scorer)
        group = [mobile("click", think="点搜索", coordinate=[1, 2])] * 4  # a GRPO group: one question
        assert reward(group, answer=[LABELLED] * 4) == [0.7] * 4
        assert len(server.seen) == 1
        other = [mobile("system_button", think="返回上一页", button="Back")]
        assert reward(other, answer=[LABELLED]) == [0.0] and scorer.failures == 1  # the 500: 0, not cached
        assert reward(other, answer=[LABELLED]) == [0.3] and len(server.seen) == 3


def test_the_agent_reward_takes_the_sub_goal_only_where_the_parameters_are_wrong(endpoint) -> None:
    scorer = SubgoalScorer(endpoint.base_url, "scripted")
    reward = infigui_agent_reward_with(scorer)
    columns = truth("click", box=[0, 0, 100, 100], coordinate=[50, 50]) | {"answer": [LABELLED]}
    right = mobile("click", think="点击“搜索”", coordinate=[50, 50])
    wrong_point = mobile("click", think="点击“搜索”", coordinate=[500, 500])
    wrong_type = mobile("system_button", think="返回", button="Back")
    rows = {name: values * 4 for name, values in columns.items()}
    scores = reward([right, wrong_point, wrong_type, "no format at all"], **rows)
    # right: w_t + w_p; a missed point with the right sub-goal: w_t + w_s * 10/10; the wrong type with an unrelated
    # sub-goal (the scripted scorer's lowest, 1): w_s * 0.1; no format: 0
    assert scores == pytest.approx([0.2 + 0.8, 0.2 + 0.2 * 1.0, 0.2 * 0.1, 0.0])


def test_the_request_is_known_by_its_marker_and_carries_both_texts() -> None:
    messages = subgoal_messages("我要点搜索", "点击“搜索”")
    assert read_subgoal_request(messages) == ("我要点搜索", "点击“搜索”")
    assert read_subgoal_request([{"role": "system", "content": "You are a judge"}]) is None


def test_the_prompt_modules_examples_hold() -> None:
    import doctest

    from annotator.domain import subgoal_prompt

    assert doctest.testmod(subgoal_prompt).failed == 0
