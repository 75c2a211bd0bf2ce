from __future__ import annotations

import pytest

from tests.rewards.calls import answer, mobile
from trainer_bridge.rewards import format_reward, think_answer_format_reward

GOOD = mobile("click", coordinate=[10, 20])


def test_a_well_formed_reply_scores_one_in_every_completion_form() -> None:
    chat = [{"role": "user", "content": "go"}, {"role": "assistant", "content": GOOD}]
    parts = [{"role": "assistant", "content": [{"type": "text", "text": GOOD}]}]
    assert format_reward([GOOD, chat, parts]) == [1.0, 1.0, 1.0]


@pytest.mark.parametrize(
    "reply",
    [
        GOOD + "\nThanks",  # text outside the tags
        "Sure. " + GOOD,
        GOOD.replace("<action>\nDo it\n</action>\n", ""),  # a part missing
        GOOD.replace("</think>", "</think><think>again</think>"),  # a part twice
        GOOD.replace("<think>\nThe button is at the top.\n</think>\n", "") + "<think>late</think>",  # order
        GOOD.replace('"mobile_use"', '"computer_use"'),  # not the mobile_use tool
        GOOD.replace('"click"', '"tap"'),  # not an action
        GOOD.replace('"coordinate": [10, 20]', '"coordinate": [10]'),  # a bad argument
        GOOD.replace("</tool_call>", ""),  # unclosed
        GOOD.replace("The button is at the top.", " "),  # an empty part
        "",
    ],
)
def test_any_format_fault_scores_zero(reply: str) -> None:
    assert format_reward([reply]) == [0.0]


def test_think_answer_format() -> None:
    good = answer("click", coordinate=[1, 2])
    box = '<think>The icon.</think><answer>{"bbox_2d": [1, 2, 3, 4]}</answer>'
    listed = '<think>t</think> <answer>[{"action": "system_button", "button": "Back"}]</answer>'
    assert think_answer_format_reward([good, box, listed]) == [1.0, 1.0, 1.0]
    bad = [
        good + "!",
        good.replace("<think>Tap it.</think>", ""),
        good + good,
        good.replace('"click"', '"tap"'),
        "<think></think><answer>{}</answer>",
        GOOD,
    ]
    assert think_answer_format_reward(bad) == [0.0] * len(bad)
