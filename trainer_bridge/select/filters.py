"""The keep rules of the papers' data selection, as pure functions of a selection run's pass rates.

Each returns the ids of the steps it keeps for rows asked at one instruction level (`task` or `action`, the level
the export writes): difficulty is measured on the question the model is trained on, so an action-level export
(UI-R1's low-level instructions) keeps by the action-level pass rates. A step with no scored sample at a level
the rule reads is never kept: nothing was measured about it (`rates.histogram` counts those as "no answer"). A
rule that cannot be applied to a run (a level it did not ask, a temperature or sample count that makes the rule
meaningless) raises `SelectionError` saying what to run instead, rather than keeping nothing in silence.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from trainer_bridge.select.rates import SelectionRun, StepRate

# InfiGUI-R1's "heightened temperature" for prone-to-error steps: why 0.7, in prone's docstring.
PRONE_MIN_TEMPERATURE = 0.7


class SelectionError(ValueError):
    """The keep rule cannot be applied to this selection run; the message says what to run instead."""


def _need_samples(run: SelectionRun, rule: str) -> None:
    if run.samples < 2:
        raise SelectionError(
            f"{rule} keeps steps with 0 < p < 1, which needs at least 2 samples per step; selection "
            f"{run.evaluation_id} took {run.samples} (run select with --samples 8)"
        )


def _rates(run: SelectionRun, level: str, rule: str) -> dict[int, StepRate]:
    """The run's pass rates at `level`; SelectionError when the run never asked that level."""
    if level not in run.levels:
        wanted = ",".join(dict.fromkeys((*run.levels, level)))
        asked = ",".join(run.levels)
        raise SelectionError(
            f"{rule} reads the pass rates of the {level} level the export writes; selection "
            f"{run.evaluation_id} asked {asked} (run select with --levels {wanted})"
        )
    return run.at(level)


def hard(run: SelectionRun, level: str = "task") -> frozenset[int]:
    """UI-R1 3.3 "Difficulty": a step is hard when the model's answer does not match the ground truth; with N
    samples, when none of them passes at `level` (p = 0)."""
    return frozenset(step for step, rate in _rates(run, level, "hard").items() if rate.answered and rate.passed == 0)


def band(run: SelectionRun, level: str = "task") -> frozenset[int]:
    """GUI-R1 3.3 "Data filtering": sample the model several times (10 there) per example and remove those with an
    estimated accuracy of 0 or 1; kept: 0 < p < 1 at `level` (each level's problems on their own, as GUI-R1 filters
    its low- and high-level data apart; `keep.balanced` then evens their counts)."""
    _need_samples(run, "band")
    return frozenset(step for step, rate in _rates(run, level, "band").items() if 0 < rate.passed < rate.scored)


def bottleneck(run: SelectionRun, level: str = "task") -> frozenset[int]:
    """InfiGUI-R1 3.1.1 reasoning-bottleneck samples: the model fails with the overall task instruction but succeeds
    when also given the step's sub-goal. Here: p = 0 at the task level and p > 0 at the action level (the step's
    labelled action text as the instruction, offline evaluation's `action` level); the same steps whatever `level`
    the export writes, since the rule compares the two."""
    if "action" not in run.levels:
        raise SelectionError(
            f"bottleneck compares the task and the action level; selection {run.evaluation_id} "
            "asked only the task level (run select with --levels task,action)"
        )
    action = run.at("action")
    return frozenset(
        step
        for step, rate in run.at("task").items()
        if rate.answered and rate.passed == 0 and step in action and action[step].passed > 0
    )


def prone(run: SelectionRun, level: str = "task") -> frozenset[int]:
    """InfiGUI-R1 3.2.3 prone-to-error steps: N answers sampled at a heightened temperature T, kept when
    0 < P_success < 1 (the model can act right but is unstable).

    The paper gives no T. The run's temperature must be at least PRONE_MIN_TEMPERATURE, 0.7: offline evaluation
    decodes greedily (0), and 0.7 is the lowest temperature the seed papers sample at (Mobile-R1's pass@k study;
    its GRPO rollouts use 1 for exploration). A colder run's answers barely vary, so its 0 < p < 1 would be
    GUI-R1's band under another name, not instability; that run is refused rather than relabelled."""
    if run.temperature < PRONE_MIN_TEMPERATURE:
        raise SelectionError(
            f"prone needs answers sampled at a raised temperature (at least {PRONE_MIN_TEMPERATURE}); selection "
            f"{run.evaluation_id} sampled at {run.temperature:g} (run select with --temperature 1.0)"
        )
    _need_samples(run, "prone")
    return frozenset(step for step, rate in _rates(run, level, "prone").items() if 0 < rate.passed < rate.scored)


KEEP: MappingProxyType[str, Callable[[SelectionRun, str], frozenset[int]]] = MappingProxyType(
    {"hard": hard, "band": band, "bottleneck": bottleneck, "prone": prone}
)


def kept_steps(run: SelectionRun, keep: str, level: str = "task") -> frozenset[int]:
    """The steps the rule named `keep` keeps at `level`; SelectionError for an unknown rule or one the run cannot
    serve."""
    if keep not in KEEP:
        raise SelectionError(f"keep {keep!r}: expected one of {', '.join(KEEP)}")
    return KEEP[keep](run, level)
