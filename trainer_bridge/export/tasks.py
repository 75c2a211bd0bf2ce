"""Stage `grpo-task` (Mobile-R1 stage 3): one row per instruction, for online rollouts on a phone.

The prompt is the agent's conversation at the first step (no history, the start screen), so a rollout starts
exactly as collection did. Beside it: the instruction's uid (a rollout environment finds its success check
by it; the virtual phone's instructions keep theirs), the app's package, the start state (the app and activity in the
foreground on the start screen, and whether runs restarted the app first), and what the collected runs say
about success: how many runs, how many succeeded (the annotator's judgement where there is one), and the
shortest successful run as a reference (`reference_actions`, its labelled tool calls in device pixels and in
the model's space; `answer`, its first reply).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from annotator.domain.model_space import ModelSpace
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PromptVariant
from annotator.domain.trajectory import LabelledTrajectory, Outcome
from trainer_bridge.export.record import start_record
from trainer_bridge.export.sft import Sample, sft_sample


def _reference(runs: list[LabelledTrajectory]) -> LabelledTrajectory | None:
    """The shortest successful run (by its labelled actions), the oldest on a tie."""
    successful = [run for run in runs if run.outcome == Outcome.SUCCESS and run.labelled_actions()]
    return min(successful, key=lambda run: (len(run.labelled_actions()), run.id or 0), default=None)


def task_sample(
    runs: list[LabelledTrajectory], space: ModelSpace, variant: PromptVariant = DEFAULT_PROMPT_VARIANT
) -> Sample | None:
    """The row of one instruction from its selected runs (None when no run has a step)."""
    reference = _reference(runs)
    start_run = reference or next((run for run in runs if run.executed), None)
    if start_run is None:
        return None
    record = start_record(start_run)
    assert record is not None  # the run has an executed step
    first = start_run.executed[0]
    sample = sft_sample(record, space, 1, variant)
    actions = reference.labelled_actions() if reference else []
    successes = sum(run.outcome == Outcome.SUCCESS for run in runs)
    truth = {
        "instruction_uid": start_run.instruction_uid,
        "package": start_run.app_package,
        "start_package": first.raw.package,
        "start_activity": first.raw.activity,
        "restart_app": start_run.restart_app,
        "runs": len(runs),
        "successes": successes,
        "success_rate": successes / len(runs),
        "reference_trajectory_uid": reference.uid if reference else None,
        "reference_steps": len(actions),
        "reference_actions": json.dumps(actions, ensure_ascii=False, sort_keys=True) if reference else None,
        "reference_actions_model": json.dumps(
            [space.tool_call(call, first.screen) for call in actions], ensure_ascii=False, sort_keys=True
        )
        if reference
        else None,
    }
    completion = sample.completion if reference else ""
    task_id = f"task-{start_run.instruction_uid}"
    return Sample(task_id, sample.prompt, completion, sample.images, sample.record, truth)


def task_samples(
    trajectories: Iterable[LabelledTrajectory], space: ModelSpace, variant: PromptVariant = DEFAULT_PROMPT_VARIANT
) -> Iterator[Sample]:
    """One sample per instruction, in the order of each instruction's first trajectory."""
    by_instruction: dict[str | None, list[LabelledTrajectory]] = {}
    for trajectory in trajectories:
        by_instruction.setdefault(trajectory.instruction_uid, []).append(trajectory)
    for runs in by_instruction.values():
        sample = task_sample(runs, space, variant)
        if sample is not None:
            yield sample
