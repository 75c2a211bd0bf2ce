from __future__ import annotations

import math

import pytest

from tests.rewards.calls import mobile, truth
from trainer_bridge.rewards import ThinkingBounds, simple_thinking_reward, text_f1_reward
from trainer_bridge.rewards.text import token_f1, tokens
from trainer_bridge.rewards.thinking import length_reward


def test_tokens_are_characters_for_chinese_and_words_elsewhere() -> None:
    assert tokens("打开 Taobao, search 红色跑鞋!") == ["打", "开", "taobao", "search", "红", "色", "跑", "鞋"]


@pytest.mark.parametrize(
    ("typed", "gt", "f1", "reward"),
    [
        ("red shoes", "red running shoes", 0.8, 1.0),  # P 1, R 2/3
        ("shoes", "red shoes", 2 / 3, 1.0),
        ("shoes", "red running shoes", 0.5, 0.0),  # P 1, R 1/3: exactly 0.5 is not above it
        ("红色", "红色跑鞋", 2 / 3, 1.0),
        ("红", "红色跑鞋", 0.4, 0.0),
        ("blue", "red", 0.0, 0.0),
    ],
)
def test_text_f1_reward(typed: str, gt: str, f1: float, reward: float) -> None:
    assert token_f1(typed, gt) == pytest.approx(f1)
    assert text_f1_reward([mobile("type", text=typed)], **truth("type", None, text=gt)) == [reward]


def test_text_f1_is_not_applicable_to_other_actions_and_zero_without_text() -> None:
    assert text_f1_reward([mobile("click", coordinate=[1, 1])], **truth("click", None, coordinate=[1, 1])) == [None]
    assert text_f1_reward([mobile("click", coordinate=[1, 1])], **truth("type", None, text="hi")) == [0.0]


BOUNDS = ThinkingBounds(l_min=10, ideal_start=20, ideal_end=40, l_max=60, bonus=0.5)


@pytest.mark.parametrize(
    ("length", "expected"),
    [
        (10, 0.0),  # l_min: "otherwise"
        (15, 0.5),  # half way up: 0.5 (1 - cos(pi/2))
        (20, 1.0),  # exactly the ideal start: the ramp's top, 0.5 (1 - cos pi)
        (21, 1.0),
        (40, 1.0),  # the ideal end, included
        (50, 0.5),  # half way down
        (60, 0.0),  # l_max, excluded
        (5, 0.0),
        (99, 0.0),
        (12.5, 0.5 * (1 - math.cos(math.pi / 4))),
    ],
)
def test_length_reward_follows_eq_2(length: float, expected: float) -> None:
    assert length_reward(length, BOUNDS) == pytest.approx(expected, abs=1e-12)


class CharPairs:
    """A tokenizer that makes one token of every two characters."""

    def encode(self, text: str) -> list[int]:
        return list(range((len(text) + 1) // 2))


def test_simple_thinking_counts_characters_or_tokens_and_pays_the_bonus() -> None:
    columns = truth("click", [0.0, 0.0, 10.0, 10.0], coordinate=[5, 5])
    complete = mobile("click", think="x" * 19 + ".", coordinate=[5, 5])  # 20 characters, 10 pairs
    unfinished = mobile("click", think="x" * 20, coordinate=[5, 5])
    assert simple_thinking_reward([complete], bounds=BOUNDS, **columns) == [1.5]
    assert simple_thinking_reward([unfinished], bounds=BOUNDS, **columns) == [1.0]
    assert simple_thinking_reward([complete], bounds=BOUNDS, tokenizer=CharPairs(), **columns) == [0.5]


def test_simple_thinking_is_gated_on_grounding() -> None:
    columns = truth("click", [0.0, 0.0, 10.0, 10.0], coordinate=[5, 5])
    missed = mobile("click", think="x" * 19 + "。", coordinate=[50, 5])
    assert simple_thinking_reward([missed], bounds=BOUNDS, **columns) == [0.0]
    assert simple_thinking_reward(["no think at all"], bounds=BOUNDS, **columns) == [0.0]


def test_bounds_must_be_ordered() -> None:
    with pytest.raises(ValueError, match="l_min < ideal_start"):
        ThinkingBounds(l_min=30, ideal_start=20)
