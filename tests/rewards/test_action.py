from __future__ import annotations

from collections import Counter

import pytest

from tests.rewards.calls import answer, mobile, truth
from trainer_bridge.rewards import action_reward, action_type_reward, grounding_rules

BOX = [100.0, 200.0, 300.0, 400.0]


@pytest.mark.parametrize(
    ("point", "expected"),
    [([100, 200], 1.0), ([300, 400], 1.0), ([200, 300], 1.0), ([99.5, 300], 0.0), ([200, 400.5], 0.0)],
)
def test_a_click_scores_inside_the_box_edges_included(point: list[float], expected: float) -> None:
    columns = truth("click", BOX, coordinate=[150, 250])
    assert action_reward([mobile("click", coordinate=point)], **columns) == [expected]


def test_the_action_type_must_match_for_a_coordinate_action() -> None:
    columns = truth("click", BOX, coordinate=[150, 250])
    assert action_reward([mobile("long_press", coordinate=[150, 250])], **columns) == [0.0]


def test_a_swipe_needs_its_start_in_the_box_and_the_same_direction() -> None:
    columns = truth("swipe", BOX, coordinate=[200, 350], coordinate2=[200, 100])  # up
    same = mobile("swipe", coordinate=[120, 390], coordinate2=[150, 0])
    opposite = mobile("swipe", coordinate=[120, 390], coordinate2=[120, 900])
    outside = mobile("swipe", coordinate=[50, 390], coordinate2=[50, 0])
    assert action_reward([same, opposite, outside], **{k: v * 3 for k, v in columns.items()}) == [1.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("gt", "predicted", "expected"),
    [
        (("type", {"text": "红色跑鞋"}), ("type", {"text": "红色跑鞋"}), 1.0),
        (("type", {"text": "红色跑鞋"}), ("type", {"text": "红色跑鞋 "}), 0.0),
        (("key", {"text": "volume_up"}), ("key", {"text": "KEYCODE_VOLUME_UP"}), 1.0),
        (("key", {"text": "volume_up"}), ("key", {"text": "volume_down"}), 0.0),
        (("system_button", {"button": "Back"}), ("system_button", {"button": "Back"}), 1.0),
        (("system_button", {"button": "Back"}), ("system_button", {"button": "Home"}), 0.0),
        (("terminate", {"status": "success"}), ("terminate", {"status": "failure"}), 0.0),
        (("open", {"text": "淘宝"}), ("open", {"text": "淘宝"}), 1.0),
        (("wait", {"time": 2}), ("wait", {"time": 1}), 1.0),
        (("type", {"text": "a"}), ("open", {"text": "a"}), 0.0),
    ],
)
def test_other_actions_match_exactly(gt: tuple, predicted: tuple, expected: float) -> None:
    columns = truth(gt[0], None, **gt[1])
    assert action_reward([mobile(predicted[0], **predicted[1])], **columns) == [expected]


def test_without_a_box_the_14_percent_of_width_rule_applies_and_is_counted() -> None:
    columns = truth("click", None, coordinate=[500, 1000])  # image 1000 wide: radius 140
    rules: Counter[str] = Counter()
    on_circle = mobile("click", coordinate=[500, 1140])
    beyond = mobile("click", coordinate=[500, 1141])
    both = {k: v * 2 for k, v in columns.items()}
    assert action_reward([on_circle, beyond], stats=rules, **both) == [1.0, 0.0]
    assert rules == Counter({"distance": 2})
    assert grounding_rules(["", ""], **both) == ["distance", "distance"]


def test_the_distance_rule_in_a_relative_space_measures_in_image_pixels() -> None:
    columns = truth("click", None, coordinate=[500, 500]) | {"image_size": [[1000, 2000]]}
    # 0-1000 on both axes: 70 units down are 140 pixels of a 2000-pixel-high image, on the circle.
    assert action_reward([mobile("click", coordinate=[500, 570])], extent=(1000, 1000), **columns) == [1.0]
    assert action_reward([mobile("click", coordinate=[500, 571])], extent=(1000, 1000), **columns) == [0.0]


def test_plain_columns_are_used_when_the_model_columns_are_absent() -> None:
    columns = truth("click", BOX, coordinate=[150, 250])
    plain = {"gt_action": columns["gt_action_model"], "gt_bbox": columns["gt_bbox_model"]}
    assert action_reward([answer("click", coordinate=[150, 250])], **plain) == [1.0]


def test_a_row_without_box_or_size_is_counted_apart_and_scores_zero() -> None:
    columns = {"gt_action_type": ["click"], "gt_bbox": [None]}
    rules: Counter[str] = Counter()
    assert action_reward([mobile("click", coordinate=[1, 1])], stats=rules, **columns) == [0.0]
    assert rules == Counter({"none": 1})


def test_action_type_counts_the_button_as_part_of_the_type() -> None:
    columns = truth("system_button", None, button="Home")
    home, back = mobile("system_button", button="Home"), mobile("system_button", button="Back")
    click = mobile("click", coordinate=[1, 1])
    rows = {k: v * 3 for k, v in columns.items()}
    assert action_type_reward([home, back, click], **rows) == [1.0, 0.0, 0.0]
    assert action_type_reward([click], **truth("click", BOX, coordinate=[9, 9])) == [1.0]
    assert action_type_reward([click], gt_action_type=[None]) == [None]
