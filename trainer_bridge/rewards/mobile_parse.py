"""Mobile-R1 replies read for the rewards: the project's strict parser, with a fast path for the usual reply.

``annotator.domain.response.parse_response`` collects every problem with its place for the GUI, which costs
~25 us a reply; a GRPO reward needs only "well-formed or not" and the action. A reply whose tags are exactly
``<think></think><action></action><tool_call></tool_call>`` is decided here with the same rules (nothing
outside the tags, no empty part, a bare JSON object without repeated keys, a valid mobile_use action), in a
third of the time. Anything else, and a fenced tool call, goes to the parser itself.
``tests/rewards/test_mobile_parse.py`` checks that both agree, on hand-made and on generated replies.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, NamedTuple

from annotator.domain.actions import Action, ActionError, action_from_tool_call
from annotator.domain.response import parse_response

CACHE_SIZE = 65_536  # completions kept parsed; a GRPO step scores a few thousand
# The parser's own tag pattern, so that both see the same tags.
_TAG = re.compile(r"<(/?)(think|action|tool_call)>")
_EXPECTED = [("", "think"), ("/", "think"), ("", "action"), ("/", "action"), ("", "tool_call"), ("/", "tool_call")]
_PIECES = 3 * len(_EXPECTED) + 1  # what _TAG.split makes of a reply with the expected tags


class MobileReply(NamedTuple):
    ok: bool  # parse_response(text, strict=True).ok with a tool call: R_Fmt = 1
    action: Action | None  # the strict parse's valid tool call as an action


class _RepeatedKey(ValueError):
    pass


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _RepeatedKey
    return value


# One decoder for every reply: json.loads with a hook builds a new one per call, half the cost of a small call.
_DECODER = json.JSONDecoder(object_pairs_hook=_no_repeats)


def _tool_call_action(body: str) -> Action | None:
    """The action of a bare tool-call JSON object, None where the parser would report a problem."""
    try:
        value, end = _DECODER.raw_decode(body)  # decode() less its check for trailing whitespace: body is stripped
        return action_from_tool_call(value) if end == len(body) else None
    except (ValueError, RecursionError, ActionError):  # JSONDecodeError and _RepeatedKey are ValueErrors
        return None


def _fast(text: str) -> MobileReply | None:
    """The reply when its tags are exactly the expected six; None to leave it to the parser."""
    # split() keeps the two groups of each tag: the text pieces are every third item, the tags the two after each.
    pieces = _TAG.split(text)
    if len(pieces) != _PIECES or list(zip(pieces[1::3], pieces[2::3], strict=True)) != _EXPECTED:
        return None
    before, think, between1, action, between2, call, after = pieces[::3]
    body = call.strip()
    if body.startswith("```"):
        return None  # a fenced call: the parser decides what the fence allows
    found = _tool_call_action(body) if body else None
    # The call is read whatever surrounds it (as the strict parser does); the format needs all of it right.
    outside = before.strip() or between1.strip() or between2.strip() or after.strip()
    return MobileReply(found is not None and not outside and bool(think.strip()) and bool(action.strip()), found)


def _slow(text: str) -> MobileReply:
    parsed = parse_response(text, strict=True)
    action = parsed.parsed_action
    return MobileReply(parsed.ok and action is not None, action)


@lru_cache(maxsize=CACHE_SIZE)
def mobile_reply(text: str) -> MobileReply:
    """Whether ``text`` is a well-formed Mobile-R1 reply, and its action (as the strict parser gives them)."""
    if "<tool_call>" not in text:  # the parser reads a call only inside the tag: no call, no format (UI-R1 replies)
        return MobileReply(False, None)
    return _fast(text) or _slow(text)
