"""UI-AGILE's "Simple Thinking" reward: a reasoning length in an ideal range, a bonus for a complete thought."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from annotator.domain.paper_answers import first_tagged
from trainer_bridge.rewards.action import action_correct
from trainer_bridge.rewards.completions import predicted_action, rows

# A thought is complete when it ends as a sentence ends: Western or full-width punctuation, optionally closed
# by a quote or bracket.
_SENTENCE_ENDS = ".!?。！？…"
_CLOSERS = "\"'”’)）」』"


class Tokenizer(Protocol):
    def encode(self, text: str) -> Sequence[int]: ...


@dataclass(frozen=True)
class ThinkingBounds:
    """UI-AGILE leaves l_min, l_ideal.start, l_ideal.end, l_max and R_bonus open. Chosen for this project's
    `<think>` (Mobile-R1's state -> next action -> goal, one to three sentences, ~40-120 Qwen tokens of
    Chinese): zero below 8 and from 256 on, full from 32 to 128, a bonus of 0.2 (a fifth of the length reward:
    enough to tip two equal lengths towards the finished thought, too little to pay for a bad length). The
    same numbers are used as characters when no tokenizer is given, where a Chinese character is about a
    token; pass other bounds for English thoughts counted in characters."""

    l_min: float = 8
    ideal_start: float = 32
    ideal_end: float = 128
    l_max: float = 256
    bonus: float = 0.2

    def __post_init__(self) -> None:
        if not self.l_min < self.ideal_start <= self.ideal_end < self.l_max:
            raise ValueError(f"need l_min < ideal_start <= ideal_end < l_max, got {self}")


DEFAULT_BOUNDS = ThinkingBounds()


def length_reward(length: float, bounds: ThinkingBounds = DEFAULT_BOUNDS) -> float:
    """UI-AGILE eq. 2: 1 in (ideal_start, ideal_end]; cosine ramps from 0 at l_min up to 1 at ideal_start and
    from 1 at ideal_end down to 0 at l_max; 0 otherwise.

    >>> [round(length_reward(n), 6) for n in (8, 20, 32, 128, 192, 256)]
    [0.0, 0.5, 1.0, 1.0, 0.5, 0.0]
    """
    b = bounds
    if b.ideal_start < length <= b.ideal_end:
        return 1.0
    if b.l_min < length <= b.ideal_start:
        return 0.5 * (1 - math.cos(math.pi * (length - b.l_min) / (b.ideal_start - b.l_min)))
    if b.ideal_end < length < b.l_max:
        return 0.5 * (1 + math.cos(math.pi * (length - b.ideal_end) / (b.l_max - b.ideal_end)))
    return 0.0


def think_text(text: str) -> str | None:
    """The first closed `<think>` part, stripped (both formats open with it)."""
    return first_tagged(text, "think")


def is_complete(thought: str) -> bool:
    """Whether the thought ends as a sentence ends.

    >>> is_complete("搜索框在顶部。"), is_complete('He said "tap it."'), is_complete("（先等待）"), is_complete("”")
    (True, True, False, False)
    """
    body = thought.rstrip(_CLOSERS)
    return bool(body) and body[-1] in _SENTENCE_ENDS


def simple_thinking_reward(
    completions: Sequence[Any],
    *,
    tokenizer: Tokenizer | None = None,
    bounds: ThinkingBounds = DEFAULT_BOUNDS,
    **columns: Any,
) -> list[float | None]:
    """UI-AGILE eq. 1: R_think = I(R_grounding > 0) * (R_length(L) + R_bonus), R_length of eq. 2.

    L is the length of the `<think>` text in tokens of ``tokenizer`` (any object with ``encode``, e.g. the
    policy's tokenizer) or, without one, in characters. R_bonus (``bounds.bonus``) is paid when the thought
    ends with sentence punctuation. The gate is Mobile-R1's R_Act (:func:`action_reward`) > 0: UI-AGILE trains
    grounding only, where R_grounding > 0 means the point is in the box, which is R_Act on a coordinate row;
    on other rows the action and its argument must be right, so no row pays for thinking that led nowhere.
    No closed `<think>` scores 0. Ranges over [0, 1 + bonus].

    >>> think = "<think>" + "想" * 31 + "。</think>"  # 32 characters: the ideal start, complete
    >>> call = '<tool_call>{"name": "mobile_use", "arguments": {"action": "wait", "time": 1}}</tool_call>'
    >>> simple_thinking_reward([think + call], gt_action_type=["wait"],
    ...     gt_action=['{"name": "mobile_use", "arguments": {"action": "wait", "time": 2}}'])
    [1.2]
    >>> simple_thinking_reward([think + call], gt_action_type=["type"], gt_text=["hi"])  # wrong action
    [0.0]
    """
    scores: list[float | None] = []
    for text, truth in rows(completions, columns):
        thought = think_text(text)
        if thought is None or not action_correct(predicted_action(text), truth):
            scores.append(0.0)
            continue
        length = len(tokenizer.encode(thought)) if tokenizer is not None else len(thought)
        scores.append(length_reward(length, bounds) + (bounds.bonus if is_complete(thought) else 0.0))
    return scores
