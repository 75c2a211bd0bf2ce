"""One engine for batches of model requests: the judge, drafting and offline evaluation (with selection) run
their items through it.

`run_batch` hands each item to the caller's `work` on `workers` threads and counts what it comes to (an
`Outcome`: done, failed with its reason, or skipped). Items the caller says are done already are not handed out
(resume). The batch ends early, keeping what was done, when `cancel` is set, when the endpoint refused a request
(a bad key or model), when `work` raises `StopBatch`, or when the endpoint stays unavailable for several items in
a row. Ctrl+C or an error of the caller's own code ends it too; the result carries that exception so
the caller can record the run before raising it again.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Generic, TypeVar

from annotator.llm.client import LLMError, LLMRejected, LLMUnavailable

T = TypeVar("T")  # an item of the batch
V = TypeVar("V")  # what the caller's work hands back to its own progress callback

DONE, FAILED, SKIPPED = "done", "failed", "skipped"
UNAVAILABLE_IN_A_ROW = 3  # at least this many, or the workers if more: a few bad requests are not an outage


class StopBatch(Exception):
    """Raised by `work` to end the batch at once without counting its item (nothing was done with it)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Outcome(Generic[V]):
    """What one item came to."""

    state: str  # DONE, FAILED or SKIPPED
    value: V | None = None  # the caller's own record of the item, handed to its progress callback
    reason: str | None = None  # why it failed
    unavailable: bool = False  # the endpoint could not be reached: several in a row end the batch
    refused: bool = False  # the endpoint refused the request (a bad key or model): it ends the batch
    counts: Mapping[str, int] = field(default_factory=dict)  # the caller's own, added up (kept, screens left out)

    def __post_init__(self) -> None:
        if self.state not in (DONE, FAILED, SKIPPED):
            raise ValueError(f"outcome state {self.state!r}: expected {DONE}, {FAILED} or {SKIPPED}")
        if self.state == FAILED and not self.reason:
            raise ValueError("a failed outcome needs its reason")

    @classmethod
    def done(cls, value: V | None = None, counts: Mapping[str, int] | None = None) -> Outcome[V]:
        return cls(DONE, value, counts=counts or {})

    @classmethod
    def skipped(cls, value: V | None = None, counts: Mapping[str, int] | None = None) -> Outcome[V]:
        return cls(SKIPPED, value, counts=counts or {})

    @classmethod
    def failed(
        cls,
        reason: str,
        value: V | None = None,
        *,
        unavailable: bool = False,
        refused: bool = False,
        counts: Mapping[str, int] | None = None,
    ) -> Outcome[V]:
        return cls(FAILED, value, reason, unavailable, refused, counts or {})


def failed_request(error: LLMError, value: V | None = None, counts: Mapping[str, int] | None = None) -> Outcome[V]:
    """A request the client gave up on: unavailable counts toward the batch's end, refused ends it at once."""
    unavailable, refused = isinstance(error, LLMUnavailable), isinstance(error, LLMRejected)
    return Outcome.failed(error.message, value, unavailable=unavailable, refused=refused, counts=counts)


@dataclass(frozen=True)
class Tally:
    """The outcomes so far."""

    done: int = 0  # items finished, whatever their outcome
    succeeded: int = 0
    failed: int = 0
    skipped: int = 0
    counts: Mapping[str, int] = field(default_factory=dict)  # the outcomes' own counts, added up


@dataclass(frozen=True)
class Progress(Generic[T, V]):
    """One item finished: the tally with it, and the item with its outcome."""

    tally: Tally
    total: int  # items handed out (those done before are not)
    item: T
    outcome: Outcome[V]


@dataclass(frozen=True)
class BatchResult(Generic[T]):
    tally: Tally
    total: int  # items to do: those given, less those done before
    resumed: int  # items given that were done before, not handed out
    failures: list[tuple[T, str]]  # each failed item and why, in the order they finished
    stop_reason: str | None  # why the batch ended early on its own: the endpoint refused or stayed down
    interrupted: BaseException | None = None  # Ctrl+C or an error of the caller's code, to raise once recorded

    @property
    def status(self) -> str:
        """complete; stopped (cancelled, Ctrl+C); failed (the endpoint refused or stayed down, or an error)."""
        if self.interrupted is not None:
            return "stopped" if isinstance(self.interrupted, KeyboardInterrupt) else "failed"
        if self.stop_reason is not None:
            return "failed"
        return "stopped" if self.tally.done < self.total else "complete"

    @property
    def message(self) -> str | None:
        if self.stop_reason is not None:
            return self.stop_reason
        return f"interrupted: {self.interrupted!r}" if self.interrupted is not None else None

    def raise_interruption(self) -> None:
        """Raise again the Ctrl+C or error that ended the batch, if one did."""
        if self.interrupted is not None:
            raise self.interrupted


@dataclass
class _Counter(Generic[T]):
    """The tally shared by the worker threads, and the reason to stop early once there is one."""

    unavailable_limit: int
    endpoint: str
    cancel: threading.Event | None
    lock: threading.Lock = field(default_factory=threading.Lock)
    tally: Tally = field(default_factory=Tally)
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[tuple[T, str]] = field(default_factory=list)
    unavailable_in_a_row: int = 0
    stop_reason: str | None = None
    ending: threading.Event = field(default_factory=threading.Event)

    def stopping(self) -> bool:
        return self.ending.is_set() or (self.cancel is not None and self.cancel.is_set())

    def end(self, reason: str) -> None:
        with self.lock:
            self.stop_reason = self.stop_reason or reason
            self.ending.set()

    def count(self, item: T, outcome: Outcome[V]) -> Tally:
        with self.lock:
            self.counts.update(outcome.counts)
            before = self.tally
            self.tally = Tally(
                before.done + 1,
                before.succeeded + (outcome.state == DONE),
                before.failed + (outcome.state == FAILED),
                before.skipped + (outcome.state == SKIPPED),
                MappingProxyType(dict(self.counts)),
            )
            if outcome.state == FAILED and outcome.reason:
                self.failures.append((item, outcome.reason))
            self.unavailable_in_a_row = self.unavailable_in_a_row + 1 if outcome.unavailable else 0
            reason = self._reason_to_end(outcome)
            if reason is not None:
                self.stop_reason = self.stop_reason or reason
                self.ending.set()
            return self.tally

    def _reason_to_end(self, outcome: Outcome[V]) -> str | None:
        if outcome.refused:
            return f"{self.endpoint} refused the request: {outcome.reason}"
        if self.unavailable_in_a_row >= self.unavailable_limit:
            return f"{self.endpoint} stayed unavailable: {outcome.reason}"
        return None


def run_batch(
    items: Iterable[T],
    work: Callable[[T], Outcome[V]],
    *,
    workers: int,
    already_done: Callable[[T], bool] | None = None,
    on_progress: Callable[[Progress[T, V]], None] | None = None,
    cancel: threading.Event | None = None,
    unavailable_limit: int | None = None,
    endpoint: str = "the endpoint",
    thread_name: str = "batch",
) -> BatchResult[T]:
    """Run `work` on every item but those `already_done` says are, `workers` at a time, in order (module docstring).
    `on_progress` is called from the worker threads; `cancel` set: the items in flight finish, no more start;
    `unavailable_limit`: unavailable outcomes in a row that end the batch (default: UNAVAILABLE_IN_A_ROW or
    `workers`, whichever is more); `endpoint` names it in the reason the batch ended early."""
    if workers < 1:
        raise ValueError(f"workers: at least 1, got {workers}")
    given = list(items)
    todo = [item for item in given if already_done is None or not already_done(item)]
    limit = unavailable_limit if unavailable_limit is not None else max(UNAVAILABLE_IN_A_ROW, workers)
    counter: _Counter[T] = _Counter(limit, endpoint, cancel)

    def one(item: T) -> None:
        if counter.stopping():
            return
        try:
            outcome = work(item)
            tally = counter.count(item, outcome)
            if on_progress is not None:
                on_progress(Progress(tally, len(todo), item, outcome))
        except StopBatch as stop:
            counter.end(stop.reason)
        except BaseException:
            counter.ending.set()  # no more items start; the pool's caller raises it when it reaches this item
            raise

    interrupted = _run_all(one, todo, workers, thread_name, counter.ending)
    resumed = len(given) - len(todo)
    return BatchResult(counter.tally, len(todo), resumed, counter.failures, counter.stop_reason, interrupted)


def _run_all(
    one: Callable[[T], None], todo: list[T], workers: int, thread_name: str, ending: threading.Event
) -> BaseException | None:
    """Every item through `one` on a pool; the Ctrl+C or error that ended it early (the queued items not run)."""
    with ThreadPoolExecutor(workers, thread_name_prefix=thread_name) as pool:
        futures = [pool.submit(one, item) for item in todo]
        try:
            for future in futures:
                future.result()  # an error of the caller's code surfaces here instead of vanishing in a thread
        except BaseException as error:  # Ctrl+C or that error: the queued items are dropped, what was done kept
            ending.set()
            pool.shutdown(wait=True, cancel_futures=True)
            return error
    return None
