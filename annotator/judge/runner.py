"""Judge runs: score trajectories with bounded concurrency, storing each answer as it arrives.

A run is resumable by construction: every answer is written at once, and a run skips the trajectories that
already have a usable score under the same configuration, so it never pays twice for them. Requests are built
ahead of the slots that send them (loaded, screenshots scaled) while the slots wait on the endpoint, so a slot
that frees sends at once. Replies that give
no usable score (no JSON, a reward of 7, a refusal) and requests that failed after the client's retries (429,
5xx, timeouts) are stored with their reason and no reward; the next run asks about them again. A key or model
the server refuses ends the run at once; so does an endpoint that stays unavailable for several trajectories
in a row. Either way the scores so far are kept.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from annotator.domain.judge_settings import JudgeSettings
from annotator.domain.trajectory import LabelledTrajectory
from annotator.judge.messages import JudgeMessages, ScreenSource, build_judge_messages, judged_trajectory
from annotator.judge.reply import JudgeReplyError, parse_judge_reply
from annotator.judge.screens import workspace_screens
from annotator.llm.batch import BatchResult, Outcome, Progress, failed_request, run_batch
from annotator.llm.client import LLMClient, LLMConfig, LLMError
from annotator.storage import judging
from annotator.storage.blobs import BlobError
from annotator.storage.judging import ScoreRecord
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

JUDGE_ENDPOINT = "the judge endpoint"  # as the reason a run ended names it


@dataclass(frozen=True)
class Answer:
    """One trajectory done: its reward, or why there is none."""

    trajectory_id: int
    reward: int | None
    error: str | None


@dataclass(frozen=True)
class RunProgress:
    done: int
    total: int  # trajectories to ask about (the scored ones are skipped before)
    scored: int
    failed: int
    last: Answer


@dataclass(frozen=True)
class RunSummary:
    run_id: int
    config_id: int
    requested: int
    skipped: int
    scored: int
    failed: int
    status: str  # complete, stopped, failed
    message: str | None
    seconds: float
    screens_dropped: int = 0  # screenshots the image cap left out, over the run
    trajectories_with_screens_dropped: int = 0


@dataclass(frozen=True)
class _Request:
    """What to send about one trajectory, or (`unsent`) why nothing can be."""

    trajectory_id: int
    messages: list[dict[str, Any]]
    images: int
    unsent: ScoreRecord | None = None
    dropped: int = 0  # screenshots the image cap left out


class _Lookahead:
    """Requests built by a few threads of their own, `ahead` of the one a slot takes next, in order."""

    def __init__(self, build: Callable[[int], _Request], trajectory_ids: list[int], ahead: int) -> None:
        workers = max(1, min(ahead, os.cpu_count() or 1))  # scaling releases the GIL: one thread per core
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="judge-prepare")
        self.build, self.trajectory_ids, self.ahead = build, trajectory_ids, ahead
        self.position = {trajectory_id: index for index, trajectory_id in enumerate(trajectory_ids)}
        self.lock = threading.Lock()
        self.futures: dict[int, Future[_Request]] = {}
        self.submitted = 0

    def take(self, trajectory_id: int) -> _Request:
        index = self.position[trajectory_id]
        with self.lock:
            while self.submitted < min(len(self.trajectory_ids), index + 1 + self.ahead):
                self.futures[self.submitted] = self.pool.submit(self.build, self.trajectory_ids[self.submitted])
                self.submitted += 1
            future = self.futures.pop(index)
        return future.result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _reporting(on_progress: Callable[[RunProgress], None]) -> Callable[[Progress[int, Answer]], None]:
    def report(progress: Progress[int, Answer]) -> None:
        tally, answer = progress.tally, progress.outcome.value
        assert answer is not None  # every outcome of JudgeRunner._judge_one holds its answer
        on_progress(RunProgress(tally.done, progress.total, tally.succeeded, tally.failed, answer))

    return report


def _record_of_reply(text: str, usage: dict[str, Any], latency_ms: float, images: int) -> ScoreRecord:
    try:
        verdict = parse_judge_reply(text)
    except JudgeReplyError as error:
        return ScoreRecord(None, None, text, str(error), usage, latency_ms, images)
    return ScoreRecord(verdict.reward, verdict.reason, text, None, usage, latency_ms, images)


def judge_endpoint(endpoint: LLMConfig, settings: JudgeSettings) -> LLMConfig:
    """The endpoint as the judge uses it: what the configuration decides wins over the endpoint's defaults."""
    return replace(endpoint, model=settings.model, temperature=settings.temperature, seed=settings.seed)


def judge_messages(trajectory: LabelledTrajectory, settings: JudgeSettings, screens: ScreenSource) -> JudgeMessages:
    """The chat messages the judge is sent about `trajectory`, how many screenshots they hold and how many the
    image cap left out."""
    return build_judge_messages(judged_trajectory(trajectory), settings.prompt_text, settings.images, screens)


def ask_judge(client: LLMClient, messages: list[dict[str, Any]], images: int) -> tuple[ScoreRecord, LLMError | None]:
    """One request: the score, or why there is none (and the endpoint's failure, when it failed)."""
    try:
        reply = client.complete(messages)
    except LLMError as error:
        return ScoreRecord(None, None, None, error.message, None, None, images), error
    return _record_of_reply(reply.text, dict(reply.usage), reply.latency_ms, images), None


def judge_trajectory(
    trajectory: LabelledTrajectory, settings: JudgeSettings, endpoint: LLMConfig, screens: ScreenSource
) -> ScoreRecord:
    """Score one trajectory, stored or held only in memory, and store nothing (a rollout's task reward)."""
    messages, images, _ = judge_messages(trajectory, settings, screens)
    with LLMClient(judge_endpoint(endpoint, settings)) as client:
        return ask_judge(client, messages, images)[0]


class JudgeRunner:
    """Scores trajectories of one workspace under one judge configuration, at one endpoint."""

    def __init__(self, workspace: Workspace, settings: JudgeSettings, endpoint: LLMConfig) -> None:
        self.workspace, self.settings = workspace, settings
        self.endpoint = judge_endpoint(endpoint, settings)
        self.config_id = judging.ensure_config(workspace.database, settings)
        self.screens = workspace_screens(workspace)

    def run(
        self,
        trajectory_ids: Iterable[int],
        *,
        concurrency: int = 4,
        selection: dict[str, Any] | None = None,
        on_progress: Callable[[RunProgress], None] | None = None,
        stop: threading.Event | None = None,
    ) -> RunSummary:
        """Ask about every trajectory not yet scored under this configuration; `stop` ends the run after the
        requests in flight. `on_progress` is called from worker threads."""
        if concurrency < 1:
            raise ValueError(f"concurrency: at least 1, got {concurrency}")
        started = time.perf_counter()
        db = self.workspace.database
        requested = list(dict.fromkeys(trajectory_ids))
        already = judging.scored_trajectories(db, self.config_id)
        todo = [trajectory for trajectory in requested if trajectory not in already]  # the lookahead's order
        run_id = judging.start_run(
            db, self.config_id, self.endpoint.base_url, concurrency, selection or {}, len(requested)
        )

        lookahead = _Lookahead(self._prepare, todo, ahead=concurrency)
        with LLMClient(self.endpoint) as client:
            try:
                result = run_batch(
                    todo,
                    lambda trajectory_id: self._judge_one(client, run_id, lookahead.take(trajectory_id)),
                    workers=concurrency,
                    on_progress=_reporting(on_progress) if on_progress else None,
                    cancel=stop,
                    endpoint=JUDGE_ENDPOINT,
                    thread_name="judge",
                )
            finally:
                lookahead.close()
        summary = self._finish(run_id, result, len(requested) - len(todo), time.perf_counter() - started)
        result.raise_interruption()
        return summary

    def _finish(self, run_id: int, result: BatchResult[int], skipped: int, seconds: float) -> RunSummary:
        """Record how the run ended, with its counts."""
        tally = result.tally
        dropped = tally.counts.get("screens_dropped", 0)
        with_dropped = tally.counts.get("trajectories_with_screens_dropped", 0)
        counts = {
            "scored": tally.succeeded,
            "failed": tally.failed,
            "skipped": skipped,
            "screens_dropped": dropped,
            "trajectories_with_screens_dropped": with_dropped,
        }
        judging.finish_run(self.workspace.database, run_id, counts=counts, status=result.status, message=result.message)
        return RunSummary(
            run_id,
            self.config_id,
            result.total + skipped,
            skipped,
            tally.succeeded,
            tally.failed,
            result.status,
            result.message,
            seconds,
            dropped,
            with_dropped,
        )

    def _judge_one(self, client: LLMClient, run_id: int, request: _Request) -> Outcome[Answer]:
        unsent = request.unsent
        record, failure = (unsent, None) if unsent else ask_judge(client, request.messages, request.images)
        judging.save_score(self.workspace.database, self.config_id, run_id, request.trajectory_id, record)
        answer = Answer(request.trajectory_id, record.reward, record.error)
        dropped = {"screens_dropped": request.dropped, "trajectories_with_screens_dropped": int(request.dropped > 0)}
        if failure is not None:
            return failed_request(failure, answer, dropped)
        if record.reward is None:  # a reply with no usable score, or a request that could not be made
            return Outcome.failed(record.error or "no usable score", answer, counts=dropped)
        return Outcome.done(answer, dropped)

    def _prepare(self, trajectory_id: int) -> _Request:
        try:
            trajectory = load_trajectory(self.workspace.database, trajectory_id)
            messages, images, dropped = judge_messages(trajectory, self.settings, self.screens)
        except (BlobError, OSError, ValueError) as error:  # a missing or corrupt screenshot: nothing is sent
            return _Request(trajectory_id, [], 0, ScoreRecord(None, None, None, f"not sent: {error}", None, None, 0))
        return _Request(trajectory_id, messages, images, dropped=dropped)
