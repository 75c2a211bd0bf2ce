"""Format rewards: Mobile-R1's `<think><action><tool_call>`, UI-R1 / GUI-R1's `<think><answer>` and InfiGUI-R1's
`<think><tool_call>`; :data:`VARIANT_FORMATS` names the one each prompt variant is answered in."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from annotator.domain.prompts import PromptVariant
from trainer_bridge.rewards.completions import (
    CACHE_SIZE,
    CACHES,
    answer_action,
    completion_text,
    predicted_box,
    tool_call_action,
)
from trainer_bridge.rewards.mobile_parse import mobile_reply

_THINK_ANSWER = re.compile(r"\s*<think>(?P<think>.*?)</think>\s*<answer>(?P<answer>.*?)</answer>\s*", re.DOTALL)
_TAGS = ("<think>", "</think>", "<answer>", "</answer>")
_THINK_TOOL_CALL = re.compile(r"\s*<think>(?P<think>.*?)</think>\s*<tool_call>(?P<call>.*?)</tool_call>\s*", re.DOTALL)
_CALL_TAGS = ("<think>", "</think>", "<tool_call>", "</tool_call>")


def format_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
    """Mobile-R1 R_Fmt (section 4.2.2, the second term of eq. 3): 1 only when `<think>`, `<action>` and
    `<tool_call>` each appear once, in that order, each closed and not empty, with nothing outside them, and
    the tool call is a valid ``mobile_use`` call; else 0. It is the strict parse collection and the export use
    (``annotator.domain.response.parse_response(text, strict=True)``): a reply scores 1 exactly when the
    annotation view shows no problem for it.

    >>> good = ('<think>The search box is on top.</think><action>Tap the search box</action>'
    ...         '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [5, 9]}}'
    ...         '</tool_call>')
    >>> format_reward([good, good + " done", good.replace('"click"', '"tap"')])
    [1.0, 0.0, 0.0]
    """
    scores: list[float | None] = []
    for completion in completions:
        scores.append(1.0 if mobile_reply(completion_text(completion)).ok else 0.0)
    return scores


@lru_cache(maxsize=CACHE_SIZE)
def think_answer_ok(text: str) -> bool:
    """The whole text is `<think>...</think><answer>...</answer>` (each tag once, neither part empty) and
    the answer holds a valid mobile_use action or a ``"bbox_2d"`` box."""
    match = _THINK_ANSWER.fullmatch(text)
    if match is None or any(text.count(tag) != 1 for tag in _TAGS):
        return False
    if not match.group("think").strip() or not match.group("answer").strip():
        return False
    return answer_action(text) is not None or predicted_box(match.group("answer")) is not None


CACHES.append(think_answer_ok)


def think_answer_format_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
    """UI-R1 R_F (a term of eq. 2) and GUI-R1 R_f: 1 when the reply is `<think>reasoning</think><answer>answer</answer>`
    with nothing outside, else 0. UI-R1 and GUI-R1 also check that the answer can be read; here it must be a
    mobile_use tool call, its "arguments" object or a one-element list of either (UI-R1 writes
    ``[{'action': ..., 'coordinate': [x, y]}]``, in JSON here), or a grounding box ``{"bbox_2d": [...]}``.

    >>> think_answer_format_reward(['<think>Back to the list.</think><answer>{"action": "system_button",'
    ...     ' "button": "Back"}</answer>', '<answer>{"action": "wait", "time": 1}</answer>'])
    [1.0, 0.0]
    """
    return [1.0 if think_answer_ok(completion_text(completion)) else 0.0 for completion in completions]


@lru_cache(maxsize=CACHE_SIZE)
def think_tool_call_ok(text: str) -> bool:
    """The whole text is `<think>...</think><tool_call>...</tool_call>` (each tag once, the reasoning not empty)
    and the call is a valid mobile_use call."""
    match = _THINK_TOOL_CALL.fullmatch(text)
    if match is None or any(text.count(tag) != 1 for tag in _CALL_TAGS) or not match.group("think").strip():
        return False
    return tool_call_action(text) is not None


CACHES.append(think_tool_call_ok)


def think_tool_call_format_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
    """InfiGUI-R1 R_format (3.2.1): 1 when the reasoning is "enclosed within <think> </think> tags" and the action
    follows as its base model, Qwen2.5-VL, calls mobile_use (`<tool_call>{...}</tool_call>`), nothing outside;
    else 0.

    >>> think_tool_call_format_reward(['<think>Back.</think><tool_call>{"name": "mobile_use", "arguments": '
    ...     '{"action": "system_button", "button": "Back"}}</tool_call>', '<tool_call>{}</tool_call>'])
    [1.0, 0.0]
    """
    return [1.0 if think_tool_call_ok(completion_text(completion)) else 0.0 for completion in completions]


# The format reward each prompt variant's answers are written for (evaluation scores "format" with it).
VARIANT_FORMATS = {
    PromptVariant.QWEN25_VL: format_reward,
    PromptVariant.MOBILE_R1_PAPER: format_reward,
    PromptVariant.UI_R1: think_answer_format_reward,
    PromptVariant.GUI_R1: think_answer_format_reward,
    PromptVariant.INFIGUI_R1: think_tool_call_format_reward,
}
