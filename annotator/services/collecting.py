"""Collection use cases shared by the CLI and the GUI: pick the phone and the tasks, run, resume, close."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from annotator.collect.agent import AgentDecider
from annotator.collect.decide import Decider
from annotator.collect.resume_check import ScreenCheck, check_screen
from annotator.collect.session import CollectionRun, RunResult, Settings, StepEvent, Task, collector_for
from annotator.device.adb import DeviceInfo, adb_client, list_devices
from annotator.device.android import AndroidDevice
from annotator.device.errors import DeviceError
from annotator.domain.prompts import prompt_variant
from annotator.domain.trajectory import TrajectoryStatus
from annotator.llm.client import LLMClient, LLMConfig
from annotator.llm.decomposed import DecomposedGrounding
from annotator.services.screen_copies import copy_maker
from annotator.storage import claims, collection, instructions
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

DEFAULT_SETTINGS = Settings()
log = logging.getLogger(__name__)


class CollectError(RuntimeError):
    """Collection cannot start; the message says what to do."""


class ScreenChanged(CollectError):
    """The phone does not show the screen the run to resume stopped on (restarted, or used meanwhile); `check`
    says what differs. The app asks the person; `resume_run(..., anyway=True)` goes on from the screen shown."""

    def __init__(self, trajectory_id: int, check: ScreenCheck) -> None:
        super().__init__(f"trajectory {trajectory_id} was not resumed: {check.reason}")
        self.trajectory_id, self.check = trajectory_id, check


@dataclass(frozen=True)
class AgentEndpoint:
    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 60.0  # per try: a hung endpoint holds the phone (retries + 1) times this long, and a bit
    retries: int = 3


def choose_device(serial: str | None, port: int | None = None) -> AndroidDevice:
    """The phone to collect on: the one named, or the only one connected."""
    client = adb_client(port=port)
    try:
        devices = [info for info in list_devices(client) if info.state == "device"]
    except DeviceError as error:
        raise CollectError(f"cannot reach the adb server: {error}") from None
    serials = [info.serial for info in devices]
    if serial is None and len(serials) == 1:
        serial = serials[0]
    if serial is None or serial not in serials:
        listing = ", ".join(serials) or "none (connect one, or start `annotator virtual-phone serve`)"
        wanted = f"device {serial!r} is not connected" if serial else "several phones are connected: pass --device"
        raise CollectError(f"{wanted}; connected: {listing}")
    return AndroidDevice(client, serial)


def collection_run(workspace: Workspace, device: AndroidDevice, decider: Decider, **options: Any) -> CollectionRun:
    """A run that also makes the judge's and the default export's copies of its screenshots while the phone is
    driven (ADR 0004, 0006)."""
    return CollectionRun(workspace, device, decider, after_record=copy_maker(workspace), **options)


def remember_device(workspace: Workspace, info: DeviceInfo) -> dict[str, str]:
    """Store the phone's details; returns its app name -> package table."""
    details = {"model": info.model, "android_version": info.android_version, "density": info.density}
    details |= {"screen_width": info.width, "screen_height": info.height}
    collection.save_device(workspace.database, info.serial, details)
    return collection.device_app_packages(workspace.database, info.serial)


def tasks_for(
    workspace: Workspace,
    app: str,
    *,
    text: str | None = None,
    instruction_id: int | None = None,
    all_pending: bool = False,
    runs: int = 1,
) -> list[Task]:
    """The instructions to run: a new one from its text, one by id, or every active one still short of runs."""
    db = workspace.database
    if text is not None:
        return [Task(collection.add_instruction(db, app, text), text, app)]
    if instruction_id is not None:
        row = instructions.find_instruction(db, instruction_id)
        if row is None or row.app != app:
            raise CollectError(f"no instruction {instruction_id} for app {app!r}; see `annotator instructions list`")
        return [Task(row.id, row.text, app)]
    if not all_pending:
        raise CollectError("say what to collect: --instruction TEXT, --instruction-id N or --all-pending")
    tasks = [Task(row.id, row.text, app, shared=True) for row in instructions.pending_instructions(db, app, runs)]
    if not tasks:
        raise CollectError(f"no pending active instruction for app {app!r}")
    return tasks


def agent_decider(endpoint: AgentEndpoint, settings: Settings) -> AgentDecider:
    """The agent at `endpoint`; with `settings.decomposed_grounding`, its points refined by the same model on
    sub-images of the screen (UI-AGILE 3.4)."""
    config = LLMConfig(
        base_url=endpoint.base_url,
        model=endpoint.model,
        api_key_env=endpoint.api_key_env,
        timeout_s=endpoint.timeout_s,
        max_retries=endpoint.retries,
    )
    client = LLMClient(config)
    variant = prompt_variant(settings.prompt_variant)
    decomposed = DecomposedGrounding(client) if settings.decomposed_grounding else None
    return AgentDecider(client, history_images=settings.history_images, prompt_variant=variant, decomposed=decomposed)


def run_tasks(
    workspace: Workspace,
    device: AndroidDevice,
    decider: Decider,
    tasks: Sequence[Task],
    *,
    runs: int = 1,
    settings: Settings = DEFAULT_SETTINGS,
    person: str | None = None,
    endpoint: AgentEndpoint | None = None,
    on_step: Callable[[StepEvent], None] | None = None,
    on_run: Callable[[Task, int, RunResult], None] | None = None,
    on_skip: Callable[[Task, int, str], None] | None = None,
    stop: threading.Event | None = None,
) -> list[RunResult]:
    """Each task `runs` times, one trajectory per run; stops early when `stop` is set or the phone is gone. A run
    of a pending instruction that another process is collecting, or has done, is skipped (`on_skip` says why)."""
    packages = remember_device(workspace, device.info())
    stop = stop or threading.Event()
    collector = collector_for(
        decider,
        person=person,
        model=endpoint.model if endpoint else None,
        endpoint=endpoint.base_url if endpoint else None,
    )
    results = []
    for task in tasks:
        for number in range(1, runs + 1):
            with claimed_run(workspace, task, number) as skipped:
                if skipped is not None:
                    if on_skip:
                        on_skip(task, number, skipped)
                    continue
                run = collection_run(
                    workspace, device, decider, settings=settings, packages=packages, on_step=on_step, stop=stop
                )
                result = run.start(task, collector)
            results.append(result)
            if on_run:
                on_run(task, number, result)
            if result.status == TrajectoryStatus.INTERRUPTED:
                return results
    return results


@contextmanager
def claimed_run(workspace: Workspace, task: Task, number: int) -> Iterator[str | None]:
    """Hold the task's `number`-th run for this process while the block collects it, when the task is one other
    processes may pick too (`Task.shared`: storage.claims). Yields None to go on, or why to skip the run: another
    live process is collecting it, or it is done."""
    if not task.shared:
        yield None
        return
    attempt = claims.take_collect_run(workspace.database, task.instruction_id, number)
    if attempt.claim is None:
        yield attempt.why
        return
    if attempt.taken_over:
        log.info("run %s of instruction %s taken over: %s", number, task.instruction_id, attempt.taken_over)
    with claims.Holding(workspace.database, attempt.claim):
        yield None


def resume_run(
    workspace: Workspace,
    device: AndroidDevice,
    decider: Decider,
    trajectory_id: int,
    *,
    settings: Settings = DEFAULT_SETTINGS,
    on_step: Callable[[StepEvent], None] | None = None,
    stop: threading.Event | None = None,
    anyway: bool = False,
) -> RunResult:
    """Go on with an interrupted run from the phone's screen; ScreenChanged when that is not the screen the run
    stopped on, unless `anyway`."""
    try:
        task = Task(*collection.run_task(workspace.database, trajectory_id))
    except LookupError:
        raise CollectError(f"no trajectory {trajectory_id}") from None
    if not anyway:
        check = resume_screen_check(workspace, device, trajectory_id)
        if not check.same:
            raise ScreenChanged(trajectory_id, check)
    packages = remember_device(workspace, device.info())
    run = collection_run(workspace, device, decider, settings=settings, packages=packages, on_step=on_step, stop=stop)
    try:
        return run.resume(trajectory_id, task)
    except ValueError as error:
        raise CollectError(str(error)) from None


def resume_screen_check(workspace: Workspace, device: AndroidDevice, trajectory_id: int) -> ScreenCheck:
    """Whether the phone shows the screen the run stopped on (what the app asks before resuming)."""
    return check_screen(workspace, load_trajectory(workspace.database, trajectory_id), device.observe())


def open_run(workspace: Workspace, trajectory_id: int) -> str:
    """How a run that can be resumed or closed stopped ("process gone: ..." when its process died)."""
    try:
        return collection.open_run(workspace.database, trajectory_id).stopped
    except (ValueError, LookupError) as error:
        raise CollectError(str(error)) from None


def close_run(workspace: Workspace, trajectory_id: int) -> str:
    """Close an interrupted run, or one whose process is gone; how it had stopped."""
    try:
        return collection.close_trajectory(workspace.database, trajectory_id).stopped
    except (ValueError, LookupError) as error:
        raise CollectError(str(error)) from None
