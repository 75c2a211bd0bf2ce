"""The canonical per-step record every export starts from, and how a labelled trajectory yields them.

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

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from annotator.domain.agent_conversation import HistoryStep
from annotator.domain.geometry import Box, ScreenSize


@dataclass(frozen=True)
class SourceStep:
    """One stored step as the export reads it (device pixels)."""

    step_id: int
    index: int
    screenshot_sha256: str
    screen: ScreenSize
    think: str | None
    action_text: str | None
    tool_call: dict[str, Any] | None
    target_box: Box | None
    verdict: str | None
    removed: bool = False
    inserted: bool = False  # a corrected step a person added after the wrong step `corrects_index`
    corrects_index: int | None = None
    raw_tool_call: dict[str, Any] | None = None  # what was executed (device pixels)
    package: str | None = None  # the app in the foreground when the screenshot was taken
    activity: str | None = None
    privacy_regions: tuple[Box, ...] = ()  # boxes on the screenshot an export masks (device pixels)

    @property
    def complete(self) -> bool:
        return bool(self.think and self.action_text and self.tool_call)

    def as_history(self) -> HistoryStep:
        """The step as later steps' history shows it: a wrong step with the action that was really executed."""
        executed = self.raw_tool_call if self.verdict == "wrong" and self.raw_tool_call else self.tool_call
        return HistoryStep(self.think, self.action_text, executed)


@dataclass(frozen=True)
class SourceTrajectory:
    trajectory_id: int
    uid: str
    app: str
    instruction: str
    review_status: str
    judge_score: int | None
    steps: tuple[SourceStep, ...]  # executed and inserted steps, in any order
    instruction_uid: str = ""
    outcome: str | None = None  # success / failure: the annotator's judgement, else how the run ended
    restart_app: bool = True  # the run started from the app's start page
    app_package: str | None = None

    @functools.cached_property
    def executed(self) -> tuple[SourceStep, ...]:
        """The steps run on the phone, in order (not the corrections people inserted)."""
        return tuple(sorted((s for s in self.steps if not s.inserted), key=lambda s: s.index))

    @functools.cached_property
    def corrections(self) -> dict[int, SourceStep]:
        """The first correction a person inserted (and kept) after each wrong step, by the wrong step's index."""
        first: dict[int, SourceStep] = {}
        for step in sorted((s for s in self.steps if s.inserted and not s.removed), key=lambda s: s.index):
            if step.corrects_index is not None:
                first.setdefault(step.corrects_index, step)
        return first

    @functools.cached_property
    def regions_by_screen(self) -> dict[str, tuple[Box, ...]]:
        """Privacy regions by screenshot: those marked on any step of this trajectory showing it."""
        regions: dict[str, tuple[Box, ...]] = {}
        for step in self.steps:
            if step.privacy_regions:
                regions[step.screenshot_sha256] = (*regions.get(step.screenshot_sha256, ()), *step.privacy_regions)
        return regions


@dataclass(frozen=True)
class StepRecord:
    """One training step: what the model is shown and what it should answer."""

    trajectory_id: int
    trajectory_uid: str
    step_id: int
    position: int  # the step's place in the executed sequence (0-based)
    kind: str  # step, correction, after_error
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


def step_records(trajectory: SourceTrajectory, *, after_errors: bool = False) -> Iterator[StepRecord]:
    """The records of one trajectory, in step order (module docstring)."""
    executed = trajectory.executed
    mistaken = False
    for position, step in enumerate(executed):
        history = tuple(done.as_history() for done in executed[:position])
        screens = tuple(done.screenshot_sha256 for done in executed[: position + 1])
        if step.verdict == "wrong":
            correction = trajectory.corrections.get(step.index)
            if correction is not None and correction.complete and not mistaken:
                yield _record(trajectory, correction, position, "correction", history, screens)
            mistaken = True
            continue
        if mistaken and not after_errors:
            return
        if step.removed or step.verdict == "redundant" or not step.complete:
            continue
        yield _record(trajectory, step, position, "after_error" if mistaken else "step", history, screens)


def recovery_records(trajectory: SourceTrajectory) -> Iterator[StepRecord]:
    """The error-escape and back-on-track records of one trajectory (module docstring)."""
    executed = trajectory.executed
    for position, wrong in enumerate(executed[:-1]):
        escape = executed[position + 1]
        usable = escape.complete and not escape.removed and escape.verdict not in ("wrong", "redundant")
        if wrong.verdict != "wrong" or not usable:
            continue
        before = tuple(done.as_history() for done in executed[:position])
        screens = tuple(done.screenshot_sha256 for done in executed[: position + 2])
        yield _record(trajectory, escape, position + 1, "error_escape", (*before, wrong.as_history()), screens)
        correction = trajectory.corrections.get(wrong.index)
        if correction is not None and correction.complete:
            history = (*before, wrong.as_history(), escape.as_history())
            back = (*screens, wrong.screenshot_sha256)
            yield _record(trajectory, correction, position + 2, "back_on_track", history, back)


def _record(
    trajectory: SourceTrajectory,
    step: SourceStep,
    position: int,
    kind: str,
    history: Sequence[HistoryStep],
    screenshots: Sequence[str],
) -> StepRecord:
    assert step.think and step.action_text and step.tool_call  # complete, checked by the caller
    by_screen = trajectory.regions_by_screen  # worked out once per trajectory
    return StepRecord(
        trajectory_id=trajectory.trajectory_id,
        trajectory_uid=trajectory.uid,
        step_id=step.step_id,
        position=position,
        kind=kind,
        app=trajectory.app,
        instruction=trajectory.instruction,
        history=tuple(history),
        screenshots=tuple(screenshots),
        screen=step.screen,
        think=step.think,
        action_text=step.action_text,
        tool_call=step.tool_call,
        target_box=step.target_box,
        verdict=step.verdict,
        review_status=trajectory.review_status,
        judge_score=trajectory.judge_score,
        regions=tuple(by_screen.get(sha, ()) for sha in screenshots),
    )
