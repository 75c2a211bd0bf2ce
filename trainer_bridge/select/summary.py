"""What a selection run says at its end: the pass-rate histogram per level and how many steps each keep rule keeps
for an export at each level, as one JSON object and as lines for a person."""

from __future__ import annotations

from typing import Any

from trainer_bridge.select.filters import KEEP, PRONE_MIN_TEMPERATURE, SelectionError
from trainer_bridge.select.rates import NO_ANSWER, SelectionRun, histogram

RULES = {
    "hard": "UI-R1: never right, p = 0",
    "band": "GUI-R1: 0 < p < 1",
    "bottleneck": "InfiGUI-R1: p = 0 with the task, p > 0 with the step's action text",
    "prone": f"InfiGUI-R1: 0 < p < 1 at a temperature of at least {PRONE_MIN_TEMPERATURE}",
}


def _outcomes(run: SelectionRun, level: str) -> dict[str, int | str]:
    """Per keep rule: the number of steps it keeps for rows at `level`, or why it cannot be applied to this run."""
    outcomes: dict[str, int | str] = {}
    for name, rule in KEEP.items():
        try:
            outcomes[name] = len(rule(run, level))
        except SelectionError as error:
            outcomes[name] = str(error)
    return outcomes


def selection_summary(run: SelectionRun, steps: int) -> dict[str, Any]:
    """`steps`: how many steps the run's selection holds (a step never answered has no stored row)."""
    outcomes = {level: _outcomes(run, level) for level in run.levels}
    pass_rates = {level: histogram(run, level, steps) for level in run.levels}
    return {
        "evaluation_id": run.evaluation_id,
        "status": run.status,
        "steps": steps,
        "samples": run.samples,
        "temperature": run.temperature,
        "levels": list(run.levels),
        "reward": run.reward,
        "pass_threshold": run.threshold,
        "pass_rates": pass_rates,
        "no_answer": pass_rates["task"][NO_ANSWER] if "task" in pass_rates else steps,
        "keep": {
            level: {name: value if isinstance(value, int) else None for name, value in by_rule.items()}
            for level, by_rule in outcomes.items()
        },
    }


def summary_lines(run: SelectionRun, steps: int) -> list[str]:
    summary = selection_summary(run, steps)
    lines = [
        f"Selection {run.evaluation_id} ({run.status}): {steps} steps, {run.samples} samples each at temperature "
        f"{run.temperature:g}; a sample passes when {run.reward} >= {run.threshold:g}"
    ]
    for level, counts in summary["pass_rates"].items():
        buckets = ", ".join(f"{name}: {count}" for name, count in counts.items())
        lines.append(f"Pass rates at the {level} level: {buckets}")
    for level in run.levels:
        lines.append(f"Steps each rule keeps for an export at --instruction-level {level}:")
        for name, outcome in _outcomes(run, level).items():
            if isinstance(outcome, int):
                lines.append(f"  --keep {name:<10} {outcome} step{'' if outcome == 1 else 's'}  ({RULES[name]})")
            else:
                lines.append(f"  --keep {name:<10} not available: {outcome}")
    if summary["no_answer"]:
        lines.append(f"Steps with no answered sample (no rule keeps them): {summary['no_answer']}")
    if run.status == "complete":
        lines.append(f"Export them with: trainer-bridge export --select {run.evaluation_id} --keep RULE ...")
    return lines
