"""What the app shows of the evaluations (read only): the list with its headline figures, one evaluation's
summary and its failed steps, two evaluations compared step by step, and one step's drill-down (its screenshot,
the labelled action and what the model answered).

Evaluations are made by ``trainer-bridge eval`` (offline: held-out steps with their labelled history; online:
rollouts on phones); their summary is written when they end (``annotator.domain.evaluation.summarise`` with the
bridge's intervals and request counts). A step failed when its first answer at the summary's level was not
accurate (format and exact match) or its request failed: the same steps the step accuracy counts as wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from annotator.domain.evaluation import HEADLINE, ONLINE_HEADLINE, StepDifference, compare, measured
from annotator.domain.geometry import Box, ScreenSize
from annotator.storage import evaluations
from annotator.storage.database import Database
from annotator.storage.evaluations import EvaluationInfo, PredictionRecord, StoredPrediction
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

DEFAULT_LEVEL = "task"
STEP_KINDS = ("offline", "selection")  # evaluations whose predictions are scored steps (online ones have rollouts)
# Why a step's first answer was wrong, in the order they are checked (each implies the ones before it passed).
REQUEST, FORMAT, TYPE, ARGUMENT = "request", "format", "type", "argument"


@dataclass(frozen=True)
class EvaluationRow:
    """One evaluation as the list shows it: who was asked, how it ended, and its headline figures."""

    id: int
    name: str
    kind: str
    model: str
    status: str
    message: str | None
    created_at: datetime
    finished_at: datetime | None
    figures: dict[str, float | None]  # the HEADLINE figures the summary has (0-1); {} before it ends
    steps: int | None  # steps scored (offline) or rollouts (online); None without a summary

    @property
    def has_steps(self) -> bool:
        return self.kind in STEP_KINDS


@dataclass(frozen=True)
class FailedStep:
    """A step whose first answer was not accurate, and why."""

    step_id: int
    trajectory_id: int
    position: int  # the step's index in its trajectory (0-based)
    app: str
    instruction: str
    reason: str  # REQUEST, FORMAT, TYPE or ARGUMENT
    predicted: dict[str, Any] | None
    error: str | None


@dataclass(frozen=True)
class EvaluationDetail:
    row: EvaluationRow
    summary: dict[str, Any]  # {} while it runs or when it failed before summing up
    settings: dict[str, Any]
    level: str  # the instruction level of the headline figures (task or action)
    failed: list[FailedStep]


@dataclass(frozen=True)
class ChangedStep:
    """A step one evaluation got right and the other wrong, with its instruction."""

    difference: StepDifference
    instruction: str


@dataclass(frozen=True)
class Comparison:
    """Two evaluations on the steps both answered (domain.evaluation.compare): second minus first."""

    first: EvaluationRow
    second: EvaluationRow
    level: str
    shared_steps: int
    only_first: int
    only_second: int
    first_figures: dict[str, Any]
    second_figures: dict[str, Any]
    difference: dict[str, float | None]
    fixed: list[ChangedStep]  # wrong in the first, right in the second
    broken: list[ChangedStep]  # right in the first, wrong in the second


@dataclass(frozen=True)
class StepDrilldown:
    """One step of one evaluation: the screenshot it was asked about, what was labelled and what was answered."""

    evaluation_id: int
    step_id: int
    trajectory_id: int
    position: int
    app: str
    instruction: str
    level: str
    screenshot: bytes  # the stored screenshot (PNG or JPEG bytes)
    screen: ScreenSize  # device pixels: the tool calls' and the box's coordinates
    labelled: dict[str, Any] | None  # the labelled tool call, device pixels
    target_box: Box | None  # the labelled action's target box
    action_text: str | None  # the labelled <action> text
    record: PredictionRecord  # the first answer: reply, predicted tool call (device pixels), error, scores

    @property
    def predicted(self) -> dict[str, Any] | None:
        return self.record.predicted


def model_name(policy: Mapping[str, Any] | None) -> str:
    """The model an evaluation asked: its name at an endpoint, or a local model's folder."""
    policy = policy or {}
    for key in ("model", "path", "kind"):
        value = policy.get(key)
        if isinstance(value, str) and value:
            return value
    return "?"


def _row(info: EvaluationInfo) -> EvaluationRow:
    summary = info.summary or {}
    figures = {name: measured(summary, name) for name in (*HEADLINE, *ONLINE_HEADLINE) if name in summary}
    steps = summary.get("steps", summary.get("rollouts"))
    return EvaluationRow(
        info.id,
        info.name,
        info.kind,
        model_name(info.policy),
        info.status,
        info.message,
        info.created_at,
        info.finished_at,
        figures,
        steps if isinstance(steps, int) else None,
    )


def evaluation_rows(db: Database) -> list[EvaluationRow]:
    """Every evaluation, newest first."""
    return [_row(info) for info in evaluations.list_evaluations(db)]


def level_of(info: EvaluationInfo) -> str:
    """The level its headline figures count: the summary's, else the first level it was asked at."""
    level = (info.summary or {}).get("level")
    if isinstance(level, str):
        return level
    levels = info.settings.get("levels") if info.settings else None
    return levels[0] if isinstance(levels, list) and levels and isinstance(levels[0], str) else DEFAULT_LEVEL


def why_failed(record: PredictionRecord) -> str | None:
    """Why an answer is not accurate (REQUEST, FORMAT, TYPE, ARGUMENT); None when it is."""
    if record.error is not None or record.format_ok is None:
        return REQUEST
    if not record.format_ok:
        return FORMAT
    if not record.type_match:
        return TYPE
    return None if record.exact_match else ARGUMENT


def first_answers(predictions: Sequence[StoredPrediction]) -> list[StoredPrediction]:
    """Each step's first sample (greedy decoding: what the headline figures count), in trajectory order."""
    firsts: dict[int, StoredPrediction] = {}
    for stored in predictions:  # ordered by trajectory, step and sample already
        firsts.setdefault(stored.record.step_id, stored)
    return list(firsts.values())


def failed_steps(predictions: Sequence[StoredPrediction]) -> list[FailedStep]:
    failed = []
    for stored in first_answers(predictions):
        reason = why_failed(stored.record)
        if reason is not None:
            record = stored.record
            failed.append(
                FailedStep(
                    record.step_id,
                    stored.trajectory_id,
                    stored.position,
                    stored.app,
                    stored.instruction,
                    reason,
                    record.predicted,
                    record.error,
                )
            )
    return failed


def evaluation_detail(db: Database, evaluation_id: int) -> EvaluationDetail:
    """One evaluation's summary and the steps its first answers got wrong (none for an online evaluation)."""
    info = evaluations.get_evaluation(db, evaluation_id)
    level = level_of(info)
    failed = failed_steps(evaluations.predictions(db, evaluation_id, level=level)) if info.kind in STEP_KINDS else []
    return EvaluationDetail(_row(info), dict(info.summary or {}), dict(info.settings or {}), level, failed)


def comparison(db: Database, first_id: int, second_id: int) -> Comparison:
    """The two evaluations' figures on the steps both answered, their differences, and the steps that changed.

    Raises ValueError for an evaluation without scored steps (online) or two asked at different levels."""
    first, second = evaluations.get_evaluation(db, first_id), evaluations.get_evaluation(db, second_id)
    for info in (first, second):
        if info.kind not in STEP_KINDS:
            raise ValueError(f"evaluation {info.id} is {info.kind}: only evaluations of steps can be compared")
    level = level_of(first)
    if level_of(second) != level:
        raise ValueError(f"evaluation {first_id} counts the {level} level, {second_id} the {level_of(second)} level")
    found = compare(evaluations.step_scores(db, first_id, level), evaluations.step_scores(db, second_id, level))
    changed = [*found["fixed"], *found["broken"]]
    texts = {
        stored.record.step_id: stored.instruction
        for stored in evaluations.predictions(db, first_id, level=level, step_ids=[d.step_id for d in changed])
    }
    return Comparison(
        _row(first),
        _row(second),
        level,
        found["shared_steps"],
        found["only_first"],
        found["only_second"],
        found["first"],
        found["second"],
        found["difference"],
        [ChangedStep(d, texts.get(d.step_id, "")) for d in found["fixed"]],
        [ChangedStep(d, texts.get(d.step_id, "")) for d in found["broken"]],
    )


def step_drilldown(workspace: Workspace, evaluation_id: int, step_id: int) -> StepDrilldown:
    """One step's screenshot, its label (tool call and target box) and the evaluation's first answer to it."""
    db = workspace.database
    level = level_of(evaluations.get_evaluation(db, evaluation_id))
    answers = evaluations.predictions(db, evaluation_id, level=level, step_ids=[step_id])
    if not answers:
        raise LookupError(f"evaluation {evaluation_id} has no answer to step {step_id}")
    stored = answers[0]  # the first sample
    step = load_trajectory(db, stored.trajectory_id).step(step_id)
    box, _provenance = step.target()
    return StepDrilldown(
        evaluation_id,
        step_id,
        stored.trajectory_id,
        stored.position,
        stored.app,
        stored.instruction,
        level,
        workspace.blobs.read_bytes(step.screenshot_sha256),
        step.screen,
        step.label.tool_call,
        box,
        step.label.action_text,
        stored.record,
    )
