"""The steps an export keeps from a selection run (`trainer-bridge export --select RUN --keep RULE`), at each
instruction level it writes, and what the export's manifest says about where they came from."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from annotator.storage.database import Database
from trainer_bridge.select.filters import kept_steps
from trainer_bridge.select.rates import load_selection


@dataclass(frozen=True)
class KeptSteps:
    steps: Mapping[str, frozenset[int]]  # instruction level -> the steps whose rows at that level are kept
    provenance: dict[str, Any]  # the run, the rule and the settings that decided, for the manifest
    complete: bool  # False: the run stopped or failed, so some steps have fewer samples or none (not kept)

    def counts(self) -> dict[str, int]:
        return {level: len(steps) for level, steps in self.steps.items()}


def balanced(steps: Mapping[str, frozenset[int]], seed: int) -> dict[str, frozenset[int]]:
    """GUI-R1 3.3: "Since the quantity of low-level data far exceeds that of high-level data, we randomly sample
    1.5K low-level data and combine it with all high-level data". The action-level (low-level) steps are sampled,
    seeded, down to the task-level (high-level) count; every task-level step stays, and so does every action-level
    one when they are already fewer.

    >>> kept = balanced({"task": frozenset({1, 2}), "action": frozenset({1, 2, 3, 4, 5})}, seed=0)
    >>> (len(kept["task"]), len(kept["action"]), kept["action"] <= {1, 2, 3, 4, 5})
    (2, 2, True)
    """
    high, low = steps["task"], steps["action"]
    if len(low) <= len(high):
        return dict(steps)
    return dict(steps) | {"action": frozenset(random.Random(seed).sample(sorted(low), len(high)))}


def steps_to_keep(
    db: Database, evaluation_id: int, keep: str, levels: tuple[str, ...], balance_seed: int | None = None
) -> KeptSteps:
    """The steps `keep` keeps at each of `levels` (the levels the export writes); with `balance_seed` and both
    levels, GUI-R1's balancing (`balanced`). LookupError when there is no such selection run;
    filters.SelectionError when the rule cannot serve it."""
    run = load_selection(db, evaluation_id)
    steps = {level: kept_steps(run, keep, level) for level in levels}
    provenance: dict[str, Any] = {
        "evaluation_id": run.evaluation_id,
        "keep": keep,
        "model": run.model,
        "temperature": run.temperature,
        "samples": run.samples,
        "levels": list(run.levels),
        "reward": run.reward,
        "pass_threshold": run.threshold,
        "status": run.status,
    }
    if balance_seed is not None and set(steps) == {"task", "action"}:
        provenance["balanced"] = {"seed": balance_seed, "action_level_before": len(steps["action"])}
        steps = balanced(steps, balance_seed)
    return KeptSteps(MappingProxyType(steps), provenance, run.status == "complete")
