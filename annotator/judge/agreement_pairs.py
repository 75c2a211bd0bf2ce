"""Agreement of one set of 0-4 scores with a reference set, item by item (judge vs human consensus).

Every statistic comes from a library (scipy, scikit-learn). Where a statistic is undefined for the data
(no items, one item, constant ratings) it is None with a reason, never 0: the cases are detected up front,
and a NaN that a library still returns is turned into None as well, with its warnings kept quiet.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from scipy import stats
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import confusion_matrix
from statsmodels.stats.inter_rater import cohens_kappa

from annotator.judge.agreement_consensus import LEVELS

Scores = Sequence[int] | np.ndarray  # levels 0-4, as given or resampled by the bootstrap

CORRELATIONS = ("spearman", "kendall_tau_b", "quadratic_weighted_kappa")
Undefined = dict[str, str]


@contextmanager
def quiet() -> Iterator[None]:
    """Silence the numeric warnings of degenerate data: such results are reported as undefined instead."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        for category in (RuntimeWarning, stats.ConstantInputWarning, stats.DegenerateDataWarning):
            warnings.simplefilter("ignore", category)
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        yield


def defined(value: float) -> float | None:
    """A library result as a plain float, or None where it is NaN or infinite."""
    value = float(value)
    return value if math.isfinite(value) else None


def constant_reason(scores: Sequence[int], who: str) -> str | None:
    """Why a rank correlation with `scores` is undefined: all scores equal (or too few to rank)."""
    if len(scores) < 2:
        return "fewer than 2 items"
    if len(set(scores)) == 1:
        return f"constant ratings: every {who} is {scores[0]}"
    return None


def correlation_reason(scores: Sequence[int], reference: Sequence[int], who: str, reference_name: str) -> str | None:
    return constant_reason(scores, who) or constant_reason(reference, reference_name)


def kappa_reason(scores: Sequence[int], reference: Sequence[int], who: str, reference_name: str) -> str | None:
    """Why weighted kappa is undefined: chance disagreement is 0 only when both sides use one and the same level.

    One constant side alone still gives a defined kappa of 0 (agreement no better than chance).
    """
    if len(scores) < 2:
        return "fewer than 2 items"
    if set(scores) == set(reference) and len(set(scores)) == 1:
        return f"constant ratings: every {who} and every {reference_name} is {scores[0]}"
    return None


def spearman(scores: Scores, reference: Scores) -> float:
    with quiet():
        return float(stats.spearmanr(scores, reference).statistic)


def kendall_tau_b(scores: Scores, reference: Scores) -> float:
    with quiet():
        return float(stats.kendalltau(scores, reference, variant="b").statistic)


def quadratic_weighted_kappa(scores: Scores, reference: Scores) -> float:
    """Cohen's kappa with quadratic weights over the whole 0-4 rubric (not only the levels that occur).

    statsmodels' `cohens_kappa` on the 5x5 contingency table: the same value as scikit-learn's
    `cohen_kappa_score(..., weights="quadratic", labels=LEVELS)` (a test holds them equal) at a twentieth of
    the time, which matters in the bootstrap's thousands of resamples (a study report in the app: 4.3 s -> 2 s).
    """
    levels = len(LEVELS)
    table = np.bincount(np.asarray(reference) * levels + np.asarray(scores), minlength=levels**2)
    with quiet():
        return float(cohens_kappa(table.reshape(levels, levels), wt="quadratic", return_results=False))


STATISTICS: dict[str, tuple[Callable[[Scores, Scores], float], Callable[..., str | None]]] = {
    "spearman": (spearman, correlation_reason),
    "kendall_tau_b": (kendall_tau_b, correlation_reason),
    "quadratic_weighted_kappa": (quadratic_weighted_kappa, kappa_reason),
}


@dataclass(frozen=True)
class PairStats:
    """How well `scores` agree with `reference` over the items where both exist."""

    n: int
    exact_count: int
    within_one_count: int
    exact_agreement: float | None
    within_one_agreement: float | None
    mean_absolute_deviation: float | None
    bias: float | None
    spearman: float | None
    kendall_tau_b: float | None
    quadratic_weighted_kappa: float | None
    undefined: Undefined = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def pair_stats(
    scores: Sequence[int],
    reference: Sequence[int],
    who: str = "judge score",
    reference_name: str = "human score",
    empty_reason: str = "no compared items",
) -> PairStats:
    """Exact and within-one agreement, mean absolute deviation, bias (scores minus reference) and the
    rank and kappa statistics of paired scores; `who`, `reference_name` and `empty_reason` word the reasons."""
    scores, reference = list(scores), list(reference)
    n = len(scores)
    undefined: Undefined = {}
    diff = np.asarray(scores, dtype=float) - np.asarray(reference, dtype=float)
    exact, within = int(np.sum(diff == 0)), int(np.sum(np.abs(diff) <= 1))
    if n == 0:
        for name in ("exact_agreement", "within_one_agreement", "mean_absolute_deviation", "bias"):
            undefined[name] = empty_reason
    values: dict[str, float | None] = {}
    for name, (statistic, reason_of) in STATISTICS.items():
        reason = empty_reason if n == 0 else reason_of(scores, reference, who, reference_name)
        values[name] = None if reason else defined(statistic(scores, reference))
        if values[name] is None:
            undefined[name] = reason or "undefined for these ratings"
    return PairStats(
        n=n,
        exact_count=exact,
        within_one_count=within,
        exact_agreement=exact / n if n else None,
        within_one_agreement=within / n if n else None,
        mean_absolute_deviation=float(np.mean(np.abs(diff))) if n else None,
        bias=float(np.mean(diff)) if n else None,
        undefined=undefined,
        **values,
    )


def wilson_interval(successes: int, n: int) -> list[float] | None:
    """Wilson score 95% interval of a proportion (scipy binomtest); None without trials."""
    if n == 0:
        return None
    interval = stats.binomtest(successes, n).proportion_ci(confidence_level=0.95, method="wilson")
    return [float(interval.low), float(interval.high)]


@dataclass(frozen=True)
class BootstrapInterval:
    """A percentile interval from paired resamples; `undefined_resamples` counts those where the
    statistic did not exist (e.g. a resample with constant ratings). None where no bootstrap ran."""

    interval: list[float] | None
    undefined_resamples: int | None
    reason: str | None = None


def bootstrap_interval(
    name: str, scores: Sequence[int], reference: Sequence[int], n_boot: int, seed: int, point_reason: str | None
) -> BootstrapInterval:
    """Paired percentile bootstrap 95% interval of one of CORRELATIONS (items resampled with their pairs)."""
    if point_reason:
        return BootstrapInterval(None, None, point_reason)
    if n_boot == 0:
        return BootstrapInterval(None, None, "no bootstrap resamples requested (n_boot=0)")
    statistic, reason_of = STATISTICS[name]

    def on_resample(resampled: np.ndarray, resampled_reference: np.ndarray) -> float:
        if reason_of(list(resampled), list(resampled_reference), "", ""):
            return math.nan
        return statistic(resampled, resampled_reference)

    data = (np.asarray(scores), np.asarray(reference))
    with quiet():
        result = stats.bootstrap(
            data,
            on_resample,
            n_resamples=n_boot,
            paired=True,
            vectorized=False,
            method="percentile",
            rng=np.random.default_rng(seed),
        )
    distribution = np.asarray(result.bootstrap_distribution, dtype=float)
    undefined = int(np.isnan(distribution).sum())
    if undefined == len(distribution):
        return BootstrapInterval(None, undefined, "the statistic is undefined in every bootstrap resample")
    # Resamples where the statistic is undefined (NaN) are left out: the interval is the 2.5th and 97.5th
    # percentile of the defined ones, and their number is reported next to it. scipy's own interval would
    # be NaN as soon as one resample is.
    low, high = np.nanpercentile(distribution, [2.5, 97.5])
    return BootstrapInterval([float(low), float(high)], undefined)


def confusion(scores: Sequence[int], reference: Sequence[int]) -> list[list[int]]:
    """5x5 counts: rows are the reference (human) level 0-4, columns the scored (judge) level 0-4."""
    if not scores:
        return [[0] * len(LEVELS) for _ in LEVELS]
    return confusion_matrix(list(reference), list(scores), labels=list(LEVELS)).tolist()


@dataclass(frozen=True)
class LevelRecall:
    """Of the items the humans put at `level`, the fraction the judge scored exactly the same."""

    level: int
    n: int
    correct: int
    recall: float | None
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def per_level_recall(matrix: list[list[int]]) -> list[LevelRecall]:
    recalls = []
    for level, row in zip(LEVELS, matrix, strict=True):
        n, correct = sum(row), row[level]
        reason = None if n else f"no items with human level {level}"
        recalls.append(LevelRecall(level, n, correct, correct / n if n else None, reason))
    return recalls
