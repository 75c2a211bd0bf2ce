"""GUI-R1's input-text reward: token F1 of the typed text against the labelled text."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from annotator.domain.actions import Action, Swipe
from annotator.domain.paper_answers import scroll_of
from trainer_bridge.rewards.completions import predicted_action, rows

F1_THRESHOLD = 0.5  # GUI-R1 eq. (R_text): 1 when F1 > 0.5
TEXT_ACTIONS = ("type", "open")  # the free-text arguments; a key or a button is matched exactly by R_Act
# One token per Han, kana or Hangul character (Chinese has no spaces between words, so a "word" would be the
# whole phrase); runs of other letters and digits are words. Punctuation and spaces are not tokens.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")


def tokens(text: str) -> list[str]:
    """Chinese (and Japanese, Korean) by character, other scripts by word, lower-cased.

    >>> tokens("搜索 Red shoes!")
    ['搜', '索', 'red', 'shoes']
    """
    return _TOKEN.findall(text.lower())


def token_f1(predicted: str, truth: str) -> float:
    """The harmonic mean of token precision and recall (SQuAD's F1); two texts without tokens score 1 when
    equal as written ("  " against "  "), else 0.

    >>> token_f1("red shoes", "red running shoes")  # P 1, R 2/3
    0.8
    """
    got, wanted = tokens(predicted), tokens(truth)
    if not got or not wanted:
        return 1.0 if not got and not wanted and predicted == truth else 0.0
    common = sum((Counter(got) & Counter(wanted)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(got), common / len(wanted)
    return 2 * precision * recall / (precision + recall)


def text_f1_reward(
    completions: Sequence[Any], *, f1_threshold: float = F1_THRESHOLD, **columns: Any
) -> list[float | None]:
    """GUI-R1 R_text (section 3.2): 1 when the token F1 of the predicted text against ``gt_text`` exceeds 0.5
    (strictly, as the paper writes ``F1 > 0.5``), else 0. Applies to rows whose labelled action is `type` or
    `open`, and to swipes, whose text in GUI-R1's action space is the scroll's direction (None otherwise); a
    prediction without a text argument scores 0.

    >>> truth = {"gt_action_type": ["type", "type"], "gt_text": ["red running shoes", "红色跑鞋"]}
    >>> text_f1_reward(['<answer>{"action": "type", "text": "red shoes"}</answer>',
    ...                 '<answer>{"action": "type", "text": "红色"}</answer>'], **truth)  # 0.8, then 2/3
    [1.0, 1.0]
    >>> text_f1_reward(['<answer>{"action": "type", "text": "shoes"}</answer>'], **truth)  # F1 = 0.5
    [0.0]
    """
    scores: list[float | None] = []
    for text, truth in rows(completions, columns):
        wanted = _scroll(truth.action) if truth.action_type == "swipe" else truth.text
        if (truth.action_type not in TEXT_ACTIONS and truth.action_type != "swipe") or wanted is None:
            scores.append(None)
            continue
        predicted = predicted_action(text)
        typed = _scroll(predicted) if truth.action_type == "swipe" else getattr(predicted, "text", None)
        correct = isinstance(typed, str) and token_f1(typed, wanted) > f1_threshold
        scores.append(1.0 if correct else 0.0)
    return scores


def _scroll(action: Action | None) -> str | None:
    """A swipe's direction as GUI-R1 writes a scroll's input text (the way the content moves)."""
    return scroll_of(action) if isinstance(action, Swipe) else None
