"""The sub-goal scoring request of InfiGUI-R1's Sub-goal Guidance (section 3.2.2), and how its answer is read.

A scoring LLM is given an agent's reasoning (its `<think>` text) and the labelled sub-goal of the step (the
annotators' `<action>` text); it extracts the sub-goal the reasoning implies and rates how well it matches,
1-10, or 0 when the reasoning implies none. R_subgoal = score / 10. The request opens with ``SUBGOAL_MARKER``
so that a scripted endpoint can tell it from an agent's or a judge's request.
"""

from __future__ import annotations

import json
import re
from typing import Any

SUBGOAL_MARKER = "[sub-goal scoring]"
SYSTEM_PROMPT = f"""{SUBGOAL_MARKER} You assess a mobile GUI agent's planning. Given the agent's reasoning for one step
and the reference sub-goal of that step, extract the sub-goal the reasoning implies (what the agent is about to do
next on this screen) and rate how well it matches the reference in meaning, from 1 (unrelated) to 10 (the same
sub-goal). If no sub-goal can be extracted from the reasoning, the score is 0.
Answer with JSON only: {{"subgoal": "<the extracted sub-goal, or an empty string>", "score": <0-10>}}"""
_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


def subgoal_messages(reasoning: str, reference: str) -> list[dict[str, Any]]:
    """The chat messages that ask for one score."""
    user = f"Agent's reasoning:\n{reasoning}\n\nReference sub-goal:\n{reference}"
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def read_subgoal_request(messages: list[dict[str, Any]]) -> tuple[str, str] | None:
    """(reasoning, reference) of a sub-goal scoring request; None for any other request."""
    if not messages or SUBGOAL_MARKER not in str(messages[0].get("content", "")):
        return None
    text = str(messages[-1].get("content", ""))
    head, _, reference = text.partition("\n\nReference sub-goal:\n")
    return head.removeprefix("Agent's reasoning:\n"), reference


def read_score(reply: str) -> int | None:
    """The score 0-10 in a reply; None when the reply holds no usable score.

    >>> read_score('{"subgoal": "打开设置", "score": 8}')
    8
    >>> read_score('好的 {"score": 11}') is None, read_score("no json") is None
    (True, True)
    """
    found = _OBJECT.search(reply)
    try:
        value = json.loads(found.group(0)).get("score") if found else None
    except (json.JSONDecodeError, AttributeError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 10:
        return None
    return round(value)
