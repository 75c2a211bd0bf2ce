"""Evaluation metrics from per-step facts: the figures of Mobile-R1 5.1.5 and the AndroidControl / GUI-Odyssey
protocol, per app and per split, pass@k, and the per-step differences between two evaluations.

Every step is asked with its labelled history (the ground-truth history), so each step is scored on its own:

- step accuracy (Mobile-R1 Acc.): the reply has the format (R_Fmt = 1) and the action is right (R_Act = 1);
- task success (Task Succ.): every step of the trajectory is accurate;
- type match (TM): the predicted action type is the labelled one (a system button's button included);
- exact match (EM): type and every argument right, by R_Act's rules (a point in the target box);
- grounding accuracy (GR): over steps whose labelled action has a point, the predicted point is right (OS-Atlas:
  within 14% of the screen width of the labelled point, the rule UI-AGILE and GUI-R1 report);
- step success rate (SR): type and every argument right by the OS-Atlas rule (EM with GR's point rule);
- argument errors (Avg Err.): steps with the right type but a wrong argument, counted.

Headline figures use each step's first answer: greedy, as `trainer-bridge eval` asks it first whenever it also
samples at a temperature; pass@k uses the n samples per step after it with the unbiased estimator of Chen et al.
(2021), 1 - C(n-c, k) / C(n, k), averaged over steps.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

HEADLINE = ("step_accuracy", "task_success", "type_match", "exact_match", "grounding_accuracy", "step_success_rate")
# On phones: Mobile-R1's Tail Succ. (the task done at the end, by the phone's check or the judge) and the stricter
# share done *and* claimed by the model; Mobile-R1's Task Succ. (every step right) is an offline figure only.
ONLINE_HEADLINE = ("claimed_and_done", "tail_success")
_LEGACY_ONLINE = {"task_success": "claimed_and_done"}  # the name an online summary stored before issue 28
# The count each figure is a share of (offline, then online): where a summary holds it as 0, the figure measured
# nothing, whatever value was written for it.
DENOMINATORS = {
    "step_accuracy": "steps",
    "task_success": "trajectories",
    "type_match": "steps",
    "exact_match": "steps",
    "grounding_accuracy": "grounding_steps",
    "step_success_rate": "steps",
    "tail_success": "checked",
    "claimed_and_done": "checked",
    "claimed_success": "rollouts",
}


def measured(figures: dict[str, Any], key: str) -> Any:
    """The figure `key` of `figures`, or None where the count it is a share of is 0 (no step, no checked run)."""
    count = figures.get(DENOMINATORS.get(key, ""))
    return None if isinstance(count, int) and not isinstance(count, bool) and count == 0 else figures.get(key)


def current_online_summary(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """An online summary under today's names (an older one stored "done and claimed" as task_success)."""
    if not summary:
        return summary

    def renamed(figures: dict[str, Any]) -> dict[str, Any]:
        found = dict(figures)
        for old, new in _LEGACY_ONLINE.items():
            if old in found and new not in found:
                found[new] = found.pop(old)
        return found

    current = renamed(summary)
    if isinstance(current.get("per_app"), dict):
        current["per_app"] = {app: renamed(figures) for app, figures in current["per_app"].items()}
    return current


@dataclass(frozen=True)
class StepScore:
    """One answer to one step and how it scored (a failed request is no answer: it is not a StepScore)."""

    trajectory_id: int
    step_id: int
    position: int
    app: str
    sample: int
    format_ok: bool
    type_match: bool
    exact_match: bool
    grounded: bool | None  # None: the labelled action has no point
    step_success: bool

    @property
    def accurate(self) -> bool:
        return self.format_ok and self.exact_match


def _ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def figures(scores: Sequence[StepScore]) -> dict[str, Any]:
    """The headline figures over `scores` (one per step: their first samples), with the counts behind them."""
    by_trajectory: dict[int, list[bool]] = defaultdict(list)
    for score in scores:
        by_trajectory[score.trajectory_id].append(score.accurate)
    pointed = [score.grounded for score in scores if score.grounded is not None]
    steps = len(scores)
    return {
        "step_accuracy": _ratio(sum(score.accurate for score in scores), steps),
        "task_success": _ratio(sum(all(done) for done in by_trajectory.values()), len(by_trajectory)),
        "type_match": _ratio(sum(score.type_match for score in scores), steps),
        "exact_match": _ratio(sum(score.exact_match for score in scores), steps),
        "grounding_accuracy": _ratio(sum(pointed), len(pointed)),
        "step_success_rate": _ratio(sum(score.step_success for score in scores), steps),
        "argument_errors": sum(score.type_match and not score.exact_match for score in scores),
        "format_errors": sum(not score.format_ok for score in scores),
        "steps": steps,
        "grounding_steps": len(pointed),
        "trajectories": len(by_trajectory),
    }


def first_samples(scores: Iterable[StepScore]) -> list[StepScore]:
    """Each step's first sample, in trajectory and step order."""
    firsts: dict[int, StepScore] = {}
    for score in scores:
        kept = firsts.get(score.step_id)
        if kept is None or score.sample < kept.sample:
            firsts[score.step_id] = score
    return sorted(firsts.values(), key=lambda score: (score.trajectory_id, score.position))


def pass_at_k(scores: Iterable[StepScore], first_sampled: int = 0) -> dict[str, float]:
    """pass@k of step accuracy for k = 1 .. the fewest samples any step has (unbiased estimator), {} with one;
    the samples are the answers from `first_sampled` on (answer 0 is a greedy one when it is 1)."""
    counts: dict[int, list[bool]] = defaultdict(list)
    for score in scores:
        if score.sample >= first_sampled:
            counts[score.step_id].append(score.accurate)
    if not counts:
        return {}
    n_min = min(len(answers) for answers in counts.values())
    if n_min < 2:
        return {}
    result = {}
    for k in range(1, n_min + 1):
        values = [1 - comb(len(a) - sum(a), k) / comb(len(a), k) for a in counts.values()]
        result[str(k)] = sum(values) / len(values)
    return result


def summarise(
    scores: Sequence[StepScore], seen_apps: Iterable[str] | None = None, first_sampled: int = 0
) -> dict[str, Any]:
    """Headline figures (top level, each step's first answer: the greedy one when `first_sampled` is 1), per app,
    per split (seen / unseen apps, when the training apps are known) and pass@k over the samples. Steps are
    grouped by app in the order of their names."""
    firsts = first_samples(scores)
    summary = figures(firsts)
    by_app: dict[str, list[StepScore]] = defaultdict(list)
    for score in firsts:
        by_app[score.app].append(score)
    summary["per_app"] = {app: figures(by_app[app]) for app in sorted(by_app)}
    if seen_apps is not None:
        seen = set(seen_apps)
        summary["per_split"] = {
            "seen": figures([score for score in firsts if score.app in seen]),
            "unseen": figures([score for score in firsts if score.app not in seen]),
        }
    summary["pass_at_k"] = pass_at_k(scores, first_sampled)
    return summary


@dataclass(frozen=True)
class StepDifference:
    """One step scored in both evaluations (first samples) where they disagree on accuracy."""

    step_id: int
    trajectory_id: int
    position: int
    app: str
    first: bool
    second: bool


def compare(first: Sequence[StepScore], second: Sequence[StepScore]) -> dict[str, Any]:
    """Two evaluations on the steps both answered: each one's figures there, the differences of the headline
    figures (second - first), and the steps one got right and the other wrong."""
    a = {score.step_id: score for score in first_samples(first)}
    b = {score.step_id: score for score in first_samples(second)}
    shared = sorted(set(a) & set(b), key=lambda step: (a[step].trajectory_id, a[step].position))
    figures_a, figures_b = figures([a[s] for s in shared]), figures([b[s] for s in shared])
    changed = [
        StepDifference(s, a[s].trajectory_id, a[s].position, a[s].app, a[s].accurate, b[s].accurate)
        for s in shared
        if a[s].accurate != b[s].accurate
    ]
    deltas = {
        name: (figures_b[name] - figures_a[name])
        if figures_a[name] is not None and figures_b[name] is not None
        else None
        for name in HEADLINE
    }
    return {
        "shared_steps": len(shared),
        "only_first": len(set(a) - set(b)),
        "only_second": len(set(b) - set(a)),
        "first": figures_a,
        "second": figures_b,
        "difference": deltas,
        "fixed": [d for d in changed if d.second],
        "broken": [d for d in changed if d.first],
    }
