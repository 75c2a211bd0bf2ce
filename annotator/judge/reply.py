"""Reading a judge's reply: a JSON object with a `reward` on the 0-4 scale and a `reason`.

Models wrap JSON in code fences or add a sentence around it; that is accepted. What is not usable gets a
`JudgeReplyError` that says what was wrong in words, and the trajectory stays unscored: no JSON, a reward
that is not a whole number from 0 to 4 ("7", 3.5, "high"), a missing reward, or a refusal.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

MAX_LEVEL = 4
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S | re.I)
_REFUSALS = ("i'm sorry", "i am sorry", "i cannot", "i can't", "抱歉", "无法", "不能协助", "对不起")
_SHOWN = 120


class JudgeReplyError(ValueError):
    """A reply that gives no usable score; the message says why."""


@dataclass(frozen=True)
class JudgeVerdict:
    reward: int  # 0-4
    reason: str


def _shown(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _SHOWN else flat[: _SHOWN - 1] + "…"


def _json_objects(text: str) -> list[Any]:
    """Every JSON object in the text: fenced blocks first, then any `{...}` that decodes."""
    found = []
    for block in _FENCE.findall(text):
        try:
            found.append(json.loads(block))
        except json.JSONDecodeError:
            continue
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _end = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        found.append(value)
    return [value for value in found if isinstance(value, dict)]


def _level(value: Any) -> int:
    if isinstance(value, bool):
        raise JudgeReplyError(f"reward is {value!r}, not a number from 0 to {MAX_LEVEL}")
    if isinstance(value, str):
        stripped = value.strip()
        try:
            value = float(stripped)
        except ValueError:
            raise JudgeReplyError(f"reward is {value!r}, not a number from 0 to {MAX_LEVEL}") from None
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        raise JudgeReplyError(f"reward is {value!r}, not a number from 0 to {MAX_LEVEL}")
    if value != int(value):
        raise JudgeReplyError(f"reward is {value}, not a whole level of the 0-{MAX_LEVEL} scale")
    if not 0 <= value <= MAX_LEVEL:
        raise JudgeReplyError(f"reward is {int(value)}, outside the 0-{MAX_LEVEL} scale")
    return int(value)


def parse_judge_reply(text: str) -> JudgeVerdict:
    """The verdict in a reply, or JudgeReplyError."""
    if not text.strip():
        raise JudgeReplyError("the reply is empty")
    with_reward = [value for value in _json_objects(text) if "reward" in value]
    if not with_reward:
        lowered = text.lower()
        if any(marker in lowered for marker in _REFUSALS) and "{" not in text:
            raise JudgeReplyError(f"the model refused to score: {_shown(text)}")
        if _json_objects(text):
            raise JudgeReplyError(f"the JSON has no 'reward': {_shown(text)}")
        raise JudgeReplyError(f"no JSON object in the reply: {_shown(text)}")
    chosen = with_reward[0]
    reason = chosen.get("reason")
    reason_text = reason if isinstance(reason, str) else json.dumps(reason, ensure_ascii=False) if reason else ""
    return JudgeVerdict(_level(chosen["reward"]), reason_text.strip())
