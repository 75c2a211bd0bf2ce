"""Model drafts of a step's labels (pre-annotation), and the rule that decides which of them to offer.

A teacher model is asked for a step's `<think>` / `<action>` / `<tool_call>` from the screenshot, a compressed
description of the screen's UI hierarchy, the instruction and the history (InfiGUI-R1 section 3.1, spatial
reasoning distillation). Its reply is kept only as a suggestion: a draft is never a label until a person accepts
it (``annotator.services.annotation.Editor.accept_draft``), and then each stage it filled is a revision by that
person that names the draft.

Rejection sampling, as InfiGUI-R1 3.1.3 filters the teacher's pairs: a draft is offered only when its action
matches the one executed on the phone (`action_matches`); the others are kept, flagged, so that a step is not
asked about again under the same model and prompt, and so that the flagged ones can be counted and read.

The matching rule, on the parsed actions (device pixels):

- the action types must be equal;
- click and long_press: the drafted point lies inside the target element's box of the executed action (a
  person's box, else the box suggested from the hierarchy) when one is known and holds the executed point;
  otherwise within ``DISTANCE_TOLERANCE`` of the executed point, as a fraction of the screen on each axis
  (Euclidean, Android in the Wild's touch-match rule with a stricter radius);
- swipe: the same direction (the dominant axis of the move, and its sign);
- type, open, key: the same text after normalising (Unicode NFKC, case folded, runs of white space as one,
  stripped), so "iPhone 16" and "iphone  16" match;
- system_button: the same button; terminate: the same status; wait: the type alone (how long is not a choice a
  label turns on).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from annotator.domain import actions as act
from annotator.domain.geometry import Box, ScreenSize

DISTANCE_TOLERANCE = 0.04  # of the screen's width and height: about 43 x 96 pixels on a 1080x2400 phone
DRAFT_STAGES: tuple[str, ...] = ("think", "action_text", "tool_call")  # the label fields a draft can fill
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Draft:
    """One model's proposal for a step's three stages; ``tool_call`` is in device pixels of the step's screen.

    ``matches_executed``: its action matched the one executed (the rejection rule above). ``problem``: why the
    reply could not be read (then there is no usable tool call and it does not match)."""

    id: int | None
    model: str
    prompt_name: str
    think: str | None
    action_text: str | None
    tool_call: dict[str, Any] | None
    matches_executed: bool
    problem: str | None = None
    created_at: datetime | None = None
    prompt_sha256: str = ""
    reply: str | None = None  # the model's reply as it came

    @property
    def flagged(self) -> bool:
        """Not offered: its action did not match the executed one, or the reply could not be read."""
        return not self.matches_executed or self.problem is not None

    def values(self) -> dict[str, Any]:
        """The stage values it proposes (only the stages it has)."""
        found = {"think": self.think, "action_text": self.action_text, "tool_call": self.tool_call}
        return {stage: value for stage, value in found.items() if value not in (None, "")}


def offered_draft(drafts: Iterable[Draft]) -> Draft | None:
    """The draft to offer the annotator: the newest one that is not flagged, else None."""
    usable = [draft for draft in drafts if not draft.flagged]
    if not usable:
        return None
    return max(usable, key=lambda d: (d.created_at or datetime.min, d.id or 0))


def empty_stage(value: Any) -> bool:
    """A stage nobody has filled: no value, or blank text."""
    return value is None or (isinstance(value, str) and not value.strip())


def fill_values(draft: Draft, label: Mapping[str, Any]) -> dict[str, Any]:
    """What accepting `draft` writes into a label whose stage values are `label`: the draft's value of each stage
    that is still empty; a stage a person filled is never overwritten."""
    return {stage: value for stage, value in draft.values().items() if empty_stage(label.get(stage))}


# the rejection rule ------------------------------------------------------------------------------------------


def normalised_text(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


def swipe_direction(start: act.Point, end: act.Point) -> str:
    """ "up", "down", "left" or "right": the dominant axis of the move (vertical on a tie) and its sign."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    if abs(dx) > abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def _parsed(tool_call: Any) -> act.Action | None:
    try:
        return act.action_from_tool_call(tool_call)
    except act.ActionError:
        return None


def _near(a: act.Point, b: act.Point, screen: ScreenSize, tolerance: float) -> bool:
    return math.hypot((a[0] - b[0]) / screen.width, (a[1] - b[1]) / screen.height) <= tolerance


def _points_match(
    drafted: act.Point, executed: act.Point, target: Box | None, screen: ScreenSize, tolerance: float
) -> bool:
    if target is not None and target.contains(*executed):
        return target.contains(*drafted)
    return _near(drafted, executed, screen, tolerance)


def action_matches(
    drafted: Any,
    executed: Any,
    screen: ScreenSize,
    *,
    target: Box | None = None,
    tolerance: float = DISTANCE_TOLERANCE,
) -> bool:
    """Whether a drafted tool call does what the executed one did (module docstring); both in device pixels of a
    `screen`-sized screenshot, `target` the executed action's element box when known. False when either is not a
    valid tool call."""
    mine, done = _parsed(drafted), _parsed(executed)
    if mine is None or done is None or type(mine) is not type(done):
        return False
    match mine, done:
        case (
            (act.Click(coordinate=a) | act.LongPress(coordinate=a)),
            (act.Click(coordinate=b) | act.LongPress(coordinate=b)),
        ):
            return _points_match(a, b, target, screen, tolerance)
        case act.Swipe(coordinate=a1, coordinate2=a2), act.Swipe(coordinate=b1, coordinate2=b2):
            return swipe_direction(a1, a2) == swipe_direction(b1, b2)
        case (
            (act.Type(text=a) | act.Open(text=a) | act.Key(text=a)),
            (act.Type(text=b) | act.Open(text=b) | act.Key(text=b)),
        ):
            return normalised_text(a) == normalised_text(b)
        case act.Wait(), act.Wait():
            return True
    return mine == done  # system_button, terminate: every argument is the choice


# how much a person changed what they accepted (statistics) ------------------------------------------------------


def edit_ratio(before: str, after: str) -> float:
    """The character edit distance (Levenshtein) between two texts over the longer one's length: 0 when equal,
    1 when nothing was kept."""
    from rapidfuzz.distance import Levenshtein  # here: the app's start has no use for it (~20 ms)

    return float(Levenshtein.normalized_distance(before, after))
