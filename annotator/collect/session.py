"""The collection loop: observe -> decide -> act -> record, one durable step at a time.

Every step is in the database as soon as it has happened, so a phone unplugged at step 7 leaves steps
0-6 and an `interrupted` trajectory that can be resumed (same trajectory, more steps) or closed.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from annotator.collect import unwritten
from annotator.collect.decide import Decider, Decision, DecisionUnavailable, PastStep, StepContext, preparer
from annotator.collect.write_turns import write_turn
from annotator.device.android import AndroidDevice
from annotator.device.errors import ActionFailed, DeviceError, DeviceGone
from annotator.device.hierarchy import hierarchy_box
from annotator.device.observe import DeviceObservation
from annotator.device.success_check import reset_to_start
from annotator.domain import actions as act
from annotator.domain.geometry import ScreenSize
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT
from annotator.domain.trajectory import CollectorKind, Outcome, TrajectoryStatus
from annotator.imaging.decode import png_header_size
from annotator.storage import collection, integrity
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

log = logging.getLogger(__name__)


class UnreadableScreenshot(RuntimeError):
    """The step could not be recorded because its screenshot is not a readable image."""


@dataclass(frozen=True)
class Settings:
    max_steps: int = 25
    history_images: int = 2  # screenshots sent to the agent, the current one included (Eq. 4's W + 1)
    prompt_variant: str = str(DEFAULT_PROMPT_VARIANT)  # the agent's system prompt (annotator.domain.prompts)
    settle_timeout_s: float = 3.0
    restart_app: bool = True  # each run starts from the app's start page
    # Each new run first puts the phone in the state every instruction starts from, where the phone can (the
    # virtual phone: every app's data cleared); a real phone keeps its data, and its app is restarted as above.
    reset_phone: bool = True
    decomposed_grounding: bool = False  # the agent's points refined on sub-images (UI-AGILE 3.4, llm.decomposed)

    def as_json(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.__dataclass_fields__}


@dataclass(frozen=True)
class Task:
    instruction_id: int
    text: str
    app: str
    # Picked from the workspace's pending instructions, which other processes may pick too: each run is claimed in
    # the database first (services.collecting.claimed_run), and skipped when another process is on it or it is done.
    shared: bool = False


@dataclass
class StepEvent:
    """What the progress display shows after each recorded step."""

    trajectory_id: int
    index: int
    action: str
    timings_ms: dict[str, float]
    note: str = ""


@dataclass
class StepCpu:
    """This thread's CPU time in a step (time.thread_time): when the step began, and how much of it went to talking
    to the phone (observing, acting). The rest, `cpu_app` in the step's timings, is the app's own work: what it
    costs whatever else shares the machine's cores (other phones' workers, an emulator's rendering)."""

    started: float
    phone: float = 0.0


class StopKind(StrEnum):
    """Why a run ended; `RunResult.stop_reason` says it in words, with the details."""

    TERMINATED = "terminated"  # the agent or the person said the task is done (or cannot be)
    NO_ACTION = "no_action"  # the decider gave no usable action
    STEP_LIMIT = "step_limit"
    STOPPED = "stopped"  # by the user (Ctrl+C, the Stop button)
    PHONE_GONE = "phone_gone"  # unplugged, or the adb server went away
    PHONE_ERROR = "phone_error"  # the phone failed a command, or sent a screenshot that is not an image
    DECIDER_FAILED = "decider_failed"  # the model's API stayed down, or the person's input ended
    NOT_WRITTEN = "not_written"  # the workspace could not be written (the disk full): the steps before are kept

    @property
    def phone_lost(self) -> bool:
        """The phone went away or failed: reconnect it and resume, or close the run."""
        return self in (StopKind.PHONE_GONE, StopKind.PHONE_ERROR)


@dataclass
class RunResult:
    trajectory_id: int
    status: TrajectoryStatus
    outcome: Outcome | None
    steps: int
    stop: StopKind
    stop_reason: str
    timings_ms: list[dict[str, float]] = field(default_factory=list)


def _tool_call(action: act.Action | None) -> dict[str, Any] | None:
    return action.to_tool_call() if action is not None else None


def _summary(action: act.Action | None) -> str:
    if action is None:
        return "no action"
    arguments = action.to_arguments()
    return " ".join(str(value) for value in arguments.values())


class CollectionRun:
    """One trajectory on one phone. `stop` (a threading.Event) lets a GUI or Ctrl+C end it between steps.
    `after_record` gets each recorded screenshot on a thread of its own (the judge's copies are made there),
    and has finished with all of them when the run returns."""

    def __init__(
        self,
        workspace: Workspace,
        device: AndroidDevice,
        decider: Decider,
        *,
        settings: Settings = Settings(),
        packages: dict[str, str] | None = None,
        on_step: Callable[[StepEvent], None] | None = None,
        stop: threading.Event | None = None,
        after_record: Callable[[bytes, ScreenSize], object] | None = None,
        on_started: Callable[[int], None] | None = None,
    ) -> None:
        self.workspace, self.device, self.decider, self.settings = workspace, device, decider, settings
        self.packages = packages or {}
        self.on_step = on_step or (lambda event: None)
        self.stop = stop or threading.Event()
        self.timings: list[dict[str, float]] = []
        self.after_record = after_record
        self._turn = write_turn(workspace.database)  # the phones of a parallel collection write one after another
        self.on_started = on_started or (lambda trajectory_id: None)  # the trajectory is stored and collecting
        self._after_record_pool: ThreadPoolExecutor | None = None
        self._files = ThreadPoolExecutor(1, thread_name_prefix="step-files")  # a step's blobs, while it is decided

    # Starting and resuming

    def start(self, task: Task, collector: collection.Collector) -> RunResult:
        db = self.workspace.database
        settings = self.settings.as_json() | {"decider": self.decider.kind}
        if self.decider.kind != "agent":
            del settings["prompt_variant"], settings["decomposed_grounding"]  # a person is shown no prompt
        with self._turn:
            trajectory_id = collection.start_trajectory(
                db, task.instruction_id, collector, device_serial=self.device.serial, settings=settings
            )
        self.on_started(trajectory_id)
        return self._run(trajectory_id, task, [])

    def resume(self, trajectory_id: int, task: Task) -> RunResult:
        """Go on with an interrupted run (or one whose process is gone) from the phone's current screen, with its
        history intact."""
        with self._turn:
            collection.resume_trajectory(self.workspace.database, trajectory_id)
        self.on_started(trajectory_id)
        return self._run(trajectory_id, task, self._history(trajectory_id), restart=False)

    def _history(self, trajectory_id: int) -> list[PastStep]:
        trajectory = load_trajectory(self.workspace.database, trajectory_id)
        history = []
        for step in trajectory.executed:
            done = step.as_collected()
            screenshot = self.workspace.blobs.read_bytes(step.screenshot_sha256)
            history.append(PastStep(done.think, done.action_text, done.tool_call, screenshot))
        return history

    # The loop

    def _run(self, trajectory_id: int, task: Task, history: list[PastStep], restart: bool = True) -> RunResult:
        self._after_record_pool = ThreadPoolExecutor(1, thread_name_prefix="after-record")
        try:
            return self._drive(trajectory_id, task, history, restart)
        finally:
            self._after_record_pool.shutdown(wait=True)
            self._after_record_pool = None
            self._files.shutdown(wait=True)

    def _drive(self, trajectory_id: int, task: Task, history: list[PastStep], restart: bool) -> RunResult:
        try:
            return self._on_phone(trajectory_id, task, history, restart)
        except BaseException as error:  # a bug, a full disk, a second Ctrl+C: the run is interrupted, not collecting
            why = unwritten.reason(error, self.workspace.data_dir)
            if why is None:
                self._leave_interrupted(trajectory_id, error)
                raise
            unwritten.mark_interrupted(self.workspace.database, trajectory_id, why)
            steps = len(history)  # the steps stored before the write that failed: they stay
            return RunResult(trajectory_id, TrajectoryStatus.INTERRUPTED, None, steps, StopKind.NOT_WRITTEN, why)

    def _on_phone(self, trajectory_id: int, task: Task, history: list[PastStep], restart: bool) -> RunResult:
        try:
            with self.device.session():
                if restart and self.settings.reset_phone and not reset_to_start(self.device):
                    log.info("%s has no start state to go back to: the run starts from its screen", self.device.serial)
                if restart and self.settings.restart_app and task.app in self.packages:
                    self.device.stop_app(self.packages[task.app])
                    self.device.start_app(self.packages[task.app])
                return self._loop(trajectory_id, task, history)
        except DeviceGone as error:
            return self._finish(trajectory_id, StopKind.PHONE_GONE, None, f"phone gone: {error}", history)
        except DeviceError as error:
            return self._finish(trajectory_id, StopKind.PHONE_ERROR, None, f"phone error: {error}", history)
        except UnreadableScreenshot as error:
            return self._finish(trajectory_id, StopKind.PHONE_ERROR, None, str(error), history)

    def _leave_interrupted(self, trajectory_id: int, error: BaseException) -> None:
        reason = "aborted by the user" if isinstance(error, KeyboardInterrupt) else f"stopped by an error: {error!r}"
        unwritten.mark_interrupted(self.workspace.database, trajectory_id, reason)

    def _loop(self, trajectory_id: int, task: Task, history: list[PastStep]) -> RunResult:
        while len(history) < self.settings.max_steps:
            if self.stop.is_set():
                return self._finish(trajectory_id, StopKind.STOPPED, None, "stopped by the user", history)
            started, cpu = time.perf_counter(), StepCpu(time.thread_time())
            observation = self.device.observe(
                settle_timeout_s=self.settings.settle_timeout_s, on_screenshot=preparer(self.decider)
            )
            cpu.phone += time.thread_time() - cpu.started
            # The step's files are written (and synced) while the model decides, not after it on the step's time.
            files = self._files.submit(self._store_files, observation)
            context = StepContext(task.text, task.app, len(history), observation, tuple(history))
            try:
                decision = self.decider.decide(context)
            except DecisionUnavailable as error:
                files.result()
                self._forget_files(observation)  # no step will point at them
                return self._finish(trajectory_id, StopKind.DECIDER_FAILED, None, f"decider: {error}", history)
            acting = time.thread_time()
            act_ms, action_error = self._act(decision.action)
            cpu.phone += time.thread_time() - acting
            files.result()
            self._record(trajectory_id, observation, decision, act_ms, action_error, (started, cpu))
            history.append(PastStep(decision.think, decision.action_text, _tool_call(decision.action), observation.png))
            if decision.action is None:
                failure = decision.failure or "no action"
                return self._finish(trajectory_id, StopKind.NO_ACTION, Outcome.FAILURE, failure, history)
            if isinstance(decision.action, act.Terminate):
                outcome = Outcome(decision.action.status)
                return self._finish(trajectory_id, StopKind.TERMINATED, outcome, "terminate", history)
        limit = f"step limit {self.settings.max_steps} reached"
        return self._finish(trajectory_id, StopKind.STEP_LIMIT, Outcome.FAILURE, limit, history)

    def _act(self, action: act.Action | None) -> tuple[float, str | None]:
        """Do the action; an action the phone refused is recorded on the step, and the run goes on."""
        started = time.perf_counter()
        error = None
        try:
            if action is not None and not isinstance(action, act.Terminate):
                self.device.perform(action, packages=self.packages)
        except ActionFailed as failure:
            error = str(failure)
        except DeviceGone:
            raise
        except DeviceError as failure:
            error = str(failure)
        return (time.perf_counter() - started) * 1000, error

    def _record(
        self,
        trajectory_id: int,
        observation: DeviceObservation,
        decision: Decision,
        act_ms: float,
        action_error: str | None,
        began: tuple[float, StepCpu],
    ) -> None:
        record_started = time.perf_counter()
        timings = {f"observe_{k}": round(v, 1) for k, v in observation.timings_ms.items()}
        timings |= {
            "decide": round(decision.decide_ms, 1),
            "model": round(decision.model_ms, 1),
            "act": round(act_ms, 1),
        }
        flags: dict[str, Any] = {"black_frame": observation.black, "settled": observation.settled}
        if action_error:
            flags["action_error"] = action_error
        tool_call = _tool_call(decision.action)
        step = collection.Observation(
            screenshot_png=observation.png,
            tool_call=tool_call,
            hierarchy_xml=observation.hierarchy_xml.encode() if observation.hierarchy_xml else None,
            hierarchy_error=observation.hierarchy_error,
            package=observation.package,
            activity=observation.activity,
            rotation=observation.rotation,
            model_reply=decision.model_reply,
            timings_ms=timings,
            usage=decision.usage,
            attempts=decision.attempts or None,
            flags=flags,
            suggested_box=hierarchy_box(observation.hierarchy_xml, tool_call),
        )
        asked = time.perf_counter()
        try:
            with self._turn:
                waited_ms = (time.perf_counter() - asked) * 1000  # for the other phones' writes
                collection.record_step(self.workspace.database, self.workspace.blobs, trajectory_id, step)
        except ValueError as error:  # the phone sent bytes that are not an image: nothing to keep
            self._forget_files(observation)
            raise UnreadableScreenshot(f"phone error: {error}") from error
        except BaseException:  # a full disk: the step's files were written before its row, which did not come
            self._forget_files(observation)
            raise
        if self.after_record is not None and self._after_record_pool is not None:
            screen = ScreenSize(observation.width, observation.height)
            self._after_record_pool.submit(self.after_record, observation.png, screen)
        timings["record"] = round((time.perf_counter() - record_started) * 1000, 1)
        timings["record_wait"] = round(waited_ms, 1)
        started, cpu = began
        timings["total"] = round((time.perf_counter() - started) * 1000, 1)
        timings["cpu_app"] = round((time.thread_time() - cpu.started - cpu.phone) * 1000, 1)
        self.timings.append(timings)
        note = action_error or decision.failure or ""
        index = len(self.timings) - 1
        self.on_step(StepEvent(trajectory_id, index, _summary(decision.action), timings, note))

    def _store_files(self, observation: DeviceObservation) -> None:
        """The step's files, before its write transaction: that then holds the database's write lock (which every
        other phone of a parallel collection waits on) for the rows only, not for writing and syncing files.
        Blobs are content-addressed: the transaction finds the file there (or writes it, should a clean-up have
        removed it meanwhile)."""
        if png_header_size(observation.png) is not None:  # bytes that are no PNG are refused when recorded, not kept
            self.workspace.blobs.put_bytes(observation.png)
        if observation.hierarchy_xml:
            self.workspace.blobs.put_bytes(observation.hierarchy_xml.encode())

    def _forget_files(self, observation: DeviceObservation) -> None:
        """Remove the files `_store_files` wrote for a step that was not recorded, unless a row points at them (the
        same screen stored before): `annotator db check` then finds nothing left over."""
        written = [observation.png] + ([observation.hierarchy_xml.encode()] if observation.hierarchy_xml else [])
        hashes = [hashlib.sha256(data).hexdigest() for data in written]
        integrity.remove_written_blobs(self.workspace.database, self.workspace.blobs, hashes)

    def _keep_final_screen(self, trajectory_id: int) -> str:
        """Observe the phone once more and keep the screen; what to add to the stop reason when that fails."""
        try:
            png = self.device.observe(settle_timeout_s=self.settings.settle_timeout_s).png
            if png_header_size(png) is not None:  # outside the write, as a step's screenshot
                self.workspace.blobs.put_bytes(png)
            with self._turn:
                collection.record_final_screen(self.workspace.database, self.workspace.blobs, trajectory_id, png)
        except (DeviceError, ValueError) as error:
            log.warning("trajectory %s: the final screen was not kept: %s", trajectory_id, error)
            return f" (the final screen could not be kept: {error})"
        return ""

    def _finish(
        self, trajectory_id: int, stop: StopKind, outcome: Outcome | None, reason: str, history: list[PastStep]
    ) -> RunResult:
        """Record how the run ended: complete when the task ended, interrupted (to resume) otherwise; and the
        screen after the last action when the run stopped without terminating."""
        if stop in AFTER_LAST_ACTION and history:
            reason += self._keep_final_screen(trajectory_id)
        ended = stop in (StopKind.TERMINATED, StopKind.NO_ACTION, StopKind.STEP_LIMIT)
        status = TrajectoryStatus.COMPLETE if ended else TrajectoryStatus.INTERRUPTED
        with self._turn:
            collection.finish_trajectory(self.workspace.database, trajectory_id, status, outcome, stop_reason=reason)
        return RunResult(trajectory_id, status, outcome, len(history), stop, reason, self.timings)


# Stops after an action was done and before the screen it led to was recorded. A terminate is no action; a run
# with no usable action recorded the screen it stopped on; a lost phone shows nothing more.
AFTER_LAST_ACTION = (StopKind.STEP_LIMIT, StopKind.STOPPED, StopKind.DECIDER_FAILED, StopKind.PHONE_ERROR)


def collector_for(
    decider: Decider, *, person: str | None, model: str | None, endpoint: str | None
) -> collection.Collector:
    if decider.kind == "agent":
        return collection.Collector(CollectorKind.AGENT, agent_model=model, agent_endpoint=endpoint)
    return collection.Collector(CollectorKind.HUMAN, person=person)
