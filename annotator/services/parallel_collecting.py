"""Agent collection on many phones at once: one worker thread per phone, the runs dealt from one shared queue.

How a caller uses it (the CLI's `annotator collect --devices`, the app's Collect grid):

    stop = threading.Event()                      # set it to stop: each phone ends after its current step
    result = collect_on_phones(
        workspace, devices, endpoint, tasks, runs=2, settings=settings,
        on_event=handle, stop=stop,               # handle(event) is called from the phones' worker threads
    )
    result.all_done                               # every run complete, nothing left open
    result.summary()                              # one line saying what was done and what was not

- `devices` are `AndroidDevice`s, each with an adb client of its own (`open_devices` makes them from serials).
- Every task is run `runs` times; each (task, run number) is a :class:`Job` on the shared queue. Each phone has
  its own agent (an `LLMClient` and an `AgentDecider`); teleoperation drives one phone, never several.
- Tasks picked from the pending instructions (`Task.shared`) may be picked by other processes on the same
  workspace too: a phone claims each such run in the database before it starts it (`collecting.claimed_run`), and
  skips the run (:class:`RunSkipped`) when another live process is collecting it or it is done.
- `on_event` gets one event object per thing that happened, each naming its phone (`event.serial`):
  :class:`RunStarted`, :class:`RunSkipped`, :class:`StepRecorded`, :class:`ScreenSeen` (every fresh screenshot,
  for a live view; only with `screens=True`), :class:`RunEnded`, :class:`PhoneLost` and, last for each phone,
  :class:`PhoneFinished` with its summary (events and summaries: `services.parallel_collect_events`). They come
  from worker threads: a GUI hands them to its own thread (a Qt signal carrying the object) and must not block in
  the callback, since the phone waits for it.
- A phone that goes away (unplugged, adb gone, a command failing) leaves its trajectory `interrupted` and
  resumable, as a single-phone run does; the job goes back to the queue for the other phones, and the phone's
  worker ends. The model's endpoint failing for good (401, 500s after the retries) leaves that run interrupted and
  deals no further job (the phones finish their current runs). So does the workspace failing to be written (the
  disk full): each phone's run ends interrupted with the steps it had stored, its summary says what could not be
  written, and no more runs are dealt. The whole thing ends when the queue is empty, no phone is left, or `stop`
  is set.
- `collect_on_phones` blocks until every worker has ended; call it from a worker thread of the GUI. A
  KeyboardInterrupt in the calling thread (the CLI's second Ctrl+C) marks the runs in progress interrupted and is
  raised again; the phone threads are daemons, so the process can exit.

Every database write is one short transaction of a worker's own (`annotator.storage.writing`): no transaction
is held across a phone command or a model call, so a phone only ever waits on another's write for as long as
that write takes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from annotator.collect import unwritten
from annotator.collect.dealing import Dealer, work_through
from annotator.collect.decide import Decider
from annotator.collect.session import RunResult, Settings, StepEvent, StopKind, Task, collector_for
from annotator.device.adb import adb_client, usable_serials
from annotator.device.android import AndroidDevice
from annotator.device.errors import DeviceError
from annotator.domain import actions as act
from annotator.domain.trajectory import TrajectoryStatus
from annotator.services.collecting import (
    DEFAULT_SETTINGS,
    AgentEndpoint,
    CollectError,
    agent_decider,
    claimed_run,
    collection_run,
    remember_device,
)
from annotator.services.live_collect import ScreenWatch
from annotator.services.parallel_collect_events import (
    Job,
    ParallelResult,
    PhoneEvent,
    PhoneFinished,
    PhoneLost,
    PhoneSummary,
    RunEnded,
    RunSkipped,
    RunStarted,
    ScreenSeen,
    StepRecorded,
)
from annotator.storage.workspace import Workspace

__all__ = [
    "Job",
    "ParallelResult",
    "PhoneEvent",
    "PhoneFinished",
    "PhoneLost",
    "PhoneSummary",
    "RunEnded",
    "RunSkipped",
    "RunStarted",
    "ScreenSeen",
    "StepRecorded",
    "choose_phones",
    "collect_on_phones",
    "open_devices",
]

WAIT_SLICE_S = 0.2  # how often the calling thread wakes while it waits, so that Ctrl+C reaches it


def open_devices(serials: Sequence[str], port: int | None = None) -> list[AndroidDevice]:
    """A device per serial, each with an adb client (and so connections) of its own."""
    return [AndroidDevice(adb_client(port=port), serial) for serial in serials]


def collect_on_phones(
    workspace: Workspace,
    devices: Sequence[AndroidDevice],
    endpoint: AgentEndpoint,
    tasks: Sequence[Task],
    *,
    runs: int = 1,
    settings: Settings = DEFAULT_SETTINGS,
    on_event: Callable[[PhoneEvent], None] | None = None,
    stop: threading.Event | None = None,
    screens: bool = False,
    make_decider: Callable[[], Decider] | None = None,
) -> ParallelResult:
    """Run every task `runs` times on the phones, one worker per phone (see the module's docstring)."""
    serials = [device.serial for device in devices]
    if not devices or len(set(serials)) != len(serials):
        raise CollectError(f"the phones to collect on: at least one, each once; got {serials}")
    deciders = make_decider or (lambda: agent_decider(endpoint, settings))
    jobs = [Job(task, number) for task in tasks for number in range(1, runs + 1)]
    dealer: Dealer[Job] = Dealer(jobs, stop)
    shared = _Shared(workspace, endpoint, settings, on_event or (lambda event: None), dealer, screens)
    workers = [_Worker(shared, device, deciders) for device in devices]
    threads = [threading.Thread(target=w.run, name=f"collect-{w.serial}", daemon=True) for w in workers]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(WAIT_SLICE_S)
    except BaseException as error:  # the second Ctrl+C: the runs in progress are left interrupted
        dealer.halt()
        for worker in workers:
            worker.abandon(error)
        raise
    failed = [worker.failure for worker in workers if worker.failure is not None]
    if failed:
        raise failed[0]  # a bug of ours, or the database failing: not to be taken for a lost phone
    results = [result for worker in workers for result in worker.results]
    phones = [worker.summary for worker in workers]
    skipped = sum(phone.skipped for phone in phones)
    return ParallelResult(phones, results, dealer.left(), dealer.stop.is_set(), dealer.closed, skipped)


@dataclass(frozen=True)
class _Shared:
    workspace: Workspace
    endpoint: AgentEndpoint
    settings: Settings
    emit: Callable[[PhoneEvent], None]
    dealer: Dealer[Job]
    screens: bool


class _Worker:
    """One phone: takes jobs until none is left for it or the phone is gone."""

    def __init__(self, shared: _Shared, device: AndroidDevice, make_decider: Callable[[], Decider]) -> None:
        self.shared, self.device, self.serial = shared, device, device.serial
        self.make_decider = make_decider
        self.summary = PhoneSummary(device.serial)
        self.results: list[RunResult] = []
        self.failure: BaseException | None = None
        self.current: int | None = None  # the trajectory being collected
        self.job: Job | None = None  # the job it is for

    def run(self) -> None:
        decider: ScreenWatch | None = None
        try:
            packages = remember_device(self.shared.workspace, self.device.info())
            decider = ScreenWatch(self.make_decider(), self._screen, self._step)
            if decider.kind != "agent":
                raise CollectError("several phones are driven by an agent: teleoperation drives one phone")
            work_through(self.shared.dealer, self.serial, lambda job: self._one(job, decider, packages))
        except DeviceError as error:  # gone before it took a job
            self._lost(str(error), None)
        except BaseException as error:
            self._failed(error)
        finally:
            if decider is not None:
                decider.close()
            self.shared.emit(PhoneFinished(self.serial, self.summary))

    def _screen(self, png: bytes) -> None:
        if self.shared.screens:
            self.shared.emit(ScreenSeen(self.serial, png))

    def _step(self, event: StepEvent, action: act.Action | None) -> None:
        assert self.job is not None  # steps come from a run, and a run from a job
        self.shared.emit(StepRecorded(self.serial, self.job, event, action))

    def _failed(self, error: BaseException) -> None:
        """The workspace could not be written (the disk full): no more runs; anything else is raised by the caller."""
        why = unwritten.reason(error, self.shared.workspace.data_dir)
        if why is None:
            self.failure = error
            self.shared.dealer.halt()
            return
        self.summary.unwritten = self.summary.unwritten or why
        self.shared.dealer.close(why)

    def _one(self, job: Job, decider: ScreenWatch, packages: dict[str, str]) -> str | None:
        """One run of the job, unless another process has it; why the phone cannot go on, or None."""
        with claimed_run(self.shared.workspace, job.task, job.number) as skipped:
            if skipped is not None:
                self.summary.skipped += 1
                self.shared.emit(RunSkipped(self.serial, job, skipped))
                return None
            result = self._collect(job, decider, packages)
        if result.stop.phone_lost:
            self._lost(result.stop_reason, job)
            return result.stop_reason
        if result.stop == StopKind.DECIDER_FAILED:
            self.shared.dealer.close(f"the model failed on {self.serial}: {result.stop_reason}")
        if result.stop == StopKind.NOT_WRITTEN:
            self.summary.unwritten = result.stop_reason
            self.shared.dealer.close(result.stop_reason)
        return None

    def _collect(self, job: Job, decider: ScreenWatch, packages: dict[str, str]) -> RunResult:
        shared, endpoint = self.shared, self.shared.endpoint
        collector = collector_for(decider, person=None, model=endpoint.model, endpoint=endpoint.base_url)

        def started(trajectory_id: int) -> None:
            self.current = trajectory_id
            shared.emit(RunStarted(self.serial, job, trajectory_id))

        self.job = job
        run = collection_run(
            shared.workspace,
            self.device,
            decider,
            settings=shared.settings,
            packages=packages,
            on_step=decider.on_step,
            stop=shared.dealer.stop,
            on_started=started,
        )
        result = run.start(job.task, collector)
        self.current = None
        self._count(result)
        shared.emit(RunEnded(self.serial, job, result))
        return result

    def _count(self, result: RunResult) -> None:
        self.results.append(result)
        self.summary.runs += 1
        self.summary.steps += result.steps
        if result.status == TrajectoryStatus.COMPLETE:
            self.summary.complete += 1
        else:
            self.summary.interrupted.append(result.trajectory_id)

    def _lost(self, reason: str, job: Job | None) -> None:
        self.summary.lost = reason
        self.shared.emit(PhoneLost(self.serial, reason, job))

    def abandon(self, error: BaseException) -> None:
        """The caller gave up waiting (a second Ctrl+C): leave the run in progress interrupted."""
        trajectory_id = self.current
        if trajectory_id is None:
            return
        reason = "aborted by the user" if isinstance(error, KeyboardInterrupt) else f"stopped by an error: {error!r}"
        unwritten.mark_interrupted(self.shared.workspace.database, trajectory_id, reason)


def choose_phones(serials: Sequence[str], port: int | None = None) -> list[AndroidDevice]:
    """The phones named (each connected and usable), or every usable one when none is named."""
    try:
        return open_devices(usable_serials(adb_client(port=port), serials), port)
    except DeviceError as error:
        raise CollectError(str(error)) from None
