"""What the GUI's Collect view needs beyond the CLI's use cases: phones on several adb servers, a virtual phone
and the scripted endpoint served by the app itself, screenshots outside a run, and runs that report every
screenshot as soon as it arrives (the live screen).

Every function here talks to a phone, a model or the database, so the GUI calls them from worker threads.
Runs go through :mod:`annotator.services.collecting` exactly as ``annotator collect`` does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from annotator.collect.decide import Decider, Decision, StepContext, preparer
from annotator.collect.session import RunResult, Settings, StepEvent, Task
from annotator.collect.teleop import TeleopDecider
from annotator.demo.phone.scripted_endpoint import MODEL, ScriptedEndpoint
from annotator.device.adb import DEFAULT_ADB_PORT, DeviceInfo, adb_client, list_devices
from annotator.device.android import AndroidDevice
from annotator.device.errors import DeviceError, DeviceGone
from annotator.device.observe import capture_png
from annotator.domain import actions as act
from annotator.domain.trajectory import InstructionStatus, TrajectoryStatus
from annotator.services import collecting
from annotator.services.instructions import import_phone_instructions, list_instructions
from annotator.storage import collection
from annotator.storage.workspace import Workspace

BUILT_IN_SERIAL = "virtual-1"
SCRIPTED_MODEL = MODEL
# The reasons CollectionRun gives when the phone, not the person or the model, ended a run.

ScreenHook = Callable[[bytes], None]
StepHook = Callable[[StepEvent, act.Action | None], None]  # a recorded step and the action it did


@dataclass(frozen=True)
class Phone:
    """A phone as the device list shows it: which adb server (on this machine) has it, and what it is."""

    info: DeviceInfo
    port: int
    built_in: bool = False  # a virtual phone served by this app (not by `annotator virtual-phone serve`)

    @property
    def serial(self) -> str:
        return self.info.serial

    @property
    def usable(self) -> bool:
        return self.info.state == "device" and self.info.error is None

    @property
    def queue(self) -> str:
        """The job queue of this phone: work on one phone runs one command at a time."""
        return f"phone:{self.serial}@{self.port}"


@dataclass(frozen=True)
class PhoneListing:
    phones: list[Phone]
    problems: list[str]  # adb servers that could not be asked (no server running is common, not an error)


def list_phones(adb_port: int, built_in_port: int | None = None) -> PhoneListing:
    """The phones of the adb server at `adb_port` and of the app's own virtual phone server, if one runs."""
    phones, problems = [], []
    servers = [(adb_port, False)] + ([(built_in_port, True)] if built_in_port and built_in_port != adb_port else [])
    for port, built_in in servers:
        try:
            infos = list_devices(adb_client(port=port, timeout_s=5))
        except DeviceError as error:
            problems.append(str(error))
            continue
        phones += [Phone(info, port, built_in) for info in infos]
    return PhoneListing(phones, problems)


def default_adb_port() -> int:
    """The port `adb` itself uses here: $ANDROID_ADB_SERVER_PORT, else 5037."""
    return int(adb_client().port or DEFAULT_ADB_PORT)


def open_device(phone: Phone) -> AndroidDevice:
    return AndroidDevice(adb_client(port=phone.port), phone.serial)


def screenshot(phone: Phone) -> bytes:
    """The phone's screen now, as PNG bytes (a quick look, without waiting for it to settle)."""
    return capture_png(open_device(phone).shell)


def perform(phone: Phone, action: act.Action) -> bytes:
    """Do one action outside a recording (nothing is stored) and return the screen afterwards."""
    if isinstance(action, act.Terminate):
        raise ValueError("terminate ends a recording; nothing is being recorded")
    device = open_device(phone)
    device.perform(action)
    return capture_png(device.shell)


def is_disconnection(error: BaseException) -> bool:
    return isinstance(error, DeviceGone)


# The app's own demo peers


class BuiltInPhone:
    """A virtual phone on a loopback adb server in this process: what `annotator virtual-phone serve` runs,
    started from the GUI so that a new user can try collecting without a phone."""

    def __init__(self, serial: str = BUILT_IN_SERIAL) -> None:
        # The demo phone's screens and apps load when one is started, not with the Collect view.
        from annotator.demo.phone.adb_server import VirtualAdbServer
        from annotator.demo.phone.phone import VirtualPhone

        self.phone = VirtualPhone(serial=serial)
        self.server = VirtualAdbServer([self.phone]).start()

    @property
    def port(self) -> int:
        return self.server.port

    def close(self) -> None:
        self.server.close()


def start_built_in_phone(workspace: Workspace | None) -> tuple[BuiltInPhone, int]:
    """Serve a virtual phone and import its instruction list (repeats are skipped); how many it offers."""
    from annotator.demo.phone.instructions import all_instructions

    built_in = BuiltInPhone()
    try:
        stored = import_phone_instructions(workspace.database) if workspace is not None else {}
        offered = sum(1 for item in all_instructions() if item.uid in stored)
    except BaseException:
        built_in.close()
        raise
    return built_in, offered


def start_scripted_endpoint() -> ScriptedEndpoint:
    """The scripted agent behind an OpenAI-compatible API on loopback (model `scripted`)."""
    return ScriptedEndpoint().start()


# Instructions


@dataclass(frozen=True)
class TaskChoice:
    """What to collect: an instruction from the list (its id), or text written in the view (stored as new)."""

    app: str
    text: str
    instruction_id: int | None = None


def active_instructions(workspace: Workspace) -> dict[str, list[tuple[int, str]]]:
    """App -> its active instructions (id, text), in the order they were added; apps sorted by name."""
    found: dict[str, list[tuple[int, str]]] = {}
    for record in list_instructions(workspace.database, status=InstructionStatus.ACTIVE.value):
        found.setdefault(record.app, []).append((record.id, record.text))
    return dict(sorted(found.items()))


def resolve_task(workspace: Workspace, choice: TaskChoice) -> Task:
    """The task to run; written text that matches an instruction of the app reuses it instead of a copy."""
    app, text = choice.app.strip(), choice.text.strip()
    if not app or not text:
        raise collecting.CollectError("choose an app and an instruction (or write one) first")
    if choice.instruction_id is not None:
        return Task(choice.instruction_id, text, app)
    same = [record.id for record in list_instructions(workspace.database, app=app) if record.text == text]
    instruction_id = same[0] if same else collection.add_instruction(workspace.database, app, text)
    return Task(instruction_id, text, app)


# Runs that report their screens


class ScreenWatch:
    """A decider that also hands every fresh screenshot to `on_screen` (through the run's `prepare` hook,
    before the decision), so the live screen shows what the person or the model acts on, and passes each
    recorded step on with the action that was decided (StepEvent has only its summary)."""

    def __init__(
        self, decider: Decider, on_screen: ScreenHook, on_step: StepHook, on_decide: Callable[[], None] | None = None
    ) -> None:
        self.decider, self.on_screen, self._on_step = decider, on_screen, on_step
        self.on_decide = on_decide or (lambda: None)
        self.kind = decider.kind
        self._prepare = preparer(decider)
        self.last_action: act.Action | None = None

    def prepare(self, png: bytes) -> None:
        if self._prepare is not None:
            self._prepare(png)
        self.on_screen(png)

    def decide(self, context: StepContext) -> Decision:
        """The decision on the settled screen (the last one `on_screen` got); `on_decide` says it is asked now."""
        self.on_decide()
        decision = self.decider.decide(context)
        self.last_action = decision.action
        return decision

    def on_step(self, event: StepEvent) -> None:
        self._on_step(event, self.last_action)

    def close(self) -> None:
        close = getattr(self.decider, "close", None)
        if close is not None:
            close()


def _close_if_stopped(workspace: Workspace, results: list[RunResult], stop: threading.Event) -> None:
    """A run the person stopped is closed as stopped; one the phone ended stays open for resuming."""
    last = results[-1] if results else None
    if last is not None and stop.is_set() and last.status == TrajectoryStatus.INTERRUPTED and not last.stop.phone_lost:
        collecting.close_run(workspace, last.trajectory_id)


def record(
    workspace: Workspace,
    phone: Phone,
    choice: TaskChoice,
    decider: TeleopDecider,
    *,
    person: str | None,
    settings: Settings,
    on_step: StepHook,
    on_screen: ScreenHook,
    on_waiting: Callable[[], None],
    stop: threading.Event,
) -> RunResult:
    """One teleoperated trajectory: the person's actions come through `decider.submit` until they terminate.

    `on_waiting` says when the run waits for the person: the screen is settled and recorded, act on it now."""
    task = resolve_task(workspace, choice)
    watched = ScreenWatch(decider, on_screen, on_step, on_waiting)
    results = collecting.run_tasks(
        workspace,
        open_device(phone),
        watched,
        [task],
        settings=settings,
        person=person,
        on_step=watched.on_step,
        stop=stop,
    )
    _close_if_stopped(workspace, results, stop)
    return results[0]


def agent_runs(
    workspace: Workspace,
    phone: Phone,
    choice: TaskChoice,
    endpoint: collecting.AgentEndpoint,
    *,
    runs: int,
    settings: Settings,
    on_step: StepHook,
    on_run: Callable[[RunResult], None],
    on_screen: ScreenHook,
    stop: threading.Event,
) -> list[RunResult]:
    """`runs` agent trajectories of one instruction, one after another; ends early when stopped or the phone is gone."""
    task = resolve_task(workspace, choice)
    watched = ScreenWatch(collecting.agent_decider(endpoint, settings), on_screen, on_step)
    try:
        results = collecting.run_tasks(
            workspace,
            open_device(phone),
            watched,
            [task],
            runs=runs,
            settings=settings,
            endpoint=endpoint,
            on_step=watched.on_step,
            on_run=lambda _task, _number, result: on_run(result),
            stop=stop,
        )
    finally:
        watched.close()
    _close_if_stopped(workspace, results, stop)
    return results


def resume(
    workspace: Workspace,
    phone: Phone,
    trajectory_id: int,
    decider: Decider,
    *,
    settings: Settings,
    on_step: StepHook,
    on_screen: ScreenHook,
    on_waiting: Callable[[], None],
    stop: threading.Event,
    anyway: bool = False,
) -> RunResult:
    """Go on with an interrupted trajectory on `phone` (reconnected, or another one showing the same screen);
    collecting.ScreenChanged when the phone shows another screen than the run's last one, unless `anyway`."""
    watched = ScreenWatch(decider, on_screen, on_step, on_waiting)
    try:
        result = collecting.resume_run(
            workspace,
            open_device(phone),
            watched,
            trajectory_id,
            settings=settings,
            on_step=watched.on_step,
            stop=stop,
            anyway=anyway,
        )
    finally:
        watched.close()
    _close_if_stopped(workspace, [result], stop)
    return result


def agent_decider(endpoint: collecting.AgentEndpoint, settings: Settings) -> Decider:
    return collecting.agent_decider(endpoint, settings)


def close_run(workspace: Workspace, trajectory_id: int) -> None:
    collecting.close_run(workspace, trajectory_id)
