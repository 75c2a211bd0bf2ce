"""Personal data out of the texts of a trajectory before any sample is made from it (Mobile-R1 section 8).

Each stored text is scrubbed once, so the manifest counts what the source held, not how often a history repeats
it: the instruction, every step's label (think, action text, tool call) and what was collected (the executed
tool call, which a wrong step's later history shows, and the model's reply, which the collected think comes
from)."""

from __future__ import annotations

from dataclasses import replace

from annotator.domain.trajectory import LabelledStep, LabelledTrajectory
from trainer_bridge.export.privacy import PiiTally


def _scrub_step(step: LabelledStep, tally: PiiTally) -> LabelledStep:
    label, raw = step.label, step.raw
    return replace(
        step,
        raw=replace(
            raw,
            tool_call=tally.scrub_value(raw.tool_call) if raw.tool_call else raw.tool_call,
            model_reply=tally.scrub_text(raw.model_reply) if raw.model_reply else raw.model_reply,
        ),
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
