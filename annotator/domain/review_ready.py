"""What a trajectory still lacks before it goes to review: each kept step's three stages and verdict, and the
annotator's outcome (issue 16: a trajectory with one stage of three labelled reached the reviewers' queue)."""

from __future__ import annotations

from dataclasses import dataclass

from annotator.domain.trajectory import STAGES, LabelledTrajectory

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


def review_gaps(trajectory: LabelledTrajectory) -> ReviewGaps:
    gaps = []
    for step in trajectory.steps:
        if step.removed:
            continue
        missing = tuple(stage for stage, done in zip(STAGES, step.stages, strict=True) if not done)
        missing += (VERDICT,) if step.verdict is None else ()
        if missing:
            gaps.append((step.position, missing))
    return ReviewGaps(tuple(gaps), trajectory.label_outcome is None)
