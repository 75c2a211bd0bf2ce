"""What a trajectory still lacks before it goes to review: each kept step's three stages and verdict, and the
annotator's outcome (issue 16: a trajectory with one stage of three labelled reached the reviewers' queue)."""

from __future__ import annotations

from dataclasses import dataclass

from annotator.domain.target_box import action_point
from annotator.domain.trajectory import STAGES, LabelledStep, LabelledTrajectory

VERDICT = "verdict"


@dataclass(frozen=True)
class ReviewGaps:
    steps: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (position, missing: stages and "verdict")
    outcome: bool = False  # the outcome (task completed or not) is not set

    @property
    def complete(self) -> bool:
        return not self.steps and not self.outcome

    def describe(self) -> str:
        """In English, for records and messages: "step 2: think, verdict; step 3: action_text; the outcome"."""
        parts = [f"step {position}: {', '.join(missing)}" for position, missing in self.steps]
        return "; ".join(parts + (["the outcome"] if self.outcome else []))


def step_gaps(step: LabelledStep) -> tuple[str, ...]:
    """What a step lacks: its unlabelled stages, and "verdict"; nothing for a step left out."""
    if step.removed:
        return ()
    missing = tuple(stage for stage, done in zip(STAGES, step.stages, strict=True) if not done)
    return missing + ((VERDICT,) if step.verdict is None else ())


def review_gaps(trajectory: LabelledTrajectory) -> ReviewGaps:
    gaps = tuple((step.position, missing) for step in trajectory.steps if (missing := step_gaps(step)))
    return ReviewGaps(gaps, trajectory.label_outcome is None)


def steps_without_box(trajectory: LabelledTrajectory) -> tuple[int, ...]:
    """Positions of the kept steps whose action has a point (a click, a long press, a swipe's start) but no target
    box to check it against: the action rewards fall back to a distance rule for them. A warning, not a gap."""
    return tuple(
        step.position
        for step in trajectory.steps
        if not step.removed and action_point(step.label.tool_call) is not None and step.target()[0] is None
    )
