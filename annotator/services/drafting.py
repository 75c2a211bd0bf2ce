"""Model drafts of the steps nobody has labelled yet (pre-annotation), as `annotator draft` and the GUI ask for them.

For each such step of the chosen app or trajectories, the screen's stored UI hierarchy is compressed into a short
spatial description (``annotator.device.screen_text``) and sent with the screenshot, the instruction and the history
to an OpenAI-compatible model (``annotator.llm.drafts``); the reply is kept as the step's draft, offered to the
annotator only when its action matches the executed one (``annotator.domain.drafts``).

Resumable and safe to run twice at once: each draft is stored as it arrives, a step that has a draft of the same
model and prompt is never asked about again, and the store skips a draft another process stored a moment before
(so a kill -9 loses at most the requests in flight). Requests run on a thread pool; a key or model the server
refuses ends the run at once, and so does an endpoint that stays unavailable for several steps in a row, the drafts
so far kept. Endpoint failures and unreadable screenshots store nothing: the next run asks about those steps again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from annotator.device.hierarchy import parse_hierarchy
from annotator.device.screen_text import describe_screen
from annotator.domain.agent_conversation import HistoryStep
from annotator.domain.draft_prompt import draft_prompt_name, draft_prompt_sha256
from annotator.domain.geometry import Box
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PromptVariant
from annotator.domain.trajectory import LabelledStep, LabelledTrajectory
from annotator.llm.batch import BatchResult, Outcome, Progress, failed_request, run_batch
from annotator.llm.client import LLMClient, LLMConfig, LLMError
from annotator.llm.drafts import AGENT_SPACE, StepToDraft, ask_for_draft
from annotator.storage import drafts as store
from annotator.storage.blobs import BlobError
from annotator.storage.drafts import DraftTarget
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

NOT_SENT = "not sent"  # a failure of ours, before any request: no answer from the endpoint to count as asked


@dataclass(frozen=True)
class DraftProgress:
    done: int
    total: int  # steps to ask about (those drafted before are skipped first)
    kept: int
    flagged: int
    failed: int


@dataclass
class DraftSummary:
    """What a run did. `kept`: drafts whose action matched the executed one; `flagged`: the others (a different
    action, or a reply that could not be read); `skipped`: steps that had a draft of this model and prompt;
    `failed`: steps left without a draft (asked again next time), with `failures` saying why."""

    model: str
    prompt_name: str
    prompt_sha256: str
    steps: int = 0  # unlabelled steps chosen
    asked: int = 0
    kept: int = 0
    flagged: int = 0
    skipped: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)
    status: str = "complete"  # complete, stopped (cancelled), failed (the endpoint refused or stayed down)
    message: str | None = None
    seconds: float = 0.0


class _Trajectories:
    """Each trajectory loaded once per run, whichever worker asks first."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace, self.lock = workspace, threading.Lock()
        self.loaded: dict[int, LabelledTrajectory] = {}

    def get(self, trajectory_id: int) -> LabelledTrajectory:
        with self.lock:
            if trajectory_id not in self.loaded:
                self.loaded[trajectory_id] = load_trajectory(self.workspace.database, trajectory_id)
            return self.loaded[trajectory_id]


def check_choice(workspace: Workspace, app: str | None, trajectory_ids: Sequence[int]) -> None:
    """LookupError naming what is not there: an app, or trajectory ids."""
    db = workspace.database
    if app is not None and app not in (names := store.app_names(db)):
        known = ", ".join(names) or "none yet"
        raise LookupError(f"no app named {app!r} in this workspace (apps: {known})")
    missing = sorted(set(trajectory_ids) - store.stored_trajectory_ids(db, trajectory_ids))
    if missing:
        raise LookupError(f"no trajectory with id {', '.join(map(str, missing))}")


def draft_steps(
    workspace: Workspace,
    *,
    base_url: str,
    model: str,
    app: str | None = None,
    trajectory_ids: Sequence[int] = (),
    api_key_env: str = "OPENAI_API_KEY",
    concurrency: int = 4,
    timeout_s: float = 60,
    max_retries: int = 3,
    variant: PromptVariant = DEFAULT_PROMPT_VARIANT,
    history_images: int = 2,
    progress: Callable[[DraftProgress], None] | None = None,
    cancel: threading.Event | None = None,
) -> DraftSummary:
    """Draft the unlabelled steps of `app` (and/or `trajectory_ids`); see the module docstring. `progress` is called
    from worker threads; `cancel` stops the run after the requests in flight."""
    if concurrency < 1:
        raise ValueError(f"concurrency: at least 1, got {concurrency}")
    config = LLMConfig(base_url, model, api_key_env, timeout_s=timeout_s, max_retries=max_retries)
    check_choice(workspace, app, trajectory_ids)
    started = time.perf_counter()
    sha256 = draft_prompt_sha256(variant)
    summary = DraftSummary(model=model, prompt_name=draft_prompt_name(variant), prompt_sha256=sha256)
    targets = store.steps_to_draft(workspace.database, app=app, trajectory_ids=trajectory_ids)
    drafted = store.drafted_steps(workspace.database, model, sha256, [t.step_id for t in targets])
    summary.steps = len(targets)
    trajectories = _Trajectories(workspace)

    def draft_one(target: DraftTarget) -> Outcome[None]:
        trajectory = trajectories.get(target.trajectory_id)
        return _draft_one(workspace, client, trajectory, target, history_images=history_images, variant=variant)

    with LLMClient(config) as client:
        result = run_batch(
            targets,
            draft_one,
            workers=concurrency,
            already_done=lambda target: target.step_id in drafted,
            on_progress=_reporting(progress) if progress else None,
            cancel=cancel,
            thread_name="draft",
        )
    result.raise_interruption()  # Ctrl+C or a bug of ours: nothing more is asked; the drafts so far are kept
    summary.seconds = time.perf_counter() - started
    return _summed_up(summary, result)


def _reporting(progress: Callable[[DraftProgress], None]) -> Callable[[Progress[DraftTarget, None]], None]:
    def report(batch: Progress[DraftTarget, None]) -> None:
        tally = batch.tally
        kept, flagged = tally.counts.get("kept", 0), tally.counts.get("flagged", 0)
        progress(DraftProgress(tally.done, batch.total, kept, flagged, tally.failed))

    return report


def _summed_up(summary: DraftSummary, result: BatchResult[DraftTarget]) -> DraftSummary:
    tally = result.tally
    summary.asked = tally.done - tally.counts.get(NOT_SENT, 0)
    summary.kept, summary.flagged = tally.counts.get("kept", 0), tally.counts.get("flagged", 0)
    summary.skipped = result.resumed + tally.skipped
    summary.failed = tally.failed
    summary.failures = [f"{_where(target)}: {reason}" for target, reason in result.failures]
    summary.status, summary.message = result.status, result.message
    return summary


def _where(target: DraftTarget) -> str:
    return f"step {target.index + 1} of trajectory {target.trajectory_id}"


def _draft_one(
    workspace: Workspace,
    client: LLMClient,
    trajectory: LabelledTrajectory,
    target: DraftTarget,
    *,
    history_images: int,
    variant: PromptVariant,
) -> Outcome[None]:
    try:
        step = _step_to_draft(workspace, trajectory, target.step_id, history_images)
    except (BlobError, OSError, ValueError) as error:  # a missing or corrupt screenshot: nothing is sent
        return Outcome.failed(f"not sent: {error}", counts={NOT_SENT: 1})
    try:
        draft = ask_for_draft(client, step, history_images=history_images, variant=variant)
    except LLMError as error:
        return failed_request(error)
    if not store.store_draft(workspace.database, target.step_id, draft):
        return Outcome.skipped()  # another run stored this step's draft a moment ago
    return Outcome.done(counts={"flagged" if draft.flagged else "kept": 1})


def _step_to_draft(
    workspace: Workspace, trajectory: LabelledTrajectory, step_id: int, history_images: int
) -> StepToDraft:
    """The request's material: the steps before it as carried out, its screenshots and its screen's elements."""
    step = trajectory.step(step_id)
    before = [s for s in trajectory.executed if s.index < step.index]
    shown = [*before[len(before) - (history_images - 1) :], step] if history_images > 1 else [step]
    screenshots = [workspace.blobs.read_bytes(s.screenshot_sha256) for s in shown]
    return StepToDraft(
        instruction=trajectory.instruction,
        history=[_as_done(s) for s in before],
        screenshots=screenshots,
        screen=step.screen,
        elements=_elements(workspace, step),
        executed=step.raw.tool_call or {},
        target=_target(step),
    )


def _as_done(step: LabelledStep) -> HistoryStep:
    """An earlier step as the model is told of it: its labelled think and action where a person wrote them, else
    the collected ones, and the tool call really carried out (the screens that follow show its effect)."""
    original = step.original
    return HistoryStep(
        step.label.think or original.think, step.label.action_text or original.action_text, step.raw.tool_call
    )


def _elements(workspace: Workspace, step: LabelledStep) -> str:
    if step.raw.hierarchy_sha256 is None:
        return ""
    xml = workspace.blobs.read_bytes(step.raw.hierarchy_sha256).decode("utf-8", errors="replace")
    try:
        nodes = parse_hierarchy(xml)
    except ValueError:
        return ""  # a damaged dump: the model still sees the screenshot
    return describe_screen(nodes, step.screen, AGENT_SPACE)


def _target(step: LabelledStep) -> Box | None:
    """The executed action's element: a person's box, else the one suggested from the hierarchy."""
    if step.label.target_box is not None:
        return step.label.target_box
    return step.raw.suggested_box.box if step.raw.suggested_box else None
