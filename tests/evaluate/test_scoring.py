"""One reply against its step's truth, worked out by hand in the 0-1000 space of Qwen2-VL."""

from __future__ import annotations

import json

import pytest

from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import model_space
from trainer_bridge.evaluate.scoring import score_reply

SPACE = model_space("qwen2-vl", image_scale=1.0)
SCREEN = ScreenSize(1080, 2400)
# The labelled click at (540, 1200) device pixels is (500, 500); its box [432, 1080, 648, 1320] is [400, 450, 600, 550].
CLICK_TRUTH = {
    "gt_action_model": json.dumps({"name": "mobile_use", "arguments": {"action": "click", "coordinate": [500, 500]}}),
    "gt_action_type": "click",
    "gt_bbox_model": [400, 450, 600, 550],
    "gt_text": None,
}


def reply(action: dict) -> str:
    call = json.dumps({"name": "mobile_use", "arguments": action}, ensure_ascii=False)
    return f"<think>\n看到搜索框\n</think>\n<action>\n点击搜索框\n</action>\n<tool_call>\n{call}\n</tool_call>"


def test_a_point_in_the_box_is_right_by_every_rule_and_comes_back_in_device_pixels() -> None:
    found = score_reply(reply({"action": "click", "coordinate": [550, 520]}), CLICK_TRUTH, SPACE, SCREEN)
    assert (found.format_ok, found.type_match, found.exact_match, found.grounded, found.step_success) == (
        True,
        True,
        True,
        True,
        True,
    )
    assert found.predicted == {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [594, 1248]}}


@pytest.mark.parametrize(
    ("x", "near"),
    [(630, True), (650, False)],  # 130 / 1000 of the width is within 14% of it; 150 / 1000 is not
)
def test_a_point_outside_the_box_is_still_grounded_within_fourteen_percent_of_the_width(x: int, near: bool) -> None:
    found = score_reply(reply({"action": "click", "coordinate": [x, 500]}), CLICK_TRUTH, SPACE, SCREEN)
    assert found.exact_match is False  # R_Act: outside the target box
    assert found.grounded is near and found.step_success is near  # the AndroidControl rule
    assert found.type_match is True


def test_a_point_on_the_box_edge_is_inside() -> None:
    found = score_reply(reply({"action": "click", "coordinate": [600, 550]}), CLICK_TRUTH, SPACE, SCREEN)
    assert found.exact_match is True


def test_typed_text_has_no_grounding_and_must_match_exactly() -> None:
    truth = {
        "gt_action_model": json.dumps({"name": "mobile_use", "arguments": {"action": "type", "text": "纸巾"}}),
        "gt_action_type": "type",
        "gt_bbox_model": None,
        "gt_text": "纸巾",
    }
    right = score_reply(reply({"action": "type", "text": "纸巾"}), truth, SPACE, SCREEN)
    wrong = score_reply(reply({"action": "type", "text": "纸"}), truth, SPACE, SCREEN)
    assert (right.exact_match, right.grounded, wrong.exact_match, wrong.type_match) == (True, None, False, True)


@pytest.mark.parametrize("junk", ["", "随便说点什么", "<think>x</think><tool_call>{not json</tool_call>", "<" * 5000])
def test_a_malformed_reply_scores_nothing_and_never_raises(junk: str) -> None:
    found = score_reply(junk, CLICK_TRUTH, SPACE, SCREEN)
    assert not (found.format_ok or found.type_match or found.exact_match or found.grounded or found.step_success)
    assert found.predicted is None


def test_the_right_action_without_the_format_is_an_exact_match_but_no_format() -> None:
    bare = '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [500, 500]}}</tool_call>'
    found = score_reply(bare, CLICK_TRUTH, SPACE, SCREEN)
    assert found.format_ok is False and found.exact_match is True
