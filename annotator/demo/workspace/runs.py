"""Collecting the demo's trajectories for real: the virtual phone on a loopback adb server, the scripted agent
behind an OpenAI-compatible endpoint, and a person's teleoperation commands.

Nothing here is a shortcut around the product: the instruction list is imported as the file
`annotator virtual-phone instructions` prints, and every run goes through `CollectionRun` and the adbutils
and openai clients, so the demo's data looks exactly like a user's (screenshots, hierarchies, model replies,
timings, the agent's mistakes).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from annotator.collect.agent import AgentDecider
from annotator.collect.decide import Decider
from annotator.collect.session import RunResult, Settings, Task
from annotator.collect.teleop import TeleopDecider, parse_command
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import all_instructions
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import MODEL, ScriptedEndpoint
from annotator.demo.phone.solver import run_solution
from annotator.demo.phone.tasks import Instruction
from annotator.device.adb import adb_client
from annotator.device.android import AndroidDevice
from annotator.domain import actions as act
from annotator.domain.trajectory import CollectorKind
from annotator.llm.client import LLMClient, LLMConfig
from annotator.services.collecting import collection_run, remember_device
from annotator.storage import collection
from annotator.storage.workspace import Workspace

APPS = ("优选商城", "趣看视频", "设置")
TELEOP_PEOPLE = ("小王", "小李")
TELEOP_APPS = ("设置", "趣看视频")
PHONE_SERIAL = "virtual-1"
# phone.reset() already shows the home screen, the start state every instruction and the scripted agent
# assume; restarting the app first would put the phone on the app's page while the agent says "desktop".
SETTINGS = Settings(restart_app=False)


@dataclass(frozen=True)
class PlannedRun:
    """One trajectory to record: the virtual phone's instruction, and who acts (None: the scripted agent)."""

    instruction: Instruction
    person: str | None = None
    gives_up: bool = False  # the person stops halfway and marks the run failed


@dataclass(frozen=True)
class CollectedRun:
    planned: PlannedRun
    result: RunResult
    task_done: bool  # the phone passes the instruction's check afterwards (the agent may claim otherwise)


def teleop_count(total: int) -> int:
    """Two teleoperated runs in any demo big enough, so both collector kinds are there."""
    return 2 if total >= 4 else (1 if total >= 2 else 0)


def plan_runs(total: int, seed: int) -> list[PlannedRun]:
    """`total` runs spread over the three apps in turn; which instructions depends only on the seed.

    An app's instructions are used in a seeded order and only repeat once all have been used (a second run
    of an instruction, as Mobile-R1 collects several runs per instruction).
    """
    rng = random.Random(f"demo-plan:{seed}")
    queues = {app: _cycle(rng.sample(_of_app(app), len(_of_app(app)))) for app in APPS}
    agent_runs = total - teleop_count(total)
    plan = [PlannedRun(next(queues[APPS[number % len(APPS)]])) for number in range(agent_runs)]
    for number in range(teleop_count(total)):  # the second person gives up: every demo has a failed run
        instruction = next(queues[TELEOP_APPS[number]])
        plan.append(PlannedRun(instruction, person=TELEOP_PEOPLE[number], gives_up=number == 1))
    return plan


def _of_app(app: str) -> list[Instruction]:
    return [item for item in all_instructions() if item.app == app]


def _cycle(items: list[Instruction]) -> Iterator[Instruction]:
    while True:
        yield from items


def command_line(action: act.Action) -> str:
    """What a person types at the teleoperation prompt for this action (`click 540 1200`, `back`, `done`)."""
    match action:
        case act.Click(coordinate=(x, y)):
            return f"click {x:g} {y:g}"
        case act.LongPress(coordinate=(x, y)):
            return f"long_press {x:g} {y:g} {action.seconds:g}"
        case act.Swipe(coordinate=(x1, y1), coordinate2=(x2, y2)):
            return f"swipe {x1:g} {y1:g} {x2:g} {y2:g}"
        case act.SystemButton(button=button):
            return button.lower()
        case act.Type(text=text) | act.Open(text=text) | act.Key(text=text):
            return f"{action.name} {text}"
        case act.Wait(time=seconds):
            return f"wait {seconds:g}"
        case act.Terminate(status=status):
            return "done" if status == "success" else "fail"
    raise TypeError(f"not a mobile_use action: {action!r}")


def teleop_commands(instruction: Instruction, gives_up: bool) -> list[str]:
    """What a person who knows the way types: the solution's moves, or its first half and then `fail`."""
    lines = [command_line(action) for _, action in run_solution(VirtualPhone(), instruction)]
    return [*lines[: max(1, (len(lines) - 1) // 2)], "fail"] if gives_up else lines


def teleop_decider(planned: PlannedRun) -> TeleopDecider:
    """The person's commands, parsed as typed, then "stop", so a run that wants more never waits forever."""
    decider = TeleopDecider()
    for line in teleop_commands(planned.instruction, planned.gives_up):
        decider.submit(parse_command(line))
    decider.submit(None)
    return decider


def collect_runs(
    workspace: Workspace,
    plan: list[PlannedRun],
    instruction_ids: dict[str, int],
    seed: int,
    say: Callable[[str], None],
) -> list[CollectedRun]:
    """Record every planned run on one virtual phone, from a fresh phone each time; servers always stop."""
    phone = VirtualPhone(serial=PHONE_SERIAL)
    collected: list[CollectedRun] = []
    with VirtualAdbServer([phone]) as server, ScriptedEndpoint(seed=seed) as endpoint:
        device = AndroidDevice(adb_client(port=server.port), phone.serial)
        packages = remember_device(workspace, device.info())
        agent = AgentDecider(LLMClient(LLMConfig(base_url=endpoint.base_url, model=MODEL)))
        for number, planned in enumerate(plan, start=1):  # each run resets the phone first (Settings.reset_phone)
            instruction = planned.instruction
            task = Task(instruction_ids[instruction.uid], instruction.text, instruction.app)
            decider: Decider = agent if planned.person is None else teleop_decider(planned)
            run = collection_run(workspace, device, decider, settings=SETTINGS, packages=packages)
            result = run.start(task, _collector(planned, endpoint.base_url))
            collected.append(CollectedRun(planned, result, instruction.check(phone)))
            say(progress_line(number, len(plan), collected[-1]))
    return collected


def _collector(planned: PlannedRun, base_url: str) -> collection.Collector:
    if planned.person is None:
        return collection.Collector(CollectorKind.AGENT, agent_model=MODEL, agent_endpoint=base_url)
    return collection.Collector(CollectorKind.HUMAN, person=planned.person)


def progress_line(number: int, total: int, run: CollectedRun) -> str:
    who = f"teleoperated by {run.planned.person}" if run.planned.person else "scripted agent"
    result = run.result
    ended = f"{result.status}, {result.outcome}" if result.outcome else str(result.status)
    done = "task done" if run.task_done else "task not done"
    return (
        f"[{number}/{total}] {run.planned.instruction.app} {run.planned.instruction.uid} ({who}): "
        f"{result.steps} steps, {ended}, {done}"
    )
