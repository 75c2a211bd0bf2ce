"""A workspace of accepted, labelled virtual-phone trajectories for the benchmarks that need labels (evaluation,
training): every instruction's solution played once on a fresh phone, then copied until there are enough steps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from annotator.demo.phone.instructions import all_instructions
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.solver import run_solution
from annotator.domain.trajectory import CollectorKind, Outcome, ReviewStatus, TrajectoryStatus
from annotator.storage import collection, labels
from annotator.storage.workspace import Workspace


def solutions() -> Iterator[tuple[Any, list[bytes], list[dict[str, Any]]]]:
    """Each instruction's solution played on a fresh phone (its screens and tool calls), then the same again."""
    played = []
    for instruction in all_instructions():
        phone = VirtualPhone()
        screens, calls = [phone.screencap_png()], []
        for _index, action in run_solution(phone, instruction):
            calls.append(action.to_tool_call())
            screens.append(phone.screencap_png())
        played.append((instruction, screens[: len(calls)], calls))
        yield played[-1]
    while True:
        yield from played


def build(workspace: Workspace, steps: int) -> int:
    """Accepted, labelled trajectories until there are `steps` steps; returns how many there are."""
    db, made = workspace.database, 0
    for instruction, screens, calls in solutions():
        instruction_id = collection.add_instruction(db, instruction.app, instruction.text)
        collector = collection.Collector(CollectorKind.AGENT, agent_model="scripted")
        trajectory_id = collection.start_trajectory(db, instruction_id, collector)
        for screen, call in zip(screens, calls, strict=True):
            observation = collection.Observation(screen, call)
            step_id = collection.record_step(db, workspace.blobs, trajectory_id, observation)
            values = {"think": "看屏幕", "action_text": "按计划操作", "tool_call": call, "verdict": "correct"}
            labels.update_label(db, step_id, values, person="bench")
        collection.finish_trajectory(db, trajectory_id, TrajectoryStatus.COMPLETE, Outcome.SUCCESS)
        labels.set_review(db, trajectory_id, ReviewStatus.ACCEPTED, reviewer="bench", comment="")
        made += len(calls)
        if made >= steps:
            return made
    return made
