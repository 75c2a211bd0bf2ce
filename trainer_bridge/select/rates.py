"""A stored selection run's pass rates: for each step and instruction level, how many sampled answers the reward
scored and how many reached the pass threshold; the run's settings that the keep rules depend on.

A step's pass rate p is passed / scored over its answered samples: a failed request is no evidence either way,
so it is left out rather than counted as a failure (running the same command again asks it again).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from annotator.storage.database import Database
from annotator.storage.selection_runs import selection_run, step_passes

# Histogram buckets of the pass rate: 0 and 1 on their own (what the keep rules test), the rest in quarters.
BUCKETS = ("0", "(0,0.25]", "(0.25,0.5]", "(0.5,0.75]", "(0.75,1)", "1")
NO_ANSWER = "no answer"


@dataclass(frozen=True)
class StepRate:
    scored: int  # answered samples the reward scored
    passed: int  # of them, those whose reward reached the threshold

    @property
    def answered(self) -> bool:
        return self.scored > 0

    @property
    def rate(self) -> float | None:
        return self.passed / self.scored if self.scored else None


@dataclass(frozen=True)
class SelectionRun:
    """What a selection measured; `rates[step_id][level]` for every step with a stored request at that level."""

    evaluation_id: int
    model: str  # the policy's model name, as the evaluation stored it
    status: str  # complete, stopped, failed or running (evaluations.STATUSES)
    temperature: float
    samples: int
    levels: tuple[str, ...]
    reward: str
    threshold: float
    rates: Mapping[int, Mapping[str, StepRate]]

    def at(self, level: str) -> dict[int, StepRate]:
        """The steps' rates at `level` (steps with no request stored there are absent)."""
        return {step: by_level[level] for step, by_level in self.rates.items() if level in by_level}


def _setting(settings: dict[str, Any], name: str, evaluation_id: int) -> Any:
    if name not in settings:
        raise LookupError(
            f"selection {evaluation_id} has no {name!r} in its settings; make it again with `trainer-bridge select`"
        )
    return settings[name]


def load_selection(db: Database, evaluation_id: int) -> SelectionRun:
    """The selection run `evaluation_id` with its pass rates; LookupError when there is none or it is no selection."""
    info = selection_run(db, evaluation_id)
    threshold = float(_setting(info.settings, "pass_threshold", evaluation_id))
    rates: dict[int, dict[str, StepRate]] = {}
    for row in step_passes(db, evaluation_id, threshold):
        rates.setdefault(row.step_id, {})[row.level] = StepRate(row.scored, row.passed)
    settings = {name: _setting(info.settings, name, evaluation_id) for name in ("temperature", "samples", "levels")}
    return SelectionRun(
        evaluation_id,
        str(info.policy.get("model", "")),
        info.status,
        float(settings["temperature"]),
        int(settings["samples"]),
        tuple(settings["levels"]),
        str(_setting(info.settings, "reward", evaluation_id)),
        threshold,
        MappingProxyType({step: MappingProxyType(by_level) for step, by_level in rates.items()}),
    )


def bucket(rate: float) -> str:
    """The histogram bucket of a pass rate.

    >>> [bucket(p) for p in (0.0, 0.25, 0.3, 0.75, 0.9, 1.0)]
    ['0', '(0,0.25]', '(0.25,0.5]', '(0.5,0.75]', '(0.75,1)', '1']
    """
    if rate <= 0:
        return BUCKETS[0]
    if rate >= 1:
        return BUCKETS[-1]
    return BUCKETS[min(4, max(1, -int(-rate // 0.25)))]


def histogram(run: SelectionRun, level: str, steps: int) -> dict[str, int]:
    """How many of the run's `steps` fall in each pass-rate bucket at `level`; NO_ANSWER: no scored sample."""
    counts = dict.fromkeys(BUCKETS, 0)
    for rate in run.at(level).values():
        if rate.rate is not None:
            counts[bucket(rate.rate)] += 1
    answered = sum(counts.values())
    return counts | {NO_ANSWER: max(0, steps - answered)}
