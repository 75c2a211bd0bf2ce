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
# The parser's tags (`annotator.domain.response`), each once and in order, with text around them that holds no
# tag: "[^<]*" runs, and a "<" only where no tag starts (one way to match each "<", so no backtracking).
_FREE = r"([^<]*(?:<(?!/?(?:think|action|tool_call)>)[^<]*)*)"
_EXPECTED = re.compile(
    _FREE.join(("", "<think>", "</think>", "<action>", "</action>", "<tool_call>", "</tool_call>", "")), re.DOTALL
)


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


# One decoder of each kind for every reply: json.loads with a hook builds a new one per call. The plain one stays
# in C; the one with the hook calls Python for every object, to find repeated keys.
_DECODER = json.JSONDecoder()
_CHECKING_DECODER = json.JSONDecoder(object_pairs_hook=_no_repeats)


def _without_repeats(body: str) -> Any:
    """The JSON value of ``body``, ValueError where it repeats a key (as the parser reports). Every key-value
    pair has a colon outside strings: when the colons number no more than the keys of the call and its
    arguments, no object holds a pair more (a repeat) or elsewhere, and the checking decoder is not needed."""
    value, end = _DECODER.raw_decode(body)  # decode() less its check for trailing whitespace: body is stripped
    if end != len(body):
        raise ValueError("text after the object")
    arguments = value.get("arguments") if type(value) is dict else None
    if type(arguments) is dict and body.count(":") == len(value) + len(arguments):
        return value
    return _CHECKING_DECODER.decode(body)


def _tool_call_action(body: str) -> Action | None:
    """The action of a bare tool-call JSON object, None where the parser would report a problem."""
    try:
        return action_from_tool_call(_without_repeats(body))
    except (ValueError, RecursionError, ActionError):  # JSONDecodeError and _RepeatedKey are ValueErrors
        return None


def _fast(text: str) -> MobileReply | None:
    """The reply when its tags are exactly the expected six; None to leave it to the parser."""
    match = _EXPECTED.fullmatch(text)
    if match is None:
        return None
    before, think, between1, action, between2, call, after = match.groups()
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
    # The strict parser reads a call only inside a closed tag: no call, no format (UI-R1 replies, cut-off ones).
    if "<tool_call>" not in text or "</tool_call>" not in text:
        return MobileReply(False, None)
    return _fast(text) or _slow(text)
