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
from annotator.llm.client import LLMClient, LLMConfig, LLMError, LLMRejected, LLMUnavailable
from annotator.storage import judging
from annotator.storage.blobs import BlobError
from annotator.storage.judging import ScoreRecord
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

UNAVAILABLE_IN_A_ROW = 3  # at least this many, or the concurrency if higher: a few bad requests are not an outage


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


class _Tally:
    """Counts shared by the worker threads, and the reason to stop the run early, if any."""

    def __init__(self, total: int, stop: threading.Event, unavailable_limit: int) -> None:
        self.lock = threading.Lock()
        self.total, self.stop, self.unavailable_limit = total, stop, unavailable_limit
        self.done = self.scored = self.failed = self.unavailable_in_a_row = 0
        self.screens_dropped = self.trajectories_with_screens_dropped = 0
        self.abort: str | None = None

    def count(self, answer: Answer, failure: LLMError | None, dropped: int = 0) -> RunProgress:
        with self.lock:
            self.done += 1
            self.screens_dropped += dropped
            self.trajectories_with_screens_dropped += dropped > 0
            self.scored += answer.reward is not None
            self.failed += answer.reward is None
            self.unavailable_in_a_row = self.unavailable_in_a_row + 1 if isinstance(failure, LLMUnavailable) else 0
            if isinstance(failure, LLMRejected) and self.abort is None:
                self.abort = f"the judge endpoint refused the request: {failure.message}"
            elif self.unavailable_in_a_row >= self.unavailable_limit and self.abort is None:
                self.abort = f"the judge endpoint stayed unavailable: {failure.message if failure else ''}"
            if self.abort is not None:
                self.stop.set()
            return RunProgress(self.done, self.total, self.scored, self.failed, answer)


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
        self.lock = threading.Lock()
        self.futures: dict[int, Future[_Request]] = {}
        self.submitted = 0

    def take(self, index: int) -> _Request:
        with self.lock:
            while self.submitted < min(len(self.trajectory_ids), index + 1 + self.ahead):
                self.futures[self.submitted] = self.pool.submit(self.build, self.trajectory_ids[self.submitted])
                self.submitted += 1
            future = self.futures.pop(index)
        return future.result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


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
        todo = [trajectory for trajectory in requested if trajectory not in already]
        run_id = judging.start_run(
            db, self.config_id, self.endpoint.base_url, concurrency, selection or {}, len(requested)
        )
        stop = stop or threading.Event()
        tally = _Tally(len(todo), stop, max(UNAVAILABLE_IN_A_ROW, concurrency))

        def work(index: int) -> None:
            if stop.is_set():
                return
            request = lookahead.take(index)
            answer, failure = self._judge_one(client, run_id, request)
            progress = tally.count(answer, failure, request.dropped)
            if on_progress is not None:
                on_progress(progress)

        interrupted: BaseException | None = None
        lookahead = _Lookahead(self._prepare, todo, ahead=concurrency)
        with LLMClient(self.endpoint) as client, ThreadPoolExecutor(concurrency, thread_name_prefix="judge") as pool:
            futures = [pool.submit(work, index) for index in range(len(todo))]
            try:
                for future in futures:
                    future.result()  # a bug in our own code surfaces here instead of vanishing in a thread
            except BaseException as error:  # Ctrl+C, or that bug: the queued ones are not asked, the run is recorded
                stop.set()
                interrupted = error
            finally:
                lookahead.close()
        status = "failed" if tally.abort else "stopped" if tally.done < len(todo) else "complete"
        if interrupted is not None:
            status = "stopped" if isinstance(interrupted, KeyboardInterrupt) else "failed"
        message = tally.abort or (f"interrupted: {interrupted!r}" if interrupted is not None else None)
        counts = {
            "scored": tally.scored, "failed": tally.failed, "skipped": len(requested) - len(todo),
            "screens_dropped": tally.screens_dropped,
            "trajectories_with_screens_dropped": tally.trajectories_with_screens_dropped,
        }  # fmt: skip
        judging.finish_run(db, run_id, counts=counts, status=status, message=message)
        if interrupted is not None:
            raise interrupted
        return RunSummary(
            run_id, self.config_id, len(requested), counts["skipped"], tally.scored, tally.failed, status,
            message, time.perf_counter() - started, tally.screens_dropped, tally.trajectories_with_screens_dropped,
        )  # fmt: skip

    def _judge_one(self, client: LLMClient, run_id: int, request: _Request) -> tuple[Answer, LLMError | None]:
        unsent = request.unsent
        record, failure = (unsent, None) if unsent else ask_judge(client, request.messages, request.images)
        judging.save_score(self.workspace.database, self.config_id, run_id, request.trajectory_id, record)
        return Answer(request.trajectory_id, record.reward, record.error), failure

    def _prepare(self, trajectory_id: int) -> _Request:
        try:
            trajectory = load_trajectory(self.workspace.database, trajectory_id)
            messages, images, dropped = judge_messages(trajectory, self.settings, self.screens)
        except (BlobError, OSError, ValueError) as error:  # a missing or corrupt screenshot: nothing is sent
            return _Request(trajectory_id, [], 0, ScoreRecord(None, None, None, f"not sent: {error}", None, None, 0))
        return _Request(trajectory_id, messages, images, dropped=dropped)
