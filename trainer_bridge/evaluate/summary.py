"""An evaluation's summary: the metrics of `annotator.domain.evaluation` with bootstrap intervals.

The intervals resample trajectories, not steps (a cluster bootstrap): the steps of one trajectory share its
app, its instruction and its history, so resampling them one by one would make the intervals too narrow.
Each headline figure is a ratio of per-trajectory sums (steps right / steps asked), so `scipy.stats.bootstrap`
resamples the paired per-trajectory numerators and denominators. 95%, percentile method, 2,000 resamples, a
fixed seed (the same evaluation always gets the same interval).
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from scipy import stats

from annotator.domain.evaluation import HEADLINE, StepScore, first_samples, summarise
from annotator.storage import evaluations
from annotator.storage.database import Database

CONFIDENCE = 0.95
RESAMPLES = 2000
SEED = 0

# Per trajectory: (numerator, denominator) of each headline figure.
_PARTS: dict[str, Callable[[list[StepScore]], tuple[int, int]]] = {
    "step_accuracy": lambda steps: (sum(s.accurate for s in steps), len(steps)),
    "task_success": lambda steps: (int(all(s.accurate for s in steps)), 1),
    "type_match": lambda steps: (sum(s.type_match for s in steps), len(steps)),
    "exact_match": lambda steps: (sum(s.exact_match for s in steps), len(steps)),
    "grounding_accuracy": lambda steps: (
        sum(bool(s.grounded) for s in steps if s.grounded is not None),
        sum(s.grounded is not None for s in steps),
    ),
    "step_success_rate": lambda steps: (sum(s.step_success for s in steps), len(steps)),
}


def _ratio_of_sums(numerators: np.ndarray, denominators: np.ndarray, axis: int = -1) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return numerators.sum(axis=axis) / denominators.sum(axis=axis)


def interval(numerators: Sequence[int], denominators: Sequence[int]) -> list[float] | None:
    """The 95% interval of sum(numerators) / sum(denominators) over resampled clusters; None with fewer than
    two clusters that count."""
    pairs = [(n, d) for n, d in zip(numerators, denominators, strict=True) if d > 0]
    if len(pairs) < 2:
        return None
    top, bottom = np.array([p[0] for p in pairs], float), np.array([p[1] for p in pairs], float)
    ratios = top / bottom
    if np.all(ratios == ratios[0]):
        value = float(top.sum() / bottom.sum())
        return [value, value]  # every cluster agrees: no resample can differ
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate resamples warn; the percentile interval is still right
        result = stats.bootstrap(
            (top, bottom),
            _ratio_of_sums,
            paired=True,
            vectorized=True,
            confidence_level=CONFIDENCE,
            n_resamples=RESAMPLES,
            method="percentile",
            rng=np.random.default_rng(SEED),
        )
    low, high = result.confidence_interval
    return [float(low), float(high)]


def intervals(scores: Iterable[StepScore]) -> dict[str, list[float] | None]:
    by_trajectory: dict[int, list[StepScore]] = defaultdict(list)
    for score in first_samples(scores):
        by_trajectory[score.trajectory_id].append(score)
    found = {}
    for name in HEADLINE:
        parts = [_PARTS[name](steps) for steps in by_trajectory.values()]
        found[name] = interval([p[0] for p in parts], [p[1] for p in parts])
    return found


def evaluation_summary(
    db: Database, evaluation_id: int, seen_apps: Iterable[str] | None, levels: Sequence[str], first_sampled: int = 0
) -> dict[str, Any]:
    """The stored summary: the first level's figures at the top, with intervals and request counts, and the
    figures of any other level under `levels`; with `first_sampled` 1 the headline is each step's greedy answer and
    pass@k counts the samples after it (`headline_from` says which)."""
    first, *others = levels
    scores = evaluations.step_scores(db, evaluation_id, first)
    summary = summarise(scores, seen_apps, first_sampled) | {"level": first, "intervals": intervals(scores)}
    summary["headline_from"] = "greedy" if first_sampled else "first answer"
    summary["requests"] = evaluations.prediction_counts(db, evaluation_id)
    if others:
        summary["levels"] = {
            level: summarise(evaluations.step_scores(db, evaluation_id, level), first_sampled=first_sampled)
            for level in others
        }
    return summary
