"""The labelled trajectory: the one shape of a trajectory that every part of the program reads.

A step has an immutable raw part (what was collected: `RawStep`) and an editable label (what annotators made
of it: `Label`). People mark steps wrong or redundant, leave them out (`removed`), and insert a corrected step
after a wrong one (on the wrong step's screenshot). `LabelledTrajectory` holds all of it and works out, once,
what every reader needs: the steps as executed on the phone, the labelled order (each collected step followed
by the corrections inserted after it), the first correction of each wrong step, the privacy regions of each
screenshot and the outcome. Storage loads and saves it (``annotator.storage.trajectories``); the annotation
view, the judge, bundles, the statistics and every export stage derive from it, and a rollout held only in
memory is one too.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from annotator.domain.agent_conversation import HistoryStep
from annotator.domain.drafts import Draft, offered_draft
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.response import parse_response
from annotator.domain.target_box import BoxProvenance, ScreenElement, SuggestedBox, action_point, target_element


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


def review_status_after_edit(status: str) -> ReviewStatus:
    """A label edit starts the labelling of an unlabelled trajectory; every other review state stays."""
    return ReviewStatus.IN_PROGRESS if status == ReviewStatus.UNLABELLED else ReviewStatus(status)


class Role(StrEnum):
    ANNOTATOR = "annotator"
    REVIEWER = "reviewer"
    ADMIN = "admin"


# The editable fields of a step's label; every change to one of them writes a revision (who, when, field, old,
# new). Privacy regions are boxes on the step's screenshot that an export masks; they are not one of the three
# stages.
LABEL_FIELDS: tuple[str, ...] = ("think", "action_text", "tool_call", "target_box", "verdict", "privacy_regions")
STAGES: tuple[str, ...] = ("think", "action_text", "tool_call")  # Mobile-R1's three labelling stages


class StepOrigin(StrEnum):
    COLLECTED = "collected"  # recorded on the phone
    INSERTED = "inserted"  # a corrected step a person added after a wrong one


@dataclass(frozen=True, slots=True)
class RawStep:
    """What was collected at one step. Never changed after it is recorded."""

    index: int
    screenshot_sha256: str
    screen: ScreenSize
    tool_call: dict[str, Any] | None  # what was executed, in device pixels of the screenshot
    hierarchy_sha256: str | None = None
    package: str | None = None
    activity: str | None = None
    rotation: int = 0
    model_reply: str | None = None
    observed_at: datetime | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    suggested_box: SuggestedBox | None = None  # the target element's box from the screen's elements


@dataclass(frozen=True, slots=True)
class Label:
    """The annotators' version of a step (the three Mobile-R1 stages, the target box and a verdict), and the
    privacy regions of its screenshot (device pixels; an export blurs or blacks them out)."""

    think: str | None = None
    action_text: str | None = None
    tool_call: dict[str, Any] | None = None
    target_box: Box | None = None
    verdict: Verdict | None = None
    privacy_regions: tuple[Box, ...] = ()
    target_box_cleared: bool = False  # a person said the step has no target box (stored as an empty list)

    @classmethod
    def of(cls, **values: Any) -> Label:
        """A label from field values as they are stored or edited (lists for boxes, text for the verdict)."""
        return cls().with_values(values)

    def with_values(self, values: dict[str, Any]) -> Label:
        """This label with some fields set from stored or edited values; keys other than label fields are
        ignored (a step's `removed`, for example)."""
        typed: dict[str, Any] = {}
        for name, value in values.items():
            if name == "target_box":
                typed[name], typed["target_box_cleared"] = _target_box(value)
            elif name == "verdict":
                typed[name] = Verdict(value) if value else None
            elif name == "privacy_regions":
                typed[name] = tuple(box if isinstance(box, Box) else Box.from_list(box) for box in value or ())
            elif name in LABEL_FIELDS:
                typed[name] = value
        return replace(self, **typed)

    def is_empty(self) -> bool:
        return all(getattr(self, name) in (None, ()) for name in LABEL_FIELDS)

    @property
    def stages(self) -> tuple[bool, bool, bool]:
        """Which of think, action text and tool call are labelled."""
        return (self.think is not None, self.action_text is not None, self.tool_call is not None)

    @property
    def complete(self) -> bool:
        """All three stages hold something: the step can be a training target."""
        return bool(self.think and self.action_text and self.tool_call)


def _target_box(value: Any) -> tuple[Box | None, bool]:
    """A stored or edited target box: (box, cleared); an empty list is a person's "no box"."""
    if value is None or isinstance(value, Box):
        return value, False
    return (None, True) if len(value) == 0 else (Box.from_list(value), False)


@dataclass(frozen=True)
class LabelledStep:
    """One step of a labelled trajectory: its raw part, its label, and its place among the others."""

    raw: RawStep
    label: Label = field(default_factory=Label)
    id: int | None = None
    origin: StepOrigin = StepOrigin.COLLECTED
    corrects_index: int | None = None  # an inserted step: the index of the wrong step it corrects
    removed: bool = False  # left out of the labelled trajectory (it stays in the history as executed)
    position: int = 0  # 1-based place in the labelled order, set by the trajectory
    drafts: tuple[Draft, ...] = ()  # models' proposals for its stages (domain.drafts), oldest first

    @property
    def index(self) -> int:
        return self.raw.index

    @property
    def screen(self) -> ScreenSize:
        return self.raw.screen

    @property
    def screenshot_sha256(self) -> str:
        return self.raw.screenshot_sha256

    @property
    def inserted(self) -> bool:
        return self.origin == StepOrigin.INSERTED

    @property
    def verdict(self) -> Verdict | None:
        return self.label.verdict

    @property
    def stages(self) -> tuple[bool, bool, bool]:
        return self.label.stages

    @property
    def draft(self) -> Draft | None:
        """The draft to offer the annotator: the newest whose action matched the executed one (a flagged draft is
        among `drafts` but is not offered)."""
        return offered_draft(self.drafts)

    def target(self) -> tuple[Box | None, BoxProvenance]:
        """The target box of the labelled action and where it came from: the box a person drew or accepted; else
        the suggestion, while the labelled point (a swipe's start) lies inside it; else none."""
        label = self.label
        if label.target_box is not None:
            return label.target_box, BoxProvenance.ANNOTATOR
        suggestion, point = self.raw.suggested_box, action_point(label.tool_call)
        if label.target_box_cleared or suggestion is None or point is None or not suggestion.box.contains(*point):
            return None, BoxProvenance.NONE
        return suggestion.box, BoxProvenance.HIERARCHY

    def suggestion(self, elements: Sequence[ScreenElement] = ()) -> Box | None:
        """The box to offer the annotator: none once they drew, accepted or cleared one; else the stored
        suggestion while the point (labelled, or else collected) lies in it, else the element under the point."""
        label = self.label
        if label.target_box is not None or label.target_box_cleared:
            return None
        point = action_point(label.tool_call if label.tool_call is not None else self.raw.tool_call)
        if point is None:
            return None
        stored = self.raw.suggested_box
        if stored is not None and stored.box.contains(*point):
            return stored.box
        element = target_element(elements, *point)
        return Box(*(float(v) for v in element.bounds)) if element else None

    @property
    def usable(self) -> bool:
        """Labelled completely, kept, and neither wrong nor redundant: a step that teaches what to do."""
        return self.label.complete and not self.removed and self.verdict not in (Verdict.WRONG, Verdict.REDUNDANT)

    @functools.cached_property
    def original(self) -> Label:
        """What was collected: the agent's think and action from its reply (read leniently) and the executed
        tool call; an inserted step has none."""
        if self.inserted or not self.raw.model_reply:
            return Label(tool_call=self.raw.tool_call)
        parsed = parse_response(self.raw.model_reply, strict=False)
        return Label(think=parsed.think, action_text=parsed.action, tool_call=self.raw.tool_call)

    def as_history(self) -> HistoryStep:
        """The step as later steps' history shows it (labelled): a wrong step with the action really executed."""
        label = self.label
        executed = self.raw.tool_call if label.verdict == Verdict.WRONG and self.raw.tool_call else label.tool_call
        return HistoryStep(label.think, label.action_text, executed)

    def as_collected(self) -> HistoryStep:
        """The step as the agent (or person) did it: its own reasoning and the tool call carried out."""
        original = self.original
        return HistoryStep(original.think, original.action_text, self.raw.tool_call)


@dataclass(frozen=True)
class ReviewNote:
    """The newest review decision of a trajectory."""

    status: ReviewStatus
    comment: str | None
    reviewer: str | None
    at: datetime | None


def labelled_order(steps: Iterable[LabelledStep]) -> list[LabelledStep]:
    """Collected steps by index, each followed by the corrected steps inserted after it (in insertion order)."""
    inserted: dict[int, list[LabelledStep]] = {}
    collected = []
    for step in steps:
        if step.inserted and step.corrects_index is not None:
            inserted.setdefault(step.corrects_index, []).append(step)
        elif not step.inserted:
            collected.append(step)
    ordered: list[LabelledStep] = []
    for step in sorted(collected, key=lambda s: s.index):
        ordered.append(step)
        ordered.extend(sorted(inserted.get(step.index, []), key=lambda s: s.index))
    return ordered


@dataclass(frozen=True)
class Screenshot:
    sha256: str
    screen: ScreenSize


@dataclass(frozen=True)
class LabelledTrajectory:
    """A trajectory with its labels, stored or held in memory (module docstring).

    ``steps`` come in any order and are kept in the labelled order, each numbered with its ``position``.
    """

    instruction: str
    app: str
    steps: tuple[LabelledStep, ...] = ()
    id: int | None = None
    uid: str | None = None
    instruction_uid: str | None = None
    app_package: str | None = None  # the app's package, as the app list or the phone named it
    collector: CollectorKind = CollectorKind.HUMAN
    status: TrajectoryStatus = TrajectoryStatus.COMPLETE
    collected_outcome: Outcome | None = None  # how the run ended (the agent's or person's terminate)
    label_outcome: Outcome | None = None  # the annotator's judgement: was the task completed?
    review_status: ReviewStatus = ReviewStatus.UNLABELLED
    last_review: ReviewNote | None = None
    restart_app: bool = True  # the run started from the app's start page
    judge_score: int | None = None  # the score of the judge a reader asked for, when it asked
    final_screen: Screenshot | None = None  # after the last action of a run that stopped without terminating

    def __post_init__(self) -> None:
        ordered = labelled_order(self.steps)
        if len(ordered) != len(self.steps):
            raise ValueError("an inserted step names no wrong step it corrects (corrects_index)")
        numbered = tuple(replace(step, position=n) for n, step in enumerate(ordered, start=1))
        object.__setattr__(self, "steps", numbered)

    @property
    def outcome(self) -> Outcome | None:
        """Did the task succeed: the annotator's judgement, else how the run ended."""
        return self.label_outcome or self.collected_outcome

    @functools.cached_property
    def executed(self) -> tuple[LabelledStep, ...]:
        """The steps run on the phone, in order (not the corrections people inserted)."""
        return tuple(sorted((s for s in self.steps if not s.inserted), key=lambda s: s.index))

    @functools.cached_property
    def corrections(self) -> dict[int, LabelledStep]:
        """The first correction a person inserted (and kept) after each wrong step, by the wrong step's index."""
        first: dict[int, LabelledStep] = {}
        for step in sorted((s for s in self.steps if s.inserted and not s.removed), key=lambda s: s.index):
            if step.corrects_index is not None:
                first.setdefault(step.corrects_index, step)
        return first

    @functools.cached_property
    def annotated_steps(self) -> tuple[LabelledStep, ...]:
        """The labelled trajectory as annotated data, Mobile-R1 Table 2's "Data": each executed step that is
        usable, and in place of a wrong step its first correction when that is labelled completely.
        (storage.statistics counts the same in SQL; a test holds the two equal.)"""
        chosen = []
        for step in self.executed:
            if step.verdict == Verdict.WRONG:
                correction = self.corrections.get(step.index)
                if correction is not None and correction.label.complete:
                    chosen.append(correction)
            elif step.usable:
                chosen.append(step)
        return tuple(chosen)

    @functools.cached_property
    def regions_by_screen(self) -> dict[str, tuple[Box, ...]]:
        """Privacy regions by screenshot: those marked on any step of this trajectory showing it."""
        regions: dict[str, tuple[Box, ...]] = {}
        for step in self.steps:
            if step.label.privacy_regions:
                sha = step.screenshot_sha256
                regions[sha] = (*regions.get(sha, ()), *step.label.privacy_regions)
        return regions

    def step(self, step_id: int) -> LabelledStep:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise LookupError(f"step {step_id} is not in trajectory {self.id}")

    def labelled_actions(self) -> list[dict[str, Any]]:
        """The tool calls the labelled trajectory performs, in order: the first correction in place of a wrong
        step, none for removed or redundant steps (a reference run for online training)."""
        actions = []
        for step in self.executed:
            chosen = self.corrections.get(step.index) if step.verdict == Verdict.WRONG else step
            if chosen is None or chosen.removed or chosen.verdict == Verdict.REDUNDANT:
                continue
            if chosen.label.tool_call:
                actions.append(chosen.label.tool_call)
        return actions
