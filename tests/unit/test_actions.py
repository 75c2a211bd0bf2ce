"""The mobile_use action space: parsing, canonical tool calls, and clear errors naming the field."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotator.domain import (
    ACTION_ARGUMENTS,
    ACTION_NAMES,
    ARGUMENT_NAMES,
    DEFAULT_LONG_PRESS_SECONDS,
    SYSTEM_BUTTONS,
    TERMINATE_STATUSES,
    ActionError,
    Click,
    Key,
    LongPress,
    Open,
    ScreenSize,
    Swipe,
    SystemButton,
    Terminate,
    Type,
    Wait,
    action_from_arguments,
    action_from_tool_call,
    check_action,
    normalize_key_name,
    validate_action,
)

SCREEN = ScreenSize(1080, 2400)


def call(**arguments: object) -> dict[str, object]:
    return {"name": "mobile_use", "arguments": arguments}


VALID = [
    (call(action="key", text="volume_up"), Key("volume_up")),
    (call(action="click", coordinate=[540, 1200]), Click((540, 1200))),
    (call(action="long_press", coordinate=[10, 20], time=3), LongPress((10, 20), 3)),
    (call(action="long_press", coordinate=[10, 20]), LongPress((10, 20))),
    (call(action="swipe", coordinate=[500, 1800], coordinate2=[500, 600]), Swipe((500, 1800), (500, 600))),
    (call(action="type", text="iPhone 16 Pro Max"), Type("iPhone 16 Pro Max")),
    (call(action="system_button", button="Back"), SystemButton("Back")),
    (call(action="open", text="淘宝"), Open("淘宝")),
    (call(action="wait", time=1.5), Wait(1.5)),
    (call(action="terminate", status="success"), Terminate("success")),
]


@pytest.mark.parametrize(("tool_call", "expected"), VALID, ids=lambda v: getattr(v, "name", None))
def test_every_action_parses_to_its_type_and_back(tool_call: dict, expected: object) -> None:
    action = action_from_tool_call(tool_call)
    assert action == expected
    assert action.to_tool_call() == tool_call
    assert action_from_arguments(tool_call["arguments"]) == expected


def test_every_action_name_has_a_parsed_example() -> None:
    assert {action.name for _, action in VALID} == set(ACTION_NAMES)


def test_tool_call_keys_come_out_in_canonical_order() -> None:
    arguments = {"coordinate2": [1, 2], "coordinate": [3, 4], "action": "swipe"}
    scrambled = {"arguments": arguments, "name": "mobile_use"}
    result = action_from_tool_call(scrambled).to_tool_call()
    assert list(result) == ["name", "arguments"]
    assert list(result["arguments"]) == ["action", "coordinate", "coordinate2"]


def test_numbers_keep_their_type() -> None:
    arguments = action_from_tool_call(call(action="click", coordinate=[540, 1200.5])).to_arguments()
    assert arguments["coordinate"] == [540, 1200.5]
    assert isinstance(arguments["coordinate"][0], int)
    assert isinstance(arguments["coordinate"][1], float)


def test_long_press_without_time_presses_for_the_default() -> None:
    assert LongPress((1, 2)).seconds == DEFAULT_LONG_PRESS_SECONDS
    assert LongPress((1, 2), 0.5).seconds == 0.5
    assert "time" not in LongPress((1, 2)).to_arguments()


_numbers = st.integers(-10, 5000) | st.floats(-10, 5000, allow_nan=False)
_ARGUMENT_VALUES = {
    "coordinate": st.lists(_numbers, min_size=2, max_size=2),
    "coordinate2": st.lists(_numbers, min_size=2, max_size=2),
    "text": st.text(),
    "time": _numbers,
    "button": st.sampled_from(SYSTEM_BUTTONS),
    "status": st.sampled_from(TERMINATE_STATUSES),
}


@st.composite
def tool_calls(draw: st.DrawFn) -> dict:
    name = draw(st.sampled_from(ACTION_NAMES))
    spec = ACTION_ARGUMENTS[name]
    keys = [*spec.required, *(key for key in spec.optional if draw(st.booleans()))]
    return call(action=name, **{key: draw(_ARGUMENT_VALUES[key]) for key in keys})


@pytest.mark.slow
@given(tool_calls(), st.randoms())
def test_any_well_typed_tool_call_round_trips_in_canonical_order(tool_call: dict, rng) -> None:
    items = list(tool_call["arguments"].items())
    rng.shuffle(items)
    action = action_from_tool_call({"arguments": dict(items), "name": "mobile_use"})
    assert action.to_tool_call() == tool_call
    keys = list(action.to_arguments())
    assert keys == ["action", *(key for key in ARGUMENT_NAMES if key in keys)]


PARSE_ERRORS = [
    ([1, 2], "tool_call", "is not a tool call"),
    ({"arguments": {"action": "click"}}, "name", 'missing; expected "mobile_use"'),
    ({"name": "computer_use", "arguments": {}}, "name", '"computer_use" is not the tool'),
    ({"name": "mobile_use"}, "arguments", "missing"),
    ({"name": "mobile_use", "arguments": "{}"}, "arguments", "is not an object"),
    ({"name": "mobile_use", "arguments": {"action": "wait", "time": 1}, "id": 3}, "id", "unexpected key"),
    (call(coordinate=[1, 2]), "arguments.action", "missing; expected one of key, click"),
    (call(action="tap", coordinate=[1, 2]), "arguments.action", '"tap" is not an action'),
    (call(action=["click"]), "arguments.action", "is not an action"),
    (call(action="click"), "arguments.coordinate", "missing; click takes coordinate"),
    (call(action="swipe", coordinate=[1]), "arguments.coordinate2", "swipe takes coordinate and coordinate2"),
    (call(action="type"), "arguments.text", "missing"),
    (call(action="key"), "arguments.text", "missing"),
    (call(action="open"), "arguments.text", "missing"),
    (call(action="wait"), "arguments.time", "missing; wait takes time"),
    (call(action="system_button"), "arguments.button", "missing"),
    (call(action="terminate"), "arguments.status", "missing"),
    (call(action="click", coordinate=[1, 2], text="x"), "arguments.text", "is not an argument of click"),
    (call(action="wait", time=1, coordinate=[1, 2]), "arguments.coordinate", "is not an argument of wait"),
    (call(action="click", coordinate=[1]), "arguments.coordinate", "[1] is not a point"),
    (call(action="click", coordinate=[1, 2, 3]), "arguments.coordinate", "is not a point"),
    (call(action="click", coordinate=[1, True]), "arguments.coordinate", "[1, true] is not a point"),
    (call(action="click", coordinate=["1", 2]), "arguments.coordinate", "expected [x, y], two numbers"),
    (call(action="click", coordinate=[float("nan"), 2]), "arguments.coordinate", "is not a point"),
    (call(action="click", coordinate="540,1200"), "arguments.coordinate", "is not a point"),
    (call(action="swipe", coordinate=[1, 2], coordinate2=None), "arguments.coordinate2", "null is not a"),
    (call(action="type", text=5), "arguments.text", "5 is not a string"),
    (call(action="long_press", coordinate=[1, 2], time="2"), "arguments.time", '"2" is not a number'),
    (call(action="wait", time=True), "arguments.time", "true is not a number"),
    (call(action="wait", time=float("inf")), "arguments.time", "is not a number"),
    (call(action="system_button", button="back"), "arguments.button", '"back" is not a system button'),
    (call(action="system_button", button="Power"), "arguments.button", "one of Back, Home, Menu, Enter"),
    (call(action="terminate", status="done"), "arguments.status", "expected one of success, failure"),
]


@pytest.mark.parametrize(("tool_call", "field", "message"), PARSE_ERRORS)
def test_parse_errors_name_the_field_and_what_is_expected(tool_call: object, field: str, message: str):
    with pytest.raises(ActionError) as caught:
        action_from_tool_call(tool_call)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")
    assert message in str(caught.value)


def test_constructing_an_ill_typed_action_in_code_fails_the_same_way() -> None:
    with pytest.raises(ActionError, match=r"arguments\.coordinate: \[1, true\] is not a point"):
        Click((1, True))
    with pytest.raises(ActionError) as caught:
        SystemButton("Power")
    assert caught.value.field == "arguments.button"


def test_action_error_survives_pickling() -> None:
    error = ActionError("arguments.time", "-1 is below zero")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.field, copy.detail, str(copy)) == ("arguments.time", "-1 is below zero", str(error))


VALUE_ERRORS = [
    (Click((1200, 50)), "arguments.coordinate", "(1200, 50) is outside the 1080x2400 screen"),
    (Click((1080, 10)), "arguments.coordinate", "x 0-1079, y 0-2399"),
    (Click((-1, 10)), "arguments.coordinate", "outside"),
    (LongPress((10, 2400)), "arguments.coordinate", "outside"),
    (Swipe((10, 10), (10, 2500)), "arguments.coordinate2", "(10, 2500) is outside"),
    (Swipe((300, 300), (300, 300)), "arguments.coordinate2", "a swipe needs two different points"),
    (Swipe((300, 300), (300.0, 300.0)), "arguments.coordinate2", "two different points"),
    (Type(""), "arguments.text", "empty; type needs text"),
    (Open(""), "arguments.text", "empty; open needs text"),
    (Key(""), "arguments.text", "empty; key needs text"),
    (Key("volume up!"), "arguments.text", "is not an adb key name"),
    (Wait(-1), "arguments.time", "-1 is below zero"),
    (LongPress((1, 1), -0.5), "arguments.time", "-0.5 is below zero"),
]


@pytest.mark.parametrize(("action", "field", "message"), VALUE_ERRORS)
def test_value_errors_name_the_field(action: object, field: str, message: str) -> None:
    errors = validate_action(action, SCREEN)
    assert [error.field for error in errors] == [field]
    assert message in str(errors[0])
    with pytest.raises(ActionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_action(action, SCREEN)


def test_all_problems_of_an_action_are_listed() -> None:
    errors = validate_action(Swipe((-5, 0), (2000, 0)), SCREEN)
    assert [error.field for error in errors] == ["arguments.coordinate", "arguments.coordinate2"]


EDGE_CASES = [Click((0, 0)), Click((1079, 2399)), Wait(0), Type(" ")]


@pytest.mark.parametrize("action", [*(action for _, action in VALID), *EDGE_CASES])
def test_valid_actions_pass_and_come_back(action: object) -> None:
    assert validate_action(action, SCREEN) == []
    assert check_action(action, SCREEN) is action


def test_a_point_on_a_smaller_screen_is_outside() -> None:
    assert validate_action(Click((700, 700)), ScreenSize(1080, 2400)) == []
    errors = validate_action(Click((700, 700)), ScreenSize(720, 640))
    assert [error.field for error in errors] == ["arguments.coordinate"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("volume_up", "KEYCODE_VOLUME_UP"),
        ("KEYCODE_HOME", "KEYCODE_HOME"),
        ("keycode_home", "KEYCODE_HOME"),
        ("back", "KEYCODE_BACK"),
        (" Power ", "KEYCODE_POWER"),
        ("volume-down", "KEYCODE_VOLUME_DOWN"),
        ("5", "KEYCODE_5"),
        ("24", "24"),
    ],
)
def test_key_names_normalise_to_adb_keycodes(name: str, expected: str) -> None:
    assert normalize_key_name(name) == expected


@pytest.mark.parametrize("name", ["", "   ", "KEYCODE_", "volume+up", "音量", None])
def test_bad_key_names_are_refused(name: object) -> None:
    with pytest.raises(ValueError, match="is not an adb key name"):
        normalize_key_name(name)


def test_key_keeps_the_text_as_given() -> None:
    assert action_from_tool_call(call(action="key", text="volume_up")).to_arguments()["text"] == "volume_up"
