"""Reading a judge's reply: one JSON object with a whole-number `reward` on the 0-4 scale and a `reason`.

The rubric (resources/prompts/judge/mobile-r1.txt, Mobile-R1's appendix B.3) asks for exactly that object and
nothing else ("一定不要输出多余内容，直接输出 json 格式的答案"), shown inside a code fence, so a fence around it
is accepted and nothing more. Anything else gets a `JudgeReplyError` that says what was wrong in words, and the
trajectory stays unscored: no JSON, text around the object (it may revise the score in words), two or more
objects (even with equal rewards: which one is the verdict, and with which reason, is a guess), a key given
twice, a reward that is not a JSON integer from 0 to 4 ("3", 3.5, 7, true), a missing reward, a reason that is
not text, or a refusal.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from annotator.domain.reply_text import MAX_STORED_CHARS

MAX_LEVEL = 4
_FENCE = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.S | re.I)
_REFUSALS = ("i'm sorry", "i am sorry", "i cannot", "i can't", "抱歉", "无法", "不能协助", "对不起")
_SHOWN = 120
_BRACES_TRIED = 200


class JudgeReplyError(ValueError):
    """A reply that gives no usable score; the message says why."""


@dataclass(frozen=True)
class JudgeVerdict:
    reward: int  # 0-4
    reason: str


def _shown(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _SHOWN else flat[: _SHOWN - 1] + "…"


def _unfenced(text: str) -> str:
    """The reply without the one code fence the rubric shows around the object, if it has one."""
    fenced = _FENCE.fullmatch(text.strip())
    return fenced.group(1).strip() if fenced else text.strip()


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _value in pairs]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    if twice:
        raise JudgeReplyError(f"the JSON gives {', '.join(map(repr, twice))} more than once")
    return dict(pairs)


def _objects_in(text: str) -> int:
    """How many JSON objects (decodable `{...}`) the text holds, nested ones not counted, up to 2: only to say
    what is wrong. At most the first _BRACES_TRIED braces are tried (a hostile reply can be all braces)."""
    decoder, count, position = json.JSONDecoder(), 0, 0
    for _tried in range(_BRACES_TRIED):
        start = text.find("{", position)
        if start < 0 or count == 2:
            break
        try:
            _value, end = decoder.raw_decode(text, start)
        except (json.JSONDecodeError, RecursionError):
            position = start + 1
            continue
        count, position = count + 1, end
    return count


def _the_object(text: str) -> dict[str, Any]:
    """The reply as one JSON object, or why it is not one."""
    body = _unfenced(text)
    try:
        value = json.loads(body, object_pairs_hook=_unique_keys)
    except (json.JSONDecodeError, RecursionError):
        found = _objects_in(body)
        if found > 1:
            raise JudgeReplyError(f"the reply holds several JSON objects, not exactly one: {_shown(text)}") from None
        if found == 1:
            raise JudgeReplyError(f"the reply has text around its JSON object: {_shown(text)}") from None
        lowered = text.lower()
        if any(marker in lowered for marker in _REFUSALS):
            raise JudgeReplyError(f"the model refused to score: {_shown(text)}") from None
        raise JudgeReplyError(f"no JSON object in the reply: {_shown(text)}") from None
    if not isinstance(value, dict):
        raise JudgeReplyError(f"the reply is JSON but not an object: {_shown(text)}")
    return value


def _level(value: Any) -> int:
    """The reward: a JSON integer (not a string, a decimal or a boolean) on the scale."""
    if isinstance(value, float) and math.isfinite(value) and value != int(value):
        raise JudgeReplyError(f"reward is {value}, not a whole level of the 0-{MAX_LEVEL} scale")
    if isinstance(value, bool) or not isinstance(value, int):
        raise JudgeReplyError(
            f"reward is {json.dumps(value, ensure_ascii=False)}, not a whole number from 0 to {MAX_LEVEL}"
        )
    if not 0 <= value <= MAX_LEVEL:
        raise JudgeReplyError(f"reward is {value}, outside the 0-{MAX_LEVEL} scale")
    return value


def parse_judge_reply(text: str) -> JudgeVerdict:
    """The verdict in a reply, or JudgeReplyError."""
    if not text.strip():
        raise JudgeReplyError("the reply is empty")
    if len(text) > MAX_STORED_CHARS:  # the rubric's object is a few hundred characters: this one ran on
        raise JudgeReplyError(f"the reply is {len(text):,} characters long, not the rubric's one JSON object")
    verdict = _the_object(text)
    if "reward" not in verdict:
        raise JudgeReplyError(f"the JSON has no 'reward': {_shown(text)}")
    reason = verdict.get("reason", "")
    if not isinstance(reason, str):
        raise JudgeReplyError(f"reason is {json.dumps(reason, ensure_ascii=False)[:_SHOWN]}, not text")
    return JudgeVerdict(_level(verdict["reward"]), reason.strip())
