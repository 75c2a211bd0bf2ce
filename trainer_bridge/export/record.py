"""The training record every export starts from, and how a labelled trajectory yields them.

A trajectory as collected is a sequence of executed steps; annotators label each one (think, action text,
tool call, target box, verdict), mark it wrong or redundant, leave it out, or insert a corrected step after a
wrong one (on the same screenshot). The screens after a wrong step show what the wrong action did, so the
history of every later step must say what was really done. Records therefore follow the executed steps:

- each executed step whose verdict is not wrong or redundant is a `step` record (target: its label);
- each corrected step a person inserted after a wrong step is a `correction` record on the wrong step's
  screenshot, with the history before the wrong step (target: the correction);
- a step that comes after a wrong step sees that mistake in its history: with `after_errors` it is kept as
  an `after_error` record (Mobile-R1's self-correction sequences), without it the trajectory yields nothing
  more once a wrong step was executed.

Steps left out of the labelled trajectory (`removed`) and steps without a complete label (think, action text
and tool call) give no record, but executed steps stay in the history of later ones.

Error-recovery scenarios (InfiGUI-R1 3.2.3), for a wrong step s whose next screen was recorded (step s+1,
labelled, not itself wrong): `error_escape` shows the wrong screen after a history ending in the wrong action,
and its target is the action the annotator labelled there (the escape, often Back); `back_on_track` shows
step s's original screen after a history of the wrong action and the escape, and its target is the corrected
step a person inserted after s.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from annotator.domain.agent_conversation import HistoryStep
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.target_box import BoxProvenance
from annotator.domain.trajectory import LabelledStep, LabelledTrajectory, Verdict


@dataclass(frozen=True)
class TrainingRecord:
    """One training step: what the model is shown and what it should answer."""

    trajectory_id: int
    trajectory_uid: str
    step_id: int
    position: int  # the step's place in the executed sequence (0-based)
    kind: str  # step, correction, after_error, error_escape, back_on_track, task
    app: str
    instruction: str
    history: tuple[HistoryStep, ...]
    screenshots: tuple[str, ...]  # sha256 of each step's screen up to and including the current one
    screen: ScreenSize
    think: str
    action_text: str
    tool_call: dict[str, Any]
    target_box: Box | None
    verdict: str | None
    review_status: str
    judge_score: int | None
    regions: tuple[tuple[Box, ...], ...] = ()  # privacy regions of each of `screenshots`
    box_provenance: BoxProvenance = BoxProvenance.NONE  # where `target_box` came from (domain.target_box)


def training_records(trajectory: LabelledTrajectory, *, after_errors: bool = False) -> Iterator[TrainingRecord]:
    """The records of one trajectory, in step order (module docstring)."""
    executed = trajectory.executed
    mistaken = False
    for position, step in enumerate(executed):
        history = tuple(done.as_history() for done in executed[:position])
        screens = tuple(done.screenshot_sha256 for done in executed[: position + 1])
        if step.verdict == Verdict.WRONG:
            correction = trajectory.corrections.get(step.index)
            if correction is not None and correction.label.complete and not mistaken:
                yield _record(trajectory, correction, position, "correction", history, screens)
            mistaken = True
            continue
        if mistaken and not after_errors:
            return
        if step.usable:
            yield _record(trajectory, step, position, "after_error" if mistaken else "step", history, screens)


def recovery_records(trajectory: LabelledTrajectory) -> Iterator[TrainingRecord]:
    """The error-escape and back-on-track records of one trajectory (module docstring)."""
    executed = trajectory.executed
    for position, wrong in enumerate(executed[:-1]):
        escape = executed[position + 1]
        if wrong.verdict != Verdict.WRONG or not escape.usable:
            continue
        before = tuple(done.as_history() for done in executed[:position])
        screens = tuple(done.screenshot_sha256 for done in executed[: position + 2])
        yield _record(trajectory, escape, position + 1, "error_escape", (*before, wrong.as_history()), screens)
        correction = trajectory.corrections.get(wrong.index)
        if correction is not None and correction.label.complete:
            history = (*before, wrong.as_history(), escape.as_history())
            back = (*screens, wrong.screenshot_sha256)
            yield _record(trajectory, correction, position + 2, "back_on_track", history, back)


def start_record(trajectory: LabelledTrajectory) -> TrainingRecord | None:
    """The first executed step as an online rollout starts from it (no history; its label, when it has one)."""
    if not trajectory.executed:
        return None
    first = trajectory.executed[0]
    record = _record(trajectory, first, 0, "task", (), (first.screenshot_sha256,))
    return replace(record, target_box=None, box_provenance=BoxProvenance.NONE)


def _record(
    trajectory: LabelledTrajectory,
    step: LabelledStep,
    position: int,
    kind: str,
    history: Sequence[HistoryStep],
    screenshots: Sequence[str],
) -> TrainingRecord:
    label = step.label  # complete, as the callers check, except the start of a task (whose label may be empty)
    assert trajectory.id is not None and trajectory.uid is not None and step.id is not None  # stored
    by_screen = trajectory.regions_by_screen  # worked out once per trajectory
    target_box, provenance = step.target()
    return TrainingRecord(
        trajectory_id=trajectory.id,
        trajectory_uid=trajectory.uid,
        step_id=step.id,
        position=position,
        kind=kind,
        app=trajectory.app,
        instruction=trajectory.instruction,
        history=tuple(history),
        screenshots=tuple(screenshots),
        screen=step.screen,
        think=label.think or "",
        action_text=label.action_text or "",
        tool_call=label.tool_call or {},
        target_box=target_box,
        box_provenance=provenance,
        verdict=label.verdict,
        review_status=trajectory.review_status,
        judge_score=trajectory.judge_score,
        regions=tuple(by_screen.get(sha, ()) for sha in screenshots),
    )
