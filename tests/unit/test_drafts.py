"""The rejection rule of model drafts (annotator.domain.drafts): which drafted action matches the executed one, which
draft is offered, what accepting one fills, and the edit ratio the statistics report."""

from __future__ import annotations

from datetime import datetime

import pytest

from annotator.domain.drafts import Draft, action_matches, edit_ratio, fill_values, offered_draft, swipe_direction
from annotator.domain.geometry import Box, ScreenSize

SCREEN = ScreenSize(1080, 2400)


def call(action: str, **arguments: object) -> dict:
    return {"name": "mobile_use", "arguments": {"action": action, **arguments}}


@pytest.mark.parametrize(
    ("drafted", "executed", "target", "matches"),
    [
        (call("click", coordinate=[540, 270]), call("click", coordinate=[540, 270]), None, True),
        (call("click", coordinate=[560, 300]), call("click", coordinate=[540, 270]), None, True),  # 4% of the screen
        (call("click", coordinate=[640, 270]), call("click", coordinate=[540, 270]), None, False),  # 100 px away
        # inside the executed element's box: a tap anywhere on it does the same; outside it, however close, does not
        (call("click", coordinate=[1000, 300]), call("click", coordinate=[540, 270]), Box(30, 211, 1062, 331), True),
        (call("click", coordinate=[540, 335]), call("click", coordinate=[540, 270]), Box(30, 211, 1062, 331), False),
        # a box that does not hold the executed point tells nothing: the distance decides
        (call("click", coordinate=[545, 275]), call("click", coordinate=[540, 270]), Box(0, 0, 10, 10), True),
        (call("long_press", coordinate=[540, 270]), call("click", coordinate=[540, 270]), None, False),
        (
            call("swipe", coordinate=[500, 1800], coordinate2=[520, 600]),
            call("swipe", coordinate=[540, 2000], coordinate2=[540, 400]),
            None,
            True,
        ),  # both up
        (
            call("swipe", coordinate=[500, 600], coordinate2=[520, 1800]),
            call("swipe", coordinate=[540, 2000], coordinate2=[540, 400]),
            None,
            False,
        ),
        (call("type", text=" iPhone  16 "), call("type", text="iphone 16"), None, True),
        (call("type", text="ＡＢＣ"), call("type", text="abc"), None, True),  # NFKC: full-width letters
        (call("type", text="蓝牙耳机"), call("type", text="耳机"), None, False),
        (call("open", text="优选商城"), call("open", text="优选商城 "), None, True),
        (call("system_button", button="Back"), call("system_button", button="Back"), None, True),
        (call("system_button", button="Home"), call("system_button", button="Back"), None, False),
        (call("wait", time=1), call("wait", time=3), None, True),
        (call("terminate", status="success"), call("terminate", status="failure"), None, False),
        ({"name": "mobile_use", "arguments": {"action": "click"}}, call("click", coordinate=[1, 1]), None, False),
        (call("click", coordinate=[1, 1]), None, None, False),
    ],
)
def test_the_rejection_rule(drafted: dict, executed: dict | None, target: Box | None, matches: bool) -> None:
    assert action_matches(drafted, executed, SCREEN, target=target) is matches


def test_swipe_direction_is_the_dominant_axis() -> None:
    assert [swipe_direction((0, 0), end) for end in [(10, 2), (-10, 2), (2, 10), (2, -10), (5, 5)]] == [
        "right",
        "left",
        "down",
        "up",
        "down",
    ]


def draft(draft_id: int, matched: bool = True, problem: str | None = None, minute: int = 0, **values: object) -> Draft:
    stages = {"think": "想", "action_text": "点", "tool_call": call("click", coordinate=[1, 1])} | values
    return Draft(
        draft_id,
        "m",
        "p",
        **stages,
        matches_executed=matched,
        problem=problem,
        created_at=datetime(2026, 1, 1, 0, minute),
    )


def test_the_offered_draft_is_the_newest_that_matched() -> None:
    assert offered_draft([]) is None
    assert offered_draft([draft(1, matched=False), draft(2, problem="unreadable")]) is None
    assert offered_draft([draft(1, minute=5), draft(2, minute=9), draft(3, matched=False, minute=20)]).id == 2


def test_accepting_fills_only_the_empty_stages() -> None:
    proposed = draft(1, think="草稿想法", action_text="草稿动作")
    filled = fill_values(proposed, {"think": "人写的", "action_text": "  ", "tool_call": None})
    assert filled == {"action_text": "草稿动作", "tool_call": call("click", coordinate=[1, 1])}
    empty = {"think": None, "action_text": None}
    assert fill_values(draft(2, think="", tool_call=None), empty) == {"action_text": "点"}


def test_the_edit_ratio_is_the_levenshtein_distance_over_the_longer_text() -> None:
    assert edit_ratio("点击搜索框", "点击搜索框") == 0.0
    assert edit_ratio("点击搜索框", "点击顶部搜索框") == pytest.approx(2 / 7)
    assert edit_ratio("kitten", "sitting") == pytest.approx(3 / 7)
    assert edit_ratio("", "全新") == 1.0 and edit_ratio("", "") == 0.0
