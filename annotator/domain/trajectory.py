"""Trajectory and step types used across the code.

A step has an immutable raw part (what was collected) and an editable labelled
part (what annotators made of it). Storage maps these to tables; the export,
the judge and the GUI read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from annotator.domain.geometry import Box, ScreenSize


class Verdict(StrEnum):
    CORRECT = "correct"
    WRONG = "wrong"
    REDUNDANT = "redundant"


class ReviewStatus(StrEnum):
    UNLABELLED = "unlabelled"
    IN_PROGRESS = "in_progress"
    ANNOTATED = "annotated"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class TrajectoryStatus(StrEnum):
    COLLECTING = "collecting"
    INTERRUPTED = "interrupted"
    COMPLETE = "complete"


class Outcome(StrEnum):
    SUCCESS = "success"
    FAILURE = "failure"


class CollectorKind(StrEnum):
    HUMAN = "human"
    AGENT = "agent"


class InstructionSource(StrEnum):
    MANUAL = "manual"
    GENERATED = "generated"
    IMPORTED = "imported"


class InstructionStatus(StrEnum):
    """Where an instruction stands; only ``active`` ones are offered for collection.

    Generated instructions wait in ``generated`` until a person approves (``active``) or rejects them
    (``rejected``), as Mobile-R1 section 3.1 reviews generated tasks and removes unreasonable ones.
    """

    ACTIVE = "active"
    ARCHIVED = "archived"
    GENERATED = "generated"
    REJECTED = "rejected"


class Role(StrEnum):
    ANNOTATOR = "annotator"
    REVIEWER = "reviewer"
    ADMIN = "admin"


# The editable fields of a step's labelled part; every change to one of them
# writes a revision (who, when, field, old, new). Privacy regions are boxes on the
# step's screenshot that an export masks; they are not one of the three stages.
LABEL_FIELDS: tuple[str, ...] = ("think", "action_text", "tool_call", "target_box", "verdict", "privacy_regions")


@dataclass(frozen=True, slots=True)
class RawStep:
    """What was collected at one step. Never changed after it is recorded."""

    index: int
    screenshot_sha256: str
    screen: ScreenSize
    tool_call: dict[str, Any] | None
    hierarchy_sha256: str | None = None
    package: str | None = None
    activity: str | None = None
    rotation: int = 0
    model_reply: str | None = None
    observed_at: datetime | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)


@dataclass(slots=True)
class StepLabel:
    """The annotators' version of a step (the three Mobile-R1 stages and a verdict), and the privacy regions
    of its screenshot (device pixels; an export blurs or blacks them out)."""

    think: str | None = None
    action_text: str | None = None
    tool_call: dict[str, Any] | None = None
    target_box: Box | None = None
    verdict: Verdict | None = None
    privacy_regions: tuple[Box, ...] = ()

    def is_empty(self) -> bool:
        return all(getattr(self, name) in (None, ()) for name in LABEL_FIELDS)


@dataclass(slots=True)
class Step:
    raw: RawStep
    label: StepLabel = field(default_factory=StepLabel)
    id: int | None = None


@dataclass(slots=True)
class Trajectory:
    instruction: str
    app: str
    steps: list[Step] = field(default_factory=list)
    collector: CollectorKind = CollectorKind.HUMAN
    status: TrajectoryStatus = TrajectoryStatus.COLLECTING
    outcome: Outcome | None = None
    review: ReviewStatus = ReviewStatus.UNLABELLED
    id: int | None = None
    uid: str | None = None
