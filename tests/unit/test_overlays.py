"""What the canvas draws for each action of the mobile_use space, and for broken calls (no Qt needed)."""

from __future__ import annotations

from typing import Any

import pytest

from annotator.domain.geometry import Box
from annotator.ui.annotate.overlays import Overlays, overlays_for, region_at


def call(action: str, **arguments: Any) -> dict[str, Any]:
    return {"name": "mobile_use", "arguments": {"action": action, **arguments}}


def test_a_click_is_a_point_and_keeps_the_target_box() -> None:
    shapes = overlays_for(call("click", coordinate=[540, 1200]), [100, 1100, 980, 1300])
    assert shapes == Overlays(point=(540.0, 1200.0), kind="click", box=(100.0, 1100.0, 980.0, 1300.0))


def test_a_long_press_is_a_point_with_its_hold_time() -> None:
    shapes = overlays_for(call("long_press", coordinate=[300, 640], time=2), None)
    assert (shapes.point, shapes.kind, shapes.seconds, shapes.caption) == (
        (300.0, 640.0),
        "long_press",
        2.0,
        "long_press 2 s",
    )
    untimed = overlays_for(call("long_press", coordinate=[300, 640]), None)
    assert (untimed.point, untimed.seconds, untimed.caption) == ((300.0, 640.0), None, "long_press")


def test_a_swipe_is_an_arrow_from_its_start_to_its_end() -> None:
    shapes = overlays_for(call("swipe", coordinate=[540, 1800], coordinate2=[540, 600]), None)
    assert (shapes.point, shapes.end, shapes.kind, shapes.caption) == ((540.0, 1800.0), (540.0, 600.0), "swipe", None)


@pytest.mark.parametrize(
    ("arguments", "caption"),
    [
        ({"action": "type", "text": "蓝牙"}, 'type "蓝牙"'),
        ({"action": "key", "text": "volume_up"}, 'key "volume_up"'),
        ({"action": "open", "text": "淘宝"}, 'open "淘宝"'),
        ({"action": "system_button", "button": "Back"}, "Back"),
        ({"action": "wait", "time": 2}, "wait 2 s"),
        ({"action": "wait", "time": 0.5}, "wait 0.5 s"),
        ({"action": "terminate", "status": "success"}, "terminate success"),
        ({"action": "terminate", "status": "failure"}, "terminate failure"),
    ],
)
def test_actions_without_a_place_draw_a_caption_and_no_point(arguments: dict[str, Any], caption: str) -> None:
    shapes = overlays_for({"name": "mobile_use", "arguments": arguments}, None)
    assert (shapes.kind, shapes.caption, shapes.point, shapes.end) == (arguments["action"], caption, None, None)


def test_the_box_is_normalised_whichever_corners_it_names() -> None:
    assert overlays_for(None, (980, 1300, 100, 1100)).box == (100.0, 1100.0, 980.0, 1300.0)


def test_nothing_labelled_draws_nothing() -> None:
    shapes = overlays_for(None, None)
    assert shapes == Overlays() and shapes.empty


@pytest.mark.parametrize(
    "tool_call",
    [
        "not a dict",
        {"name": "mobile_use"},
        {"name": "mobile_use", "arguments": None},
        {"name": "mobile_use", "arguments": "{broken json"},
        {"name": "mobile_use", "arguments": {"coordinate": [1, 2]}},
        {"name": "mobile_use", "arguments": {"action": 7}},
    ],
)
def test_a_call_without_an_action_still_draws_the_box(tool_call: Any) -> None:
    assert overlays_for(tool_call, [0, 0, 10, 10]) == Overlays(box=(0.0, 0.0, 10.0, 10.0))


@pytest.mark.parametrize("coordinate", [None, [1], [1, 2, 3], ["a", 2], [True, 5], [float("nan"), 3], "540,1200"])
def test_a_click_with_a_bad_point_keeps_what_can_be_drawn(coordinate: Any) -> None:
    shapes = overlays_for(call("click", coordinate=coordinate), [1, 2, 3, 4])
    assert (shapes.kind, shapes.point, shapes.box) == ("click", None, (1.0, 2.0, 3.0, 4.0))


def test_a_swipe_with_a_bad_end_keeps_its_start() -> None:
    shapes = overlays_for(call("swipe", coordinate=[10, 20], coordinate2="up"), None)
    assert (shapes.point, shapes.end) == ((10.0, 20.0), None)


def test_bad_arguments_of_caption_actions_fall_back_to_the_action_name() -> None:
    assert overlays_for(call("type", text=5), None).caption == "type"
    assert overlays_for(call("wait", time=-1), None).caption == "wait"
    assert overlays_for(call("system_button", button=None), None).caption == "system_button"
    assert overlays_for(call("terminate"), None).caption == "terminate"


def test_arguments_written_as_a_json_string_are_read() -> None:
    shapes = overlays_for({"name": "mobile_use", "arguments": '{"action": "click", "coordinate": [5, 6]}'}, None)
    assert shapes.point == (5.0, 6.0)


def test_a_bad_box_is_left_out_and_the_action_still_drawn() -> None:
    for box in ([1, 2, 3], [1, 2, 3, "x"], "0,0,1,1", [1, 2, 3, float("inf")]):
        shapes = overlays_for(call("click", coordinate=[5, 6]), box)  # type: ignore[arg-type]
        assert (shapes.point, shapes.box) == ((5.0, 6.0), None)


def test_an_unknown_action_shows_its_name_and_its_point_is_not_guessed() -> None:
    shapes = overlays_for(call("double_tap", coordinate=[5, 6]), None)
    assert (shapes.kind, shapes.caption, shapes.point) == ("double_tap", "double_tap", None)


def test_long_typed_text_is_shortened_in_the_caption() -> None:
    caption = overlays_for(call("type", text="很" * 200), None).caption
    assert caption is not None and len(caption) < 100 and caption.endswith('…"')


def test_the_privacy_region_under_a_point_is_the_last_drawn_one() -> None:
    regions = [(0.0, 0.0, 100.0, 100.0), (50.0, 50.0, 200.0, 200.0)]
    assert region_at(regions, 10, 10) == 0
    assert region_at(regions, 60, 60) == 1  # both: the one on top
    assert region_at(regions, 200, 200) == 1  # edges belong to the region
    assert region_at(regions, 150, 20) is None and region_at([], 1, 1) is None


def test_a_labels_box_is_drawn_whatever_holds_its_numbers() -> None:
    assert overlays_for(call("click", coordinate=[5, 5]), Box(1.0, 2.0, 10.0, 20.0)).box == (1.0, 2.0, 10.0, 20.0)
    assert overlays_for(call("click", coordinate=[5, 5]), "1234").box is None
