"""The rewards' fast path agrees with the project's strict parser on every reply."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rewards.calls import mobile
from tests.rewards.test_properties import MALFORMED
from trainer_bridge.rewards.mobile_parse import _fast, _slow, mobile_reply

CALL = '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, 2]}}'
FRAGMENTS = [
    "<think>",
    "</think>",
    "<action>",
    "</action>",
    "<tool_call>",
    "</tool_call>",
    " ",
    "\n",
    "\u00a0",
    "text",
    "想",
    CALL,
    CALL.replace('"click"', '"tap"'),
    '{"name": "mobile_use", "name": "mobile_use", "arguments": {}}',
    '{"name": "mobile_use", "arguments": {"action": "wait", "time": 1, "time": 2}}',
    "```json\n",
    "```",
    "{",
    "'name'",
    '{"name": "mobile_use", "arguments": {"action": "wait", "time": 1}} extra',
    "[",
    "]",
]
# Repeated keys the colon count must not miss: beside a colon in text, in another "arguments", nested, spaced.
REPEATS = [
    '{"name": "mobile_use", "arguments": {"action": "type", "text": "10:30", "text": "x"}}',
    '{"name": "mobile_use", "arguments": {"action": "wait", "time": 1}, "arguments": {"action": "wait", "time": 2}}',
    '{"name": "mobile_use", "arguments": {"action": "type", "text": {"a": 1, "a": 2}}}',
    '{"name" : "x", "name" : "mobile_use", "arguments": {"action": "wait", "time": 1}}',
    '{"name": "mobile_use", "arguments": {"action": "type", "text": "a:b"}}',
]
FRAGMENTS += REPEATS
WELL_FORMED = ["<think>", "t", "</think>", "<action>", "a", "</action>", "<tool_call>", CALL, "</tool_call>"]


@pytest.mark.parametrize(
    "text",
    [
        mobile("click", coordinate=[1, 2]),
        mobile("type", text="</tool_call> inside a string"),
        "<think>t</think><action>a</action><tool_call>```json\n" + CALL + "\n```</tool_call>",
        "say <think>t</think><action>a</action><tool_call>" + CALL + "</tool_call>",
        "<think> </think><action>a</action><tool_call>" + CALL + "</tool_call>",
        "<think>t</think><answer>[{'action': 'click', 'coordinate': [1, 2]}]</answer>",  # UI-R1's: no call tag
        "<think>t</think><action>a</action>" + CALL,  # a call outside its tag is not read
        *[m for m in MALFORMED if isinstance(m, str)],
        *["<think>t</think><action>a</action><tool_call>" + call + "</tool_call>" for call in REPEATS],
    ],
)
def test_fast_path_agrees_with_the_parser(text: str) -> None:
    assert mobile_reply.__wrapped__(text) == _slow(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=14))
def test_fast_path_agrees_on_generated_replies(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert mobile_reply.__wrapped__(text) == _slow(text)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(WELL_FORMED)), st.sampled_from(FRAGMENTS), st.booleans())
def test_fast_path_agrees_on_perturbed_well_formed_replies(where: int, piece: str, drop: bool) -> None:
    pieces = list(WELL_FORMED)
    if drop and where < len(pieces):
        del pieces[where]
    else:
        pieces.insert(where, piece)
    text = "".join(pieces)
    fast = _fast(text)
    assert fast is None or fast == _slow(text)
