"""Personal data out of the texts of a trajectory before any sample is made from it (Mobile-R1 section 8).

Each stored text is scrubbed once (the instruction, and every step's think, action text and tool call), so the
manifest counts what the source held, not how often a history repeats it."""

from __future__ import annotations

from dataclasses import replace

from trainer_bridge.export.privacy import PiiTally
from trainer_bridge.export.record import SourceStep, SourceTrajectory


def _scrub_step(step: SourceStep, tally: PiiTally) -> SourceStep:
    return replace(
        step,
        think=tally.scrub_text(step.think) if step.think else step.think,
        action_text=tally.scrub_text(step.action_text) if step.action_text else step.action_text,
        tool_call=tally.scrub_value(step.tool_call) if step.tool_call else step.tool_call,
    )


def scrub_trajectory(trajectory: SourceTrajectory, tally: PiiTally) -> SourceTrajectory:
    return replace(
        trajectory,
        instruction=tally.scrub_text(trajectory.instruction),
        steps=tuple(_scrub_step(step, tally) for step in trajectory.steps),
    )
