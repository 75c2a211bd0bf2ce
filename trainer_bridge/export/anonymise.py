"""Personal data out of the texts of a trajectory before any sample is made from it (Mobile-R1 section 8).

Each stored text is scrubbed once (the instruction, and every step's think, action text and tool call), so the
manifest counts what the source held, not how often a history repeats it."""

from __future__ import annotations

from dataclasses import replace

from annotator.domain.trajectory import LabelledStep, LabelledTrajectory
from trainer_bridge.export.privacy import PiiTally


def _scrub_step(step: LabelledStep, tally: PiiTally) -> LabelledStep:
    label = step.label
    return replace(
        step,
        label=replace(
            label,
            think=tally.scrub_text(label.think) if label.think else label.think,
            action_text=tally.scrub_text(label.action_text) if label.action_text else label.action_text,
            tool_call=tally.scrub_value(label.tool_call) if label.tool_call else label.tool_call,
        ),
    )


def scrub_trajectory(trajectory: LabelledTrajectory, tally: PiiTally) -> LabelledTrajectory:
    return replace(
        trajectory,
        instruction=tally.scrub_text(trajectory.instruction),
        steps=tuple(_scrub_step(step, tally) for step in trajectory.steps),
    )
