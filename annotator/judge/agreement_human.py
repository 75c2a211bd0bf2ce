"""How well the human raters agree with each other: the ceiling a judge can be expected to reach.

Krippendorff's alpha (ordinal, every rating, missing ones allowed), Fleiss' kappa (items rated by every
rater) and, per rater, that rater against the majority of the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import krippendorff
import numpy as np
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from annotator.judge.agreement_consensus import LEVELS, RatedItem, TieRule, consensus_labels
from annotator.judge.agreement_pairs import PairStats, defined, pair_stats, quiet


def reliability_data(items: list[RatedItem], raters: list[str], with_judge: bool = False) -> np.ndarray:
    """Raters x items matrix of ratings, NaN where missing (the layout krippendorff.alpha expects)."""
    rows = [[item.humans.get(rater) for item in items] for rater in raters]
    if with_judge:
        rows.append([item.judge for item in items])
    return np.array([[np.nan if rating is None else rating for rating in row] for row in rows], dtype=float)


def alpha_reason(data: np.ndarray, who: str) -> str | None:
    """Why alpha is undefined: too few raters, no item rated twice, or no variation in the pairable ratings."""
    if data.shape[0] < 2:
        return f"needs at least 2 raters ({who})"
    pairable = data[:, np.sum(~np.isnan(data), axis=0) >= 2]
    if pairable.size == 0:
        return f"no item was rated by at least 2 raters ({who})"
    # Only items rated at least twice count, so a lone different rating elsewhere does not help.
    values = np.unique(pairable[~np.isnan(pairable)])
    if len(values) == 1:
        return f"constant ratings: every rating of the items rated at least twice is {int(values[0])} ({who})"
    return None


def krippendorff_alpha(data: np.ndarray, who: str) -> tuple[float | None, str | None]:
    """Ordinal Krippendorff's alpha over the 0-4 rubric, or None with the reason it is undefined."""
    reason = alpha_reason(data, who)
    if reason:
        return None, reason
    with quiet():
        value = krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal", value_domain=list(LEVELS))
    return defined(value), None if defined(value) is not None else f"undefined for these ratings ({who})"


def complete_ratings(items: list[RatedItem], raters: list[str]) -> np.ndarray:
    """Items x raters matrix of the items every rater rated."""
    rows = [[item.humans.get(rater) for rater in raters] for item in items]
    complete = [row for row in rows if raters and all(rating is not None for rating in row)]
    return np.array(complete, dtype=int).reshape(len(complete), len(raters))


def fleiss(items: list[RatedItem], raters: list[str]) -> tuple[float | None, int, str | None]:
    """Fleiss' kappa of the human raters over the complete items: (kappa, items used, reason if undefined)."""
    complete = complete_ratings(items, raters)
    n_items = complete.shape[0]
    if len(raters) < 2:
        return None, n_items, "needs at least 2 raters"
    if n_items == 0:
        return None, 0, "no item was rated by every rater"
    if len(np.unique(complete)) == 1:
        # Chance agreement is then 1 and kappa is 0/0.
        return None, n_items, f"constant ratings: every rating of the complete items is {int(complete[0, 0])}"
    table, _ = aggregate_raters(complete, n_cat=len(LEVELS))  # categories 0..4 = the rubric levels
    with quiet():
        value = defined(fleiss_kappa(table, method="fleiss"))
    return value, n_items, None if value is not None else "undefined for these ratings"


@dataclass(frozen=True)
class RaterVsOthers:
    """One human rater scored like the judge: against the consensus of the other raters."""

    rater: str
    stats: PairStats

    def to_dict(self) -> dict[str, Any]:
        return {"rater": self.rater, **self.stats.to_dict()}


def leave_one_out(items: list[RatedItem], raters: list[str], tie_rule: TieRule, seed: int) -> list[RaterVsOthers]:
    """Each rater vs the majority of the others, over the items where the others have a unique majority.

    Items where the others tie are left out rather than settled by the tie rule: with three raters the
    "others" are two, and a tie rule would turn every disagreement between them into a label the left-out
    rater is then wrong about, which says nothing about that rater. Adjudicated labels are not used either:
    they settle the full panel's label, not that of a subset.
    """
    rows = []
    for rater in raters:
        others = [other for other in raters if other != rater]
        labels = consensus_labels(items, tie_rule, seed, raters=others)
        pairs = [
            (rating, label.label)
            for item, label in zip(items, labels, strict=True)
            if (rating := item.humans.get(rater)) is not None and label.label is not None and not label.flagged
        ]
        own, reference = [p[0] for p in pairs], [p[1] for p in pairs]
        empty = "no item where this rater and a majority of the others rated" if others else "needs at least 2 raters"
        stats = pair_stats(own, reference, f"rating of {rater}", "majority of the others", empty_reason=empty)
        rows.append(RaterVsOthers(rater, stats))
    return rows
