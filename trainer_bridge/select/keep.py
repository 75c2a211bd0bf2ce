"""The steps an export keeps from a selection run (`trainer-bridge export --select RUN --keep RULE`), and what the
export's manifest says about where they came from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from annotator.storage.database import Database
from trainer_bridge.select.filters import kept_steps
from trainer_bridge.select.rates import load_selection


@dataclass(frozen=True)
class KeptSteps:
    steps: frozenset[int]
    provenance: dict[str, Any]  # the run, the rule and the settings that decided, for the manifest
    complete: bool  # False: the run stopped or failed, so some steps have fewer samples or none (not kept)


def steps_to_keep(db: Database, evaluation_id: int, keep: str) -> KeptSteps:
    """LookupError when there is no such selection run; filters.SelectionError when the rule cannot serve it."""
    run = load_selection(db, evaluation_id)
    steps = kept_steps(run, keep)
    provenance = {
        "evaluation_id": run.evaluation_id, "keep": keep, "model": run.model, "temperature": run.temperature,
        "samples": run.samples, "levels": list(run.levels), "reward": run.reward, "pass_threshold": run.threshold,
        "status": run.status,
    }  # fmt: skip
    return KeptSteps(steps, provenance, run.status == "complete")
