"""Offline evaluation: the policy answers each held-out step given the labelled history (Mobile-R1 5.1.5, the
AndroidControl and GUI-Odyssey protocol), and each answer is scored and stored as it arrives.

The steps are the export's: the `step` records of the selected trajectories (a trajectory stops yielding steps
after a step marked wrong, whose later screens show the mistake), asked with the prompt variant, coordinate
space and history window the model was trained with, at the task level (the instruction) or the action level
(the step's own action text, InfiGUI-R1's step instruction). Requests are sent `concurrency` at a time, each
worker making its own request's images. The run is resumable: an answered (step, level, sample) is never asked
again; failed requests are. A refused key or model ends the run at once, and so does an endpoint that stays
unavailable for several requests in a row; either way the answers so far are kept.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.domain.model_space import ModelSpace
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PromptVariant
from annotator.imaging.kept_copies import CACHE_FOLDER
from annotator.llm.batch import BatchResult, Outcome, Progress, StopBatch, run_batch
from annotator.storage import evaluations
from annotator.storage.blobs import BlobError
from annotator.storage.evaluations import PredictionRecord
from annotator.storage.selection import TrajectorySelection, selected_keys
from annotator.storage.trajectories import load_trajectories
from annotator.storage.workspace import Workspace
from trainer_bridge.evaluate.policy import Policy, PolicyRejected, PolicyRequest
from trainer_bridge.evaluate.scoring import score_reply
from trainer_bridge.evaluate.summary import evaluation_summary
from trainer_bridge.export.grpo import grpo_action_sample
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.record import TrainingRecord, training_records
from trainer_bridge.export.sft import ImageRef, Sample, at_level

LEVELS = ("task", "action")


@dataclass(frozen=True)
class EvalSettings:
    """How the policy is asked: what decides its answers, so part of the evaluation's fingerprint."""

    space: ModelSpace
    prompt_variant: PromptVariant = DEFAULT_PROMPT_VARIANT
    history_images: int = 2
    temperature: float = 0.0
    samples: int = 1  # answers per step (pass@k, data selection)
    levels: tuple[str, ...] = ("task",)
    privacy: str = "blur"  # how privacy regions are masked in what the policy is sent: blur, black or none
    # With several samples at a temperature, ask once more greedily first: the headline figures count that answer
    # (an evaluation's), not a sample; pass@k counts the samples. A data selection needs the samples only.
    greedy_first: bool = False

    @property
    def first_sampled(self) -> int:
        """The index of the first sampled answer: 1 after a greedy one, else 0."""
        return 1 if self.greedy_first and self.samples > 1 and self.temperature > 0 else 0

    def temperature_of(self, index: int) -> float:
        return 0.0 if index < self.first_sampled else self.temperature

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError(f"samples: at least 1, got {self.samples}")
        if not self.levels or any(level not in LEVELS for level in self.levels):
            raise ValueError(f"levels {self.levels}: each one of {', '.join(LEVELS)}")

    def as_json(self) -> dict[str, Any]:
        return {
            "coords": self.space.name,
            "min_pixels": self.space.resize.min_pixels,
            "max_pixels": self.space.resize.max_pixels,
            "image_scale": self.space.image_scale,
            "prompt_variant": str(self.prompt_variant),
            "history_images": self.history_images,
            "temperature": self.temperature,
            "samples": self.samples,
            "levels": list(self.levels),
            "privacy": self.privacy,
        } | ({"greedy_first": True} if self.first_sampled else {})


@dataclass(frozen=True)
class EvalJob:
    name: str
    settings: EvalSettings
    selection: TrajectorySelection = field(default_factory=TrajectorySelection)
    kind: str = "offline"  # or "selection" (trainer-bridge select)
    concurrency: int = 4
    seen_apps: tuple[str, ...] | None = None  # the apps the model was trained on (the seen / unseen split)
    resume: bool = True
    extra: dict[str, Any] = field(default_factory=dict)  # settings of the caller's own (a selection's reward)
    reward: Callable[[str, Sample], float | None] | None = None  # a selection's reward of each answer


@dataclass(frozen=True)
class EvalProgress:
    done: int
    total: int
    answered: int
    failed: int


@dataclass(frozen=True)
class EvalResult:
    evaluation_id: int
    resumed: bool
    requested: int  # (step, level, sample) requests the selection holds
    skipped: int  # answered by an earlier run
    answered: int
    failed: int
    status: str
    message: str | None
    summary: dict[str, Any] | None
    seconds: float


@dataclass(frozen=True)
class _Item:
    sample: Sample
    level: str
    index: int  # the sample's number, 0 .. samples-1


def fingerprint(
    kind: str, policy: dict[str, Any], settings: dict[str, Any], selection: dict[str, Any], name: str = ""
) -> str:
    """The evaluation's identity: its name, the model (not the URL it is served at: the same model served
    elsewhere is the same policy), how it is asked, and what about."""
    identity = {"kind": kind, "name": name, "policy": {k: v for k, v in policy.items() if k != "base_url"}}
    identity |= {"settings": settings, "selection": selection}
    return hashlib.sha256(json.dumps(identity, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def step_records(workspace: Workspace, selection: TrajectorySelection) -> Iterator[TrainingRecord]:
    """The held-out steps: each selected trajectory's `step` records, with the labelled history."""
    judge_id, keys = selected_keys(workspace.database, selection)
    for trajectory in load_trajectories(workspace.database, [key.trajectory_id for key in keys], judge_id=judge_id):
        yield from (record for record in training_records(trajectory) if record.kind == "step")


def _items(records: list[TrainingRecord], settings: EvalSettings) -> Iterator[_Item]:
    for record in records:
        for level in settings.levels:
            asked = at_level(record, level)
            sample = grpo_action_sample(asked, settings.space, settings.history_images, settings.prompt_variant)
            for index in range(settings.first_sampled + settings.samples):
                yield _Item(sample, level, index)


def _reporting(on_progress: Callable[[EvalProgress], None]) -> Callable[[Progress[_Item, None]], None]:
    def report(progress: Progress[_Item, None]) -> None:
        tally = progress.tally
        on_progress(EvalProgress(tally.done, progress.total, tally.succeeded, tally.failed))

    return report


def _key(item: _Item) -> tuple[int, str, int]:
    """What an answered request is stored under: (step, level, sample)."""
    return item.sample.record.step_id, item.level, item.index


class OfflineEvaluation:
    """One run of a job against a policy on a workspace; `run` may be called once."""

    def __init__(self, workspace: Workspace, policy: Policy, job: EvalJob) -> None:
        self.workspace, self.policy, self.job = workspace, policy, job
        mask = None if job.settings.privacy == "none" else job.settings.privacy
        cache = workspace.data_dir / CACHE_FOLDER
        # Each worker makes its request's images (Pillow releases the GIL); a screenshot shown again as history
        # is read from the data folder's kept copies. Nothing is written to `folder`: only `make` is used.
        self.images = ExportImages(workspace.blobs, Path(workspace.data_dir), mask, cache, workers=1)

    def run(
        self, on_progress: Callable[[EvalProgress], None] | None = None, stop: threading.Event | None = None
    ) -> EvalResult:
        started = time.perf_counter()
        job, db = self.job, self.workspace.database
        settings = job.settings.as_json() | job.extra
        selection = job.selection.as_json()
        evaluation_id, resumed = evaluations.start_or_resume(
            db,
            kind=job.kind,
            name=job.name,
            policy=self.policy.describe(),
            settings=settings,
            selection=selection,
            fingerprint=fingerprint(job.kind, self.policy.describe(), settings, selection, job.name),
            resume=job.resume,
        )
        try:
            items = list(_items(list(step_records(self.workspace, job.selection)), job.settings))
            result = self._ask_all(evaluation_id, items, on_progress, stop)
        except BaseException as error:
            reason = f"stopped by an error: {error!r}"
            evaluations.finish(db, evaluation_id, status="failed", message=reason, summary=None)
            raise
        finally:
            self.images.close()
        summary = evaluation_summary(db, evaluation_id, job.seen_apps, job.settings.levels, job.settings.first_sampled)
        evaluations.finish(db, evaluation_id, status=result.status, message=result.message, summary=summary)
        result.raise_interruption()
        return EvalResult(
            evaluation_id,
            resumed,
            len(items),
            result.resumed,
            result.tally.succeeded,
            result.tally.failed,
            result.status,
            result.message,
            summary,
            time.perf_counter() - started,
        )

    def _ask_all(
        self,
        evaluation_id: int,
        items: list[_Item],
        on_progress: Callable[[EvalProgress], None] | None,
        stop: threading.Event | None,
    ) -> BatchResult[_Item]:
        """Every item not answered before, asked, scored and stored as it arrives."""
        answered = evaluations.answered(self.workspace.database, evaluation_id)

        def ask(item: _Item) -> Outcome[None]:
            try:
                record, unavailable = self._ask(item)
            except PolicyRejected as error:  # nothing is stored: the next run asks again
                raise StopBatch(f"the policy refused the request: {error}") from error
            evaluations.save_prediction(self.workspace.database, evaluation_id, record)
            if record.error is not None:
                return Outcome.failed(record.error, unavailable=unavailable)
            return Outcome.done()

        return run_batch(
            items,
            ask,
            workers=self.job.concurrency,
            already_done=lambda item: _key(item) in answered,
            on_progress=_reporting(on_progress) if on_progress else None,
            cancel=stop,
            endpoint="the policy's endpoint",
            thread_name="evaluate",
        )

    def _screenshot(self, record: TrainingRecord) -> bytes:
        """The current screen at the phone's own pixels, its privacy regions masked as in the policy's images (for
        a policy that looks closer than the model's image: decomposed grounding)."""
        regions = record.regions[-1] if record.regions else ()
        return self.images.make(ImageRef(record.screenshots[-1], record.screen, record.screen, regions))

    def _ask(self, item: _Item) -> tuple[PredictionRecord, bool]:
        sample, record = item.sample, item.sample.record
        key: dict[str, Any] = {"step_id": record.step_id, "level": item.level, "sample": item.index}
        try:
            images = [self.images.make(ref) for ref in sample.images]  # thread-safe; kept copies are read
            screenshot = self._screenshot(record) if getattr(self.policy, "wants_screenshot", False) else None
        except (BlobError, OSError, ValueError) as error:  # a missing or corrupt screenshot: nothing is sent
            return PredictionRecord(**key, reply=None, predicted=None, error=f"not sent: {error}"), False
        request = PolicyRequest(sample.prompt, images, screenshot)
        answer = self.policy.answer(request, temperature=self.job.settings.temperature_of(item.index))
        if answer.text is None:
            failed = PredictionRecord(**key, reply=None, predicted=None, error=answer.error or "no reply")
            return failed, answer.unavailable
        assert sample.ground_truth is not None  # a grpo-action sample always has one
        settings = self.job.settings
        scored = score_reply(answer.text, sample.ground_truth, settings.space, record.screen, settings.prompt_variant)
        reward = self.job.reward(answer.text, sample) if self.job.reward is not None else None
        return PredictionRecord(
            **key,
            reply=answer.text,
            predicted=scored.predicted,
            error=None,
            format_ok=scored.format_ok,
            type_match=scored.type_match,
            exact_match=scored.exact_match,
            grounded=scored.grounded,
            step_success=scored.step_success,
            reward=reward,
            latency_ms=answer.latency_ms,
            usage=answer.usage,
        ), False
