"""Every reward stays in its range and never raises, whatever the completion and the columns."""

from __future__ import annotations

import doctest
import importlib
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rewards.calls import answer, mobile, truth
from trainer_bridge.rewards import REWARDS, continuous_grounding_reward

RANGES = {name: (0.0, 1.0) for name in REWARDS} | {
    "continuous_grounding_reward": (0.0, 2.0),
    "simple_thinking_reward": (0.0, 1.2),
}
MALFORMED = [
    "",
    "<think>",
    "<tool_call>{</tool_call>",
    "<tool_call>" + "[" * 5000 + "</tool_call>",  # deeper than json can nest
    '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [NaN, 1]}}</tool_call>',
    '<answer>{"action": "click", "coordinate": [1e999, 1]}</answer>',
    '<answer>[{"action": "type", "text": 5}]</answer>',
    '<answer>"bbox_2d": [1, 2, "3", 4]</answer>',
    "<think>x</think><answer>{'action': 'click'}</answer>",
    None,
    42,
    [{"role": "user", "content": "only a user"}],
    [{"role": "assistant", "content": None}],
    {"role": "assistant", "content": [{"type": "image"}]},
]
MALFORMED_COLUMNS = {
    "gt_action_model": ["{not json", None, '{"name": "x"}', "[]", 7],
    "gt_action_type": [None, "click", "click", 3, "type"],
    "gt_text": [None, None, 5, None, None],
    "gt_bbox_model": ["[1, 2", [3, 2, 1, 0], [1, 2, 3], ["a", 1, 2, 3], [math.nan, 0, 1, 1]],
    "image_size": [None, [0, 0], "[1, 2]", [math.inf, 5], ["a", "b"]],
}


@pytest.mark.parametrize("name", sorted(REWARDS))
def test_malformed_completions_score_zero_and_never_raise(name: str) -> None:
    # A row the reward applies to: a typed text for the text reward, a click in a box for the others.
    if name == "text_f1_reward":
        columns = truth("type", None, text="红色跑鞋")
    else:
        columns = truth("click", [0.0, 0.0, 10.0, 10.0], coordinate=[5, 5])
    scores = REWARDS[name](MALFORMED, **{k: v * len(MALFORMED) for k, v in columns.items()})
    assert scores == [0.0] * len(MALFORMED)


@pytest.mark.parametrize("name", sorted(REWARDS))
def test_malformed_columns_never_raise(name: str) -> None:
    completions = [mobile("click", coordinate=[1, 1]), answer("type", text="x")] + ["junk"] * 3
    scores = REWARDS[name](completions, **MALFORMED_COLUMNS)
    assert len(scores) == 5 and all(s is None or 0.0 <= s <= RANGES[name][1] for s in scores)


def test_missing_columns_mean_not_applicable_or_zero() -> None:
    for name, reward in REWARDS.items():
        scores = reward([mobile("click", coordinate=[1, 1])])
        assert scores in ([None], [0.0], [1.0]), name


coordinates = st.floats(-50, 1100, allow_nan=False)
boxes = st.tuples(st.floats(0, 500), st.floats(0, 500), st.floats(0, 500), st.floats(0, 500)).map(
    lambda b: [min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])]
)


@settings(max_examples=150, deadline=None)
@given(
    action=st.sampled_from(["click", "long_press", "swipe", "type", "system_button"]),
    x=coordinates,
    y=coordinates,
    box=st.none() | boxes,
    text=st.text(max_size=30),
    think=st.text(max_size=300),
)
def test_every_reward_stays_in_its_range(
    action: str, x: float, y: float, box: list[float] | None, text: str, think: str
) -> None:
    arguments = {
        "click": {"coordinate": [x, y]},
        "long_press": {"coordinate": [x, y]},
        "swipe": {"coordinate": [x, y], "coordinate2": [y, x]},
        "type": {"text": text},
        "system_button": {"button": "Back"},
    }[action]
    completions = [mobile(action, think=think, **arguments), answer(action, think=think, **arguments), think]
    columns = truth("click", box, coordinate=[250, 250])
    for name, reward in REWARDS.items():
        low, high = RANGES[name]
        for score in reward(completions, **{k: v * 3 for k, v in columns.items()}):
            assert score is None or low <= score <= high, (name, score)


# Whole-pixel boxes: with a corner like 1e-38 the point "centre - half height" rounds to just off the box.
pixel_boxes = st.tuples(*[st.integers(0, 2000)] * 4).map(
    lambda b: [min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])]
)


@settings(max_examples=200, deadline=None)
@given(
    box=pixel_boxes, t1=st.floats(0, 1), t2=st.floats(0, 1), sx=st.sampled_from([-1, 1]), sy=st.sampled_from([-1, 1])
)
def test_continuous_grounding_is_two_at_the_centre_and_falls_outward(
    box: list[float], t1: float, t2: float, sx: int, sy: int
) -> None:
    """Along any ray from the centre the reward does not grow; it is 2 at the centre."""
    cx, cy, hw, hh = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    near, far = sorted((t1, t2))
    points = [(cx, cy), (cx + sx * near * hw, cy + sy * near * hh), (cx + sx * far * hw, cy + sy * far * hh)]
    completions = [answer("click", coordinate=list(p)) for p in points]
    centre, closer, further = continuous_grounding_reward(completions, gt_action_type=["click"] * 3, gt_bbox=[box] * 3)
    assert centre == 2.0
    assert 2.0 >= closer >= further >= 1 + math.exp(-4) - 1e-12


MODULES = ["completions", "geometry", "grounding", "action", "text", "format", "thinking", "recipes", "trajectory"]


@pytest.mark.parametrize("module", MODULES)
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"trainer_bridge.rewards.{module}"))
    assert result.failed == 0 and result.attempted > 0
