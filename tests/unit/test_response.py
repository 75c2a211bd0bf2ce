"""Parsing and formatting <think>/<action>/<tool_call> responses: round trips and precise problems."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotator.domain import (
    ACTION_ARGUMENTS,
    ACTION_NAMES,
    SYSTEM_BUTTONS,
    TERMINATE_STATUSES,
    Click,
    ParsedResponse,
    format_parsed,
    format_response,
    parse_response,
)

CLICK = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 1200]}}
CLICK_JSON = json.dumps(CLICK)
THINK = "我需要打开淘宝，然后搜索 iPhone 16 Pro Max。"
ACTION = "点击屏幕中间的搜索框"


def response(think: str = THINK, action: str = ACTION, tool_call: str = CLICK_JSON) -> str:
    return f"<think>{think}</think><action>{action}</action><tool_call>{tool_call}</tool_call>"


def both(text: str) -> tuple[ParsedResponse, ParsedResponse]:
    return parse_response(text, strict=True), parse_response(text, strict=False)


def test_canonical_text_layout() -> None:
    text = format_response(f"  {THINK}\n", ACTION, CLICK)
    assert text == (
        f"<think>\n{THINK}\n</think>\n<action>\n{ACTION}\n</action>\n<tool_call>\n"
        '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 1200]}}\n</tool_call>'
    )


def test_format_writes_chinese_as_is_and_canonical_key_order() -> None:
    scrambled = {"arguments": {"text": "淘宝", "action": "open"}, "name": "mobile_use"}
    text = format_response("想", "打开淘宝", scrambled)
    assert '{"name": "mobile_use", "arguments": {"action": "open", "text": "淘宝"}}' in text


def test_well_formed_response_parses_with_no_problems() -> None:
    for parsed in both(response()):
        assert parsed.ok and parsed.problems == []
        assert (parsed.think, parsed.action, parsed.tool_call) == (THINK, ACTION, CLICK)
        assert parsed.parsed_action == Click((540, 1200))


def test_newlines_between_tags_are_allowed_in_strict_mode() -> None:
    text = f"\n<think>\n{THINK}\n</think>\n\n<action>{ACTION}</action>\n"
    text += f"<tool_call>\n{CLICK_JSON}\n</tool_call>\n"
    assert parse_response(text).ok


# Text for the parts: Chinese, angle brackets and newlines, but never one of the six tags.
_TAGS = ("<think>", "</think>", "<action>", "</action>", "<tool_call>", "</tool_call>")
_part_text = (
    st.lists(st.sampled_from([*"ab <>/\n\t{}\"'淘宝", "think", "action", "tool_call"]) | st.text(max_size=3))
    .map("".join)
    .filter(lambda t: not any(tag in t for tag in _TAGS))
)
_numbers = st.integers(0, 3000) | st.floats(0, 3000, allow_nan=False)
_ARGUMENT_VALUES = {
    "coordinate": st.lists(_numbers, min_size=2, max_size=2),
    "coordinate2": st.lists(_numbers, min_size=2, max_size=2),
    "text": st.text(max_size=20) | _part_text | st.just("</tool_call>"),
    "time": _numbers,
    "button": st.sampled_from(SYSTEM_BUTTONS),
    "status": st.sampled_from(TERMINATE_STATUSES),
}


@st.composite
def tool_calls(draw: st.DrawFn) -> dict:
    name = draw(st.sampled_from(ACTION_NAMES))
    spec = ACTION_ARGUMENTS[name]
    keys = [*spec.required, *(key for key in spec.optional if draw(st.booleans()))]
    arguments = {"action": name} | {key: draw(_ARGUMENT_VALUES[key]) for key in keys}
    return {"name": "mobile_use", "arguments": arguments}


@given(_part_text.filter(str.strip), _part_text.filter(str.strip), tool_calls())
def test_parse_of_format_gives_back_the_parts(think: str, action: str, tool_call: dict) -> None:
    for parsed in both(format_response(think, action, tool_call)):
        assert parsed.problems == []
        assert (parsed.think, parsed.action, parsed.tool_call) == (think.strip(), action.strip(), tool_call)


def test_a_tag_typed_as_text_cannot_end_the_tool_call_early() -> None:
    typed = {"name": "mobile_use", "arguments": {"action": "type", "text": "a</tool_call>b"}}
    text = format_response("t", "a", typed)
    assert "\\u003c/tool_call>" in text
    assert parse_response(text).tool_call == typed


def test_format_refuses_a_tag_inside_think_or_action() -> None:
    with pytest.raises(ValueError, match=r"think: contains the tag </think>"):
        format_response("a</think>b", "x", CLICK)
    with pytest.raises(ValueError, match=r"action: contains the tag <tool_call>"):
        format_response("a", "x<tool_call>", CLICK)


# Messy responses: tags, fences, JSON fragments and free text in any order and number.
_pieces = (
    st.sampled_from(
        [
            "<think>",
            "</think>",
            "<action>",
            "</action>",
            "<tool_call>",
            "</tool_call>",
            "```json\n",
            "```",
            CLICK_JSON,
            '{"name": "mobile_use", "arguments": {"action": "tap"}}',
            "{'a': 1}",
            "[1, 2]",
            "\n",
            " ",
        ]
    )
    | _part_text
)


_tool_call_bodies = tool_calls().map(json.dumps) | st.sampled_from(
    [
        CLICK_JSON,
        f"```json\n{CLICK_JSON}\n```",
        '{"name": "mobile_use", "arguments": {"action": "tap"}}',
        '{"a": 1, "a": 2}',
        '{"t": "\\u003c/think>"}',
        "{'a': 1}",
        "[1, 2]",
        "",
        "{",
    ]
)


@st.composite
def messy_responses(draw: st.DrawFn) -> str:
    """Mostly the right skeleton, with tags dropped or doubled, junk between, pieces inserted anywhere."""
    out: list[str] = []
    for name in ("think", "action", "tool_call"):
        out.append(draw(st.sampled_from(["", "\n", " ", "好的 "])))
        out += [f"<{name}>"] * draw(st.sampled_from([1, 1, 1, 1, 0, 2]))
        out.append(draw(_tool_call_bodies if name == "tool_call" else _part_text))
        out += [f"</{name}>"] * draw(st.sampled_from([1, 1, 1, 0]))
    out.append(draw(st.sampled_from(["", "\n", " done"])))
    for position, piece in draw(st.lists(st.tuples(st.integers(0, len(out)), _pieces), max_size=3)):
        out.insert(position, piece)
    return "".join(out)


_responses = messy_responses() | st.lists(_pieces, max_size=12).map("".join)


@pytest.mark.slow
@given(_responses)
def test_lenient_format_is_stable_after_one_round(text: str) -> None:
    parsed = parse_response(text, strict=False)
    if parsed.think is None or parsed.action is None or parsed.tool_call is None:
        with pytest.raises(ValueError, match="cannot format a response without"):
            format_parsed(parsed)
        return
    once = format_parsed(parsed)
    assert format_parsed(parse_response(once, strict=False)) == once


@given(_responses)
def test_problems_do_not_depend_on_the_mode(text: str) -> None:
    strict, lenient = both(text)
    assert strict.problems == lenient.problems
    assert strict.ok == (strict.problems == [])
    if strict.tool_call is not None:
        assert lenient.tool_call == strict.tool_call


STRUCTURE_PROBLEMS = [
    (f"<action>{ACTION}</action><tool_call>{CLICK_JSON}</tool_call>", "missing <think>...</think>"),
    (f"<think>{THINK}</think><tool_call>{CLICK_JSON}</tool_call>", "missing <action>...</action>"),
    (f"<think>{THINK}</think><action>{ACTION}</action>", "missing <tool_call>...</tool_call>"),
    (response() + "<think>again</think>", "<think> appears 2 times; expected once"),
    (response().replace("</action>", "</action></action>"), "</action> appears 2 times; expected once"),
    (response(action="x<tool_call>{}</tool_call>"), "<tool_call> appears 2 times"),
    (response().replace("</think>", ""), "unclosed <think>: no </think> before <action>"),
    (response().replace("</tool_call>", ""), "unclosed <tool_call>: no </tool_call> before the end of"),
    (response().replace("<action>", ""), "</action> without an opening <action>"),
    (
        f"<action>{ACTION}</action><think>{THINK}</think><tool_call>{CLICK_JSON}</tool_call>",
        "tags out of order: found <action> </action> <think> </think> <tool_call> </tool_call>",
    ),
    ("好的，" + response(), 'text outside the tags before <think>: "好的，"'),
    (response().replace("</think>", "</think>I will click"), 'between </think> and <action>: "I will click"'),
    (response().replace("</action>", "</action>\nnow:"), 'between </action> and <tool_call>: "now:"'),
    (response() + "\nDone. " + "x" * 40, 'after </tool_call>: "Done. ' + "x" * 24 + '…"'),
    ("I cannot do that.", 'text outside the tags (there are no tags): "I cannot do that."'),
    (response(think="  \n "), "empty <think>...</think>"),
    (response(action=""), "empty <action>...</action>"),
    (response(tool_call="\n"), "empty <tool_call>...</tool_call>"),
]


@pytest.mark.parametrize(("text", "problem"), STRUCTURE_PROBLEMS)
def test_structure_problems_say_what_and_where(text: str, problem: str) -> None:
    for parsed in both(text):
        assert not parsed.ok
        assert any(problem in found for found in parsed.problems), parsed.problems


def test_a_well_formed_response_has_exactly_the_one_problem_that_was_introduced() -> None:
    assert parse_response(response(action="")).problems == ["empty <action>...</action>"]
    assert parse_response("x" + response()).problems == ['text outside the tags before <think>: "x"']


def test_bad_json_reports_line_and_column_in_the_tool_call_and_offset_in_the_response() -> None:
    broken = '{"name": "mobile_use",\n "arguments": {"action": "click" "coordinate": [1, 2]}}'
    text = response(tool_call="\n" + broken)
    [problem] = parse_response(text).problems
    offset = text.index('"coordinate"')
    assert problem == (
        f"<tool_call> is not valid JSON: Expecting ',' delimiter at line 2 column 34 of the tool call"
        f" (offset {offset} in the response)"
    )


def test_single_quotes_are_not_json_in_either_mode() -> None:
    python_dict = "{'name': 'mobile_use', 'arguments': {'action': 'wait', 'time': 1}}"
    for parsed in both(response(tool_call=python_dict)):
        assert parsed.tool_call is None
        [problem] = parsed.problems
        assert "Expecting property name enclosed in double quotes at line 1 column 2" in problem
        assert "'single quotes' are Python" in problem


TOOL_CALL_PROBLEMS = [
    ('{"name": "computer_use", "arguments": {"action": "click", "coordinate": [1, 2]}}',
     '<tool_call> name: "computer_use" is not the tool; expected "mobile_use"'),
    ('{"name": "mobile_use", "arguments": {"action": "tap", "coordinate": [1, 2]}}',
     '<tool_call> arguments.action: "tap" is not an action; expected one of key, click'),
    ('{"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [1, 2]}}',
     "<tool_call> arguments.coordinate2: missing; swipe takes coordinate and coordinate2"),
    ('{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, "2"]}}',
     '<tool_call> arguments.coordinate: [1, "2"] is not a point; expected [x, y], two numbers'),
    ('{"name": "mobile_use", "arguments": {"action": "system_button", "button": "back"}}',
     '<tool_call> arguments.button: "back" is not a system button; expected one of Back, Home, Menu, Enter'),
    ('{"name": "mobile_use", "arguments": {"action": "wait", "time": 1, "action": "wait"}}',
     '<tool_call> JSON repeats the key "action"; the last one wins'),
]  # fmt: skip


@pytest.mark.parametrize(("tool_call", "problem"), TOOL_CALL_PROBLEMS)
def test_tool_call_problems_reuse_the_action_errors(tool_call: str, problem: str) -> None:
    strict, lenient = both(response(tool_call=tool_call))
    assert strict.problems == lenient.problems
    assert len(strict.problems) == 1 and strict.problems[0].startswith(problem), strict.problems
    assert strict.tool_call is None and strict.parsed_action is None
    assert lenient.tool_call == json.loads(tool_call)  # the GUI still sees what was written


def test_strict_needs_a_valid_tool_call_but_keeps_it_when_only_other_parts_are_wrong() -> None:
    strict = parse_response("note " + response())
    assert not strict.ok
    assert strict.tool_call == CLICK


def test_a_truncated_generation_is_read_only_in_lenient_mode() -> None:
    text = f"<think>{THINK}</think><action>{ACTION}</action><tool_call>\n{CLICK_JSON}\n"
    strict, lenient = both(text)
    assert strict.problems == ["unclosed <tool_call>: no </tool_call> before the end of the text"]
    assert (strict.think, strict.action, strict.tool_call) == (THINK, ACTION, None)
    assert lenient.tool_call == CLICK and lenient.parsed_action == Click((540, 1200))
    half = parse_response(f"<think>{THINK}", strict=False)
    assert (half.think, half.action, half.tool_call) == (THINK, None, None)


def test_a_missing_close_mid_text_ends_the_part_at_the_next_tag_in_lenient_mode() -> None:
    strict, lenient = both(response().replace("</think>", ""))
    assert strict.think is None
    assert (lenient.think, lenient.action, lenient.tool_call) == (THINK, ACTION, CLICK)


def test_a_json_fence_is_unwrapped_only_in_lenient_mode() -> None:
    text = response(tool_call=f"\n```json\n{CLICK_JSON}\n```\n")
    strict, lenient = both(text)
    assert strict.problems == ["<tool_call> JSON is wrapped in a ``` fence; write the bare JSON object"]
    assert strict.tool_call is None
    assert lenient.tool_call == CLICK


def test_bad_json_inside_a_fence_points_into_the_response() -> None:
    text = response(tool_call='```json\n{"name": }\n```')
    problem = parse_response(text, strict=False).problems[-1]
    assert f"line 1 column 10 of the tool call (offset {text.index('}')} in the response)" in problem


def test_text_outside_the_tags_is_ignored_in_lenient_mode_but_still_reported() -> None:
    lenient = parse_response(f"Sure! {response()} Hope this helps.", strict=False)
    assert (lenient.think, lenient.action, lenient.tool_call) == (THINK, ACTION, CLICK)
    assert len(lenient.problems) == 2


def test_lenient_tool_call_is_canonical_when_valid() -> None:
    scrambled = '{"arguments": {"coordinate": [540, 1200], "action": "click"}, "name": "mobile_use"}'
    lenient = parse_response(response(tool_call=scrambled), strict=False)
    assert list(lenient.tool_call) == ["name", "arguments"]
    assert list(lenient.tool_call["arguments"]) == ["action", "coordinate"]


def test_format_parsed_keeps_an_invalid_tool_call_as_written() -> None:
    bad = '{"name": "mobile_use", "arguments": {"action": "tap", "x": 1}}'
    text = format_parsed(parse_response(response(tool_call=bad), strict=False))
    assert f"<tool_call>\n{bad}\n</tool_call>" in text


def test_format_parsed_refuses_a_response_with_missing_parts() -> None:
    with pytest.raises(ValueError, match="cannot format a response without action, tool_call"):
        format_parsed(parse_response(f"<think>{THINK}</think>"))
