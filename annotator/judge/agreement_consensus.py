"""The rated items of a scoring study and the human consensus label of each (Mobile-R1 Appendix I).

Each trajectory gets a 0-4 rubric score from the judge and from several blind human raters. The human
score is the majority label; where the raters have no unique majority the item is flagged for
adjudication and a tie rule picks a provisional label so that the statistics can still be computed.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

LEVELS = (0, 1, 2, 3, 4)
TieRule = Literal["median", "random", "low"]
TIE_RULES: tuple[TieRule, ...] = ("median", "random", "low")


def check_level(value: object, what: str) -> None:
    """Raise ValueError unless `value` is a rubric level or None (missing)."""
    if value is not None and (isinstance(value, bool) or value not in LEVELS):
        raise ValueError(f"{what}: {value!r} is not a rubric level (an integer 0 to 4) or None")


@dataclass(frozen=True)
class RatedItem:
    """One trajectory of the study: the judge's score and each human rater's (None = missing)."""

    item: str
    judge: int | None
    humans: dict[str, int | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_level(self.judge, f"item {self.item!r}, judge")
        for rater, rating in self.humans.items():
            check_level(rating, f"item {self.item!r}, rater {rater!r}")


@dataclass(frozen=True)
class Consensus:
    """The human label of one item; `flagged` means no unique majority, so it needs adjudication."""

    label: int | None
    flagged: bool
    reason: str


def check_tie_rule(tie_rule: str) -> None:
    if tie_rule not in TIE_RULES:
        raise ValueError(f"unknown tie rule {tie_rule!r}; choose one of {', '.join(TIE_RULES)}")


def consensus(
    ratings: Iterable[int | None], tie_rule: TieRule = "median", rng: random.Random | None = None
) -> Consensus:
    """The majority label of the present ratings; without a unique majority the tie rule decides.

    Tie rules: ``median`` is statistics.median_low of all present ratings (low, so that it stays a rubric
    level), ``random`` a choice among the tied most frequent labels drawn from `rng`, ``low`` the lowest
    of the tied labels.
    """
    check_tie_rule(tie_rule)
    present = [rating for rating in ratings if rating is not None]
    if not present:
        return Consensus(None, False, "no ratings")
    counts = Counter(present).most_common()
    top = counts[0][1]
    tied = sorted(label for label, count in counts if count == top)
    if len(tied) == 1:
        return Consensus(tied[0], False, f"majority: {top} of {len(present)} ratings are {tied[0]}")
    label = break_tie(present, tied, tie_rule, rng)
    listed = ", ".join(str(level) for level in tied)
    return Consensus(label, True, f"no unique majority (tied: {listed}); the {tie_rule} rule gives {label}")


def break_tie(present: list[int], tied: list[int], tie_rule: TieRule, rng: random.Random | None) -> int:
    if tie_rule == "median":
        return statistics.median_low(present)
    if tie_rule == "low":
        return tied[0]
    # A fixed default keeps a report reproducible when the caller passes no generator.
    return (rng or random.Random(0)).choice(tied)


def raters_of(items: Iterable[RatedItem]) -> list[str]:
    """Every rater name, in the order they first appear; a rater absent from an item has no rating there."""
    return list(dict.fromkeys(rater for item in items for rater in item.humans))


def consensus_labels(
    items: list[RatedItem],
    tie_rule: TieRule,
    seed: int,
    raters: list[str] | None = None,
    adjudicated: dict[str, int] | None = None,
) -> list[Consensus]:
    """The consensus of every item over `raters` (default: all), with adjudicated labels taking precedence.

    Each call draws its random tie-breaks from a fresh generator seeded with `seed`, so that the same
    study gives the same labels in every part of the report.
    """
    rng = random.Random(seed)
    adjudicated = adjudicated or {}
    labels = []
    for item in items:
        if item.item in adjudicated:
            labels.append(Consensus(adjudicated[item.item], False, "adjudicated"))
            continue
        chosen = item.humans if raters is None else {rater: item.humans.get(rater) for rater in raters}
        labels.append(consensus(chosen.values(), tie_rule, rng))
    return labels


def check_study(items: list[RatedItem], adjudicated: dict[str, int] | None) -> None:
    """Raise ValueError for duplicate item ids or adjudications of unknown items or outside the rubric."""
    seen: set[str] = set()
    for item in items:
        if item.item in seen:
            raise ValueError(f"item {item.item!r} appears more than once")
        seen.add(item.item)
    for item_id, label in (adjudicated or {}).items():
        if item_id not in seen:
            raise ValueError(f"adjudicated item {item_id!r} is not among the rated items")
        check_level(label, f"adjudicated item {item_id!r}")
        if label is None:
            raise ValueError(f"adjudicated item {item_id!r} needs a label, not None")
