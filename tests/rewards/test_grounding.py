from __future__ import annotations

import math

import pytest

from tests.rewards.calls import answer, mobile, truth
from trainer_bridge.rewards import continuous_grounding_reward, iou_reward, point_in_box_reward

BOX = [0.0, 0.0, 20.0, 10.0]  # centre (10, 5), half width 10, half height 5


def click(x: float, y: float) -> str:
    return answer("click", coordinate=[x, y])


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ((10, 5), 2.0),  # the centre: d = 0
        ((15, 5), 1 + math.exp(-1)),  # d = 5/10 = 0.5
        ((10, 7.5), 1 + math.exp(-1)),  # d = 2.5/5 = 0.5: the square contour
        ((15, 7.5), 1 + math.exp(-1)),  # Chebyshev: the larger of 0.5 and 0.5
        ((18, 6), 1 + math.exp(-4 * 0.8**2)),  # max(0.8, 0.2)
        ((20, 10), 1 + math.exp(-4)),  # the corner, on the edge: d = 1
        ((20.01, 5), 0.0),  # just outside
    ],
)
def test_continuous_grounding_follows_eq_3_and_4(point: tuple[float, float], expected: float) -> None:
    columns = truth("click", BOX, coordinate=[10, 5])
    assert continuous_grounding_reward([click(*point)], **columns) == [pytest.approx(expected, abs=1e-12)]


def test_continuous_grounding_on_a_line_box_does_not_divide_by_zero() -> None:
    columns = truth("click", [5.0, 0.0, 5.0, 10.0], coordinate=[5, 5])
    assert continuous_grounding_reward([click(5, 5), click(5, 10)], **{k: v * 2 for k, v in columns.items()}) == [
        2.0,
        pytest.approx(1 + math.exp(-4)),
    ]


def test_point_in_box_edges_included_and_not_applicable_rows() -> None:
    columns = truth("click", BOX, coordinate=[10, 5])
    assert point_in_box_reward(
        [click(0, 0), click(20, 10), click(20.5, 10)], **{k: v * 3 for k, v in columns.items()}
    ) == [
        1.0,
        1.0,
        0.0,
    ]
    assert point_in_box_reward([click(1, 1)], **truth("type", None, text="x")) == [None]
    assert point_in_box_reward([click(1, 1)], **truth("click", None, coordinate=[1, 1])) == [None]
    # The action type is R_T's business: a long press on the element is on the element.
    assert point_in_box_reward([mobile("long_press", coordinate=[1, 1])], **columns) == [1.0]


@pytest.mark.parametrize(
    ("box", "expected"),
    [
        ([0, 0, 10, 10], 1.0),  # IoU 1
        ([0, 0, 10, 7], 1.0),  # IoU = 70/100 = tau exactly
        ([0, 0, 10, 3.5], 0.5),  # IoU 0.35: 0.35 / 0.7
        ([5, 0, 15, 10], (50 / 150) / 0.7),  # IoU 1/3
        ([20, 20, 30, 30], 0.0),  # no overlap
    ],
)
def test_iou_reward_is_one_from_tau_and_scaled_below(box: list[float], expected: float) -> None:
    completion = f'<think>The icon.</think><answer>{{"bbox_2d": {box}}}</answer>'
    assert iou_reward([completion], gt_bbox_model=[[0, 0, 10, 10]]) == [pytest.approx(expected)]


def test_iou_threshold_is_a_parameter_and_a_missing_box_scores_zero() -> None:
    half = '<answer>{"bbox": [0, 0, 10, 5]}</answer>'
    assert iou_reward([half], iou_threshold=0.5, gt_bbox=[[0, 0, 10, 10]]) == [1.0]
    assert iou_reward([mobile("click", coordinate=[1, 1])], gt_bbox=[[0, 0, 10, 10]]) == [0.0]
    assert iou_reward([half], gt_bbox=[None]) == [None]
