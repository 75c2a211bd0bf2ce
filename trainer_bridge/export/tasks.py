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
from typing import Any

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.record import SourceStep, SourceTrajectory, StepRecord
from trainer_bridge.export.sft import Sample, sft_sample


def _labelled_actions(trajectory: SourceTrajectory) -> list[dict[str, Any]]:
    """The reference's tool calls in labelled order: corrections in place of wrong steps, no removed ones."""
    actions = []
    for step in trajectory.executed:
        chosen = trajectory.corrections.get(step.index) if step.verdict == "wrong" else step
        if chosen is not None and not chosen.removed and chosen.verdict != "redundant" and chosen.tool_call:
            actions.append(chosen.tool_call)
    return actions


def _reference(runs: list[SourceTrajectory]) -> SourceTrajectory | None:
    successful = [run for run in runs if run.outcome == "success" and _labelled_actions(run)]
    return min(successful, key=lambda run: (len(_labelled_actions(run)), run.trajectory_id), default=None)


def _start_record(run: SourceTrajectory, first: SourceStep) -> StepRecord:
    return StepRecord(
        trajectory_id=run.trajectory_id, trajectory_uid=run.uid, step_id=first.step_id, position=0, kind="task",
        app=run.app, instruction=run.instruction, history=(), screenshots=(first.screenshot_sha256,),
        screen=first.screen, think=first.think or "", action_text=first.action_text or "",
        tool_call=first.tool_call or {}, target_box=None, verdict=first.verdict, review_status=run.review_status,
        judge_score=run.judge_score,
    )  # fmt: skip


def task_sample(runs: list[SourceTrajectory], space: ModelSpace) -> Sample | None:
    """The row of one instruction from its selected runs (None when no run has a step)."""
    reference = _reference(runs)
    start_run = reference or next((run for run in runs if run.executed), None)
    if start_run is None:
        return None
    first = start_run.executed[0]
    sample = sft_sample(_start_record(start_run, first), space, history_images=1)
    actions = _labelled_actions(reference) if reference else []
    successes = sum(run.outcome == "success" for run in runs)
    truth = {
        "instruction_uid": start_run.instruction_uid,
        "package": start_run.app_package,
        "start_package": first.package,
        "start_activity": first.activity,
        "restart_app": start_run.restart_app,
        "runs": len(runs),
        "successes": successes,
        "success_rate": successes / len(runs),
        "reference_trajectory_uid": reference.uid if reference else None,
        "reference_steps": len(actions),
        "reference_actions": json.dumps(actions, ensure_ascii=False, sort_keys=True) if reference else None,
        "reference_actions_model": json.dumps(
            [space.tool_call(call, first.screen) for call in actions], ensure_ascii=False, sort_keys=True
        ) if reference else None,
    }  # fmt: skip
    completion = sample.completion if reference else ""
    task_id = f"task-{start_run.instruction_uid}"
    return Sample(task_id, sample.prompt, completion, sample.images, sample.record, truth)


def task_samples(trajectories: Iterable[SourceTrajectory], space: ModelSpace) -> Iterator[Sample]:
    """One sample per instruction, in the order of each instruction's first trajectory."""
    by_instruction: dict[str, list[SourceTrajectory]] = {}
    for trajectory in trajectories:
        by_instruction.setdefault(trajectory.instruction_uid, []).append(trajectory)
    for runs in by_instruction.values():
        sample = task_sample(runs, space)
        if sample is not None:
            yield sample
