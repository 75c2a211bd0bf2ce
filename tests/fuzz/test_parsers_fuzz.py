"""Fuzzing the parsers of text from outside: a model's response, its tool call, a uiautomator dump and a ratings
CSV. Whatever comes in, each raises only its documented error (or none) and says what is wrong in one line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotator.device.hierarchy import element_at, focused_text, hierarchy_box, parse_hierarchy
from annotator.domain import ACTION_ARGUMENTS, ACTION_NAMES, parse_response
from annotator.domain.actions import ActionError, action_from_tool_call, validate_action
from annotator.domain.geometry import ScreenSize
from annotator.judge.ratings_csv import RatingsFileError, read_ratings_csv
from tests.fuzz.edits import fuzzing

FUZZ = fuzzing(100)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
ARGUMENT_KEYS = sorted({key for spec in ACTION_ARGUMENTS.values() for key in spec.required + spec.optional})


@st.composite
def near_tool_calls(draw: st.DrawFn) -> object:
    """Mostly the right shape (name, arguments, a known action and its keys) with values of any kind."""
    arguments = {"action": draw(st.sampled_from(ACTION_NAMES) | json_values)}
    for key in draw(st.lists(st.sampled_from(ARGUMENT_KEYS), max_size=3)):
        arguments[key] = draw(json_values | st.lists(st.floats() | st.integers(), min_size=2, max_size=2))
    call: dict[str, object] = {"name": draw(st.just("mobile_use") | json_values), "arguments": arguments}
    if draw(st.booleans()):
        call[draw(st.text(max_size=5))] = draw(json_values)
    return call


def one_line(text: str) -> None:
    assert text and "\n" not in text and "Traceback" not in text


@pytest.mark.slow
@FUZZ
@given(near_tool_calls() | json_values, st.integers(1, 4000), st.integers(1, 4000))
def test_the_tool_call_validator_raises_only_action_errors(tool_call: object, width: int, height: int) -> None:
    try:
        action = action_from_tool_call(tool_call)
    except ActionError as error:
        one_line(str(error))
        return
    for problem in validate_action(action, ScreenSize(width, height)):
        assert isinstance(problem, ActionError)
        one_line(str(problem))
    assert action_from_tool_call(json.loads(json.dumps(action.to_tool_call()))) == action


TAGS = ["<think>", "</think>", "<action>", "</action>", "<tool_call>", "</tool_call>", "```json\n", "```"]


@pytest.mark.slow
@FUZZ
@given(st.lists(st.sampled_from(TAGS) | st.text(max_size=12) | near_tool_calls().map(json.dumps), max_size=10))
def test_the_response_parser_never_raises(pieces: list[str]) -> None:
    text = "".join(pieces)
    for strict in (True, False):
        parsed = parse_response(text, strict=strict)
        assert parsed.ok == (parsed.problems == [])
        for problem in parsed.problems:
            one_line(problem.replace("\n", " "))  # problems quote the text, which may hold newlines
        if parsed.tool_call is not None and strict:
            assert action_from_tool_call(parsed.tool_call).to_tool_call() == parsed.tool_call


ATTRIBUTE = st.sampled_from(["bounds", "text", "clickable", "focused", "class", "visible-to-user", "hint", "x:y"])
VALUE = st.sampled_from(
    [
        "[0,0][100,200]",
        "[-5,3][2,1]",
        "[0,0][99999999999999999999,1]",
        "true",
        "EditText",
        "",
        "&amp;",
        "&#8;",
        "&#x1F600;",
        "&#99999999;",
        "&bogus;",
        "<",
        '"',
        "\x00",
        "\ud800",
    ]
)


@st.composite
def dumps(draw: st.DrawFn) -> str:
    """uiautomator-like XML: nested nodes with attributes of any value, pieces of markup and text dropped in."""

    def node(depth: int) -> str:
        attributes = " ".join(
            f'{draw(ATTRIBUTE)}="{draw(VALUE | st.text(max_size=6))}"' for _ in range(draw(st.integers(0, 4)))
        )
        children = "".join(node(depth + 1) for _ in range(draw(st.integers(0, 2 if depth < 3 else 0))))
        return f"<node {attributes}>{children}</node>" if children else f"<node {attributes}/>"

    parts = [
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
        "<hierarchy rotation='0'>",
        *(node(0) for _ in range(draw(st.integers(0, 3)))),
        "</hierarchy>",
    ]
    for _ in range(draw(st.integers(0, 2))):
        parts.insert(draw(st.integers(0, len(parts))), draw(st.text(max_size=8) | st.sampled_from(["<", "&", "]]>"])))
    return "".join(parts)


@FUZZ
@given(dumps(), st.floats(-10, 300), st.floats(-10, 300))
def test_the_hierarchy_parser_raises_only_value_errors(xml: str, x: float, y: float) -> None:
    click = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}
    try:
        nodes = parse_hierarchy(xml)
    except ValueError as error:
        one_line(str(error))
        assert hierarchy_box(xml, click) is None
        return
    assert all(node.text is not None for node in nodes)
    if math.isfinite(x) and math.isfinite(y):
        element_at(nodes, x, y)
    focused_text(nodes)
    hierarchy_box(xml.encode("utf-8", "surrogatepass"), click)


CELL = st.sampled_from(
    ["item", "judge", "alice", "Bob", "3", "3.0", "-0", "4.5", "5", "1e0", "", " ", '"', "a,b", "\ufeff", "\r", "\n"]
) | st.text(max_size=4)


@FUZZ
@given(rows=st.lists(st.lists(CELL, max_size=5), max_size=5), encoding=st.sampled_from(["utf-8", "utf-16", "gbk"]))
def test_the_ratings_csv_reader_raises_only_ratings_file_errors(
    tmp_path: Path, rows: list[list[str]], encoding: str
) -> None:
    path = tmp_path / "ratings.csv"  # written again by every example
    text = "\n".join(",".join(row) for row in rows)
    path.write_bytes(text.encode(encoding, "replace"))
    try:
        items = read_ratings_csv(path)
    except RatingsFileError as error:
        one_line(str(error))
        return
    assert items and all(item.item for item in items)
    assert all(level is None or 0 <= level <= 4 for item in items for level in (item.judge, *item.humans.values()))
