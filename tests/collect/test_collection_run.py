"""The collection loop on the virtual phone over real adb, with the scripted endpoint or a chat server."""

from __future__ import annotations

import threading

import pytest
from PIL import Image
from sqlalchemy import select

from annotator.collect.agent import AgentDecider
from annotator.collect.session import CollectionRun, Settings, StopKind, Task
from annotator.collect.teleop import TeleopDecider, parse_command
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.device.adb import adb_client
from annotator.device.android import AndroidDevice
from annotator.domain.counting import Counting
from annotator.domain.geometry import ScreenSize
from annotator.domain.trajectory import CollectorKind, Outcome, TrajectoryStatus
from annotator.judge.screens import workspace_screens
from annotator.llm.client import LLMClient, LLMConfig
from annotator.services.collecting import collection_run
from annotator.services.stats import dataset_stats
from annotator.storage import collection, models
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, chat_completion

pytestmark = pytest.mark.slow

AGENT = collection.Collector(CollectorKind.AGENT, agent_model="scripted")


@pytest.fixture
def packages(phone: VirtualPhone) -> dict[str, str]:
    return {app.label: package for package, app in phone.apps.items()}


def task_for(workspace: Workspace, uid: str) -> Task:
    instruction = instruction_by_uid(uid)
    return Task(
        collection.add_instruction(workspace.database, instruction.app, instruction.text),
        instruction.text,
        instruction.app,
    )


def steps_of(workspace: Workspace, trajectory_id: int) -> list[models.Step]:
    with workspace.database.session() as session:
        query = select(models.Step).where(models.Step.trajectory_id == trajectory_id).order_by(models.Step.index)
        return list(session.scalars(query))


def trajectory(workspace: Workspace, trajectory_id: int) -> models.Trajectory:
    with workspace.database.session() as session:
        return session.get(models.Trajectory, trajectory_id)


def test_an_agent_run_records_a_complete_trajectory(
    workspace: Workspace, device: AndroidDevice, phone, packages
) -> None:
    task = task_for(workspace, "settings-device-name")
    with ScriptedEndpoint(seed=0, mistakes={}) as endpoint:
        client = LLMClient(LLMConfig(base_url=endpoint.base_url, model="scripted"))
        run = CollectionRun(workspace, device, AgentDecider(client), packages=packages)
        result = run.start(task, AGENT)
    assert (result.status, result.outcome, result.stop_reason) == (
        TrajectoryStatus.COMPLETE,
        Outcome.SUCCESS,
        "terminate",
    )
    assert phone.settings["global"]["device_name"] == "小王的手机"
    steps = steps_of(workspace, result.trajectory_id)
    assert len(steps) == result.steps == 8
    assert [step.raw_action for step in steps][:2] == ["open", "swipe"] and steps[-1].raw_action == "terminate"
    for step in steps:
        assert workspace.blobs.read_bytes(step.screenshot_sha256).startswith(b"\x89PNG")
        assert (step.screen_width, step.screen_height) == (1080, 2400)
        assert step.model_reply.startswith("<think>") and step.usage["total_tokens"] > 0
        assert step.flags["black_frame"] is False
    assert any(step.hierarchy_sha256 for step in steps) and steps[3].package == "com.android.settings"
    typed = next(step for step in steps if step.raw_action == "type")
    assert typed.raw_tool_call["arguments"]["text"] == "小王的手机"
    saved = trajectory(workspace, result.trajectory_id)
    assert saved.settings["max_steps"] == 25 and saved.settings["decider"] == "agent"
    assert dataset_stats(workspace.database, Counting.ROWS)["steps"] == 8


def test_a_phone_gone_mid_run_leaves_an_interrupted_trajectory_that_resumes(
    workspace: Workspace, phone: VirtualPhone, packages
) -> None:
    task = task_for(workspace, "settings-zen-on")
    decider = TeleopDecider()
    first_server = VirtualAdbServer([phone]).start()
    device = AndroidDevice(adb_client(port=first_server.port, timeout_s=5), phone.serial)
    decider.submit(parse_command("open 设置"))

    def unplug_after_first_step(event) -> None:  # type: ignore[no-untyped-def]
        first_server.close()

    run = CollectionRun(workspace, device, decider, packages=packages, on_step=unplug_after_first_step)
    result = run.start(task, collection.Collector(CollectorKind.HUMAN, person="小王"))
    assert result.status == TrajectoryStatus.INTERRUPTED and result.stop_reason.startswith("phone gone")
    assert result.stop == StopKind.PHONE_GONE and result.stop.phone_lost
    assert [step.raw_action for step in steps_of(workspace, result.trajectory_id)] == ["open"]
    with VirtualAdbServer([phone]) as again:
        device = AndroidDevice(adb_client(port=again.port, timeout_s=5), phone.serial)
        for line in ("back", "done"):
            decider.submit(parse_command(line))
        resumed = CollectionRun(workspace, device, decider, packages=packages).resume(result.trajectory_id, task)
    assert (resumed.status, resumed.outcome) == (TrajectoryStatus.COMPLETE, Outcome.SUCCESS)
    assert [step.raw_action for step in steps_of(workspace, result.trajectory_id)] == [
        "open",
        "system_button",
        "terminate",
    ]


def test_garbage_replies_are_kept_retried_and_end_the_run_as_failed(workspace: Workspace, device, packages) -> None:
    task = task_for(workspace, "settings-wifi-off")
    garbage = [
        Reply(body=chat_completion("我觉得应该点一下")),
        Reply(body=chat_completion("<tool_call>{oops</tool_call>")),
    ]
    good = (
        "<think>先打开设置</think><action>打开设置</action><tool_call>"
        '{"name": "mobile_use", "arguments": {"action": "open", "text": "设置"}}</tool_call>'
    )
    with ChatServer([garbage[0], Reply(body=chat_completion(good)), *garbage]) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="test-model", max_retries=0))
        result = CollectionRun(workspace, device, AgentDecider(client, reply_retries=1), packages=packages).start(
            task, AGENT
        )
    steps = steps_of(workspace, result.trajectory_id)
    assert [step.raw_action for step in steps] == ["open", None]
    assert steps[0].attempts[0]["reply"] == "我觉得应该点一下" and steps[0].attempts[0]["problems"]
    assert steps[1].model_reply == "<tool_call>{oops</tool_call>" and steps[1].raw_tool_call is None
    assert (result.status, result.outcome) == (TrajectoryStatus.COMPLETE, Outcome.FAILURE)
    assert "2 replies could not be used" in result.stop_reason and result.stop == StopKind.NO_ACTION


def test_an_api_that_is_down_interrupts_the_run(workspace: Workspace, device, packages) -> None:
    task = task_for(workspace, "settings-wifi-off")
    with ChatServer([Reply(status=503, body={"error": {"message": "overloaded"}})]) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="test-model", max_retries=0))
        result = CollectionRun(workspace, device, AgentDecider(client), packages=packages).start(task, AGENT)
    assert result.status == TrajectoryStatus.INTERRUPTED and "503" in result.stop_reason
    assert result.stop == StopKind.DECIDER_FAILED and not result.stop.phone_lost
    assert steps_of(workspace, result.trajectory_id) == []


def test_the_step_limit_and_a_stop_request_end_runs(workspace: Workspace, device, packages) -> None:
    task = task_for(workspace, "settings-wifi-off")
    decider = TeleopDecider()
    for _ in range(3):
        decider.submit(parse_command("wait 0"))
    limited = CollectionRun(workspace, device, decider, settings=Settings(max_steps=2), packages=packages).start(
        task, AGENT
    )
    assert (limited.outcome, limited.stop, limited.stop_reason) == (
        Outcome.FAILURE,
        StopKind.STEP_LIMIT,
        "step limit 2 reached",
    )
    stop = threading.Event()
    stop.set()
    stopped = CollectionRun(workspace, device, decider, packages=packages, stop=stop).start(task, AGENT)
    assert (stopped.status, stopped.stop, stopped.stop_reason) == (
        TrajectoryStatus.INTERRUPTED,
        StopKind.STOPPED,
        "stopped by the user",
    )


def test_teleop_commands_parse_with_clear_errors() -> None:
    assert parse_command("click 540 1200").to_tool_call()["arguments"] == {"action": "click", "coordinate": [540, 1200]}
    assert parse_command("type a;reboot $(id)").text == "a;reboot $(id)"
    assert (
        parse_command('{"name": "mobile_use", "arguments": {"action": "key", "text": "volume_up"}}').text == "volume_up"
    )
    assert parse_command("fail").status == "failure"
    for bad, message in [("click 1", "expected 2 numbers"), ("jump", "unknown command"), ("{oops", "not JSON")]:
        with pytest.raises(ValueError, match=message):
            parse_command(bad)


class TruncatedScreenPhone(VirtualPhone):
    """A phone whose screenshots arrive cut short, as over a flaky USB cable."""

    def screencap_png(self) -> bytes:
        return super().screencap_png()[:5000]


def test_a_truncated_screenshot_interrupts_the_run_without_recording_it(workspace: Workspace, packages) -> None:
    phone = TruncatedScreenPhone(serial="virtual-t")
    task = task_for(workspace, "settings-wifi-off")
    decider = TeleopDecider()
    decider.submit(parse_command("back"))
    with VirtualAdbServer([phone]) as server:
        device = AndroidDevice(adb_client(port=server.port, timeout_s=5), phone.serial)
        result = CollectionRun(workspace, device, decider, packages=packages).start(task, AGENT)
    assert (result.status, result.stop) == (TrajectoryStatus.INTERRUPTED, StopKind.PHONE_ERROR)
    assert "not a readable image" in result.stop_reason
    assert steps_of(workspace, result.trajectory_id) == []


class CutLargeScreenPhone(VirtualPhone):
    """Cut after the header and much of the data: too large to look black, so only recording notices."""

    def screencap_png(self) -> bytes:
        return super().screencap_png()[:80_000]


def test_a_large_truncated_screenshot_is_caught_when_recording(workspace: Workspace, packages) -> None:
    phone = CutLargeScreenPhone(serial="virtual-u")
    decider = TeleopDecider()
    decider.submit(parse_command("back"))
    with VirtualAdbServer([phone]) as server:
        device = AndroidDevice(adb_client(port=server.port, timeout_s=5), phone.serial)
        result = CollectionRun(workspace, device, decider, packages=packages).start(
            task_for(workspace, "settings-wifi-off"), AGENT
        )
    assert result.status == TrajectoryStatus.INTERRUPTED and "not a readable image" in result.stop_reason
    assert steps_of(workspace, result.trajectory_id) == []


def test_a_run_from_the_services_leaves_the_judge_copies_of_its_screenshots(
    workspace: Workspace, device: AndroidDevice, phone, packages
) -> None:
    task = task_for(workspace, "settings-device-name")
    with ScriptedEndpoint(seed=0, mistakes={}) as endpoint:
        client = LLMClient(LLMConfig(base_url=endpoint.base_url, model="scripted"))
        result = collection_run(workspace, device, AgentDecider(client), packages=packages).start(task, AGENT)
    screens = workspace_screens(workspace)
    steps = steps_of(workspace, result.trajectory_id)
    copies = [screens.path(step.screenshot_sha256, ScreenSize(461, 1024)) for step in steps]
    assert len(steps) == 8 and all(copy is not None and copy.is_file() for copy in copies)
    assert Image.open(copies[0]).size == (461, 1024)  # the size the built-in image policy shows


def test_each_new_run_starts_from_the_phones_start_state_and_a_resumed_one_does_not(
    workspace: Workspace, device: AndroidDevice, phone, packages
) -> None:
    """Issue 29, 7: a phone still showing the previous run's state (its cart, its settings) made the next run's
    replayed taps land elsewhere and a false success be stored. Each new run resets the phone where it can (the
    virtual phone's start state); `reset_phone=False` leaves it as found (online evaluation resets by itself)."""
    phone.settings["global"]["device_name"] = "上一次运行留下的"
    decider = TeleopDecider()
    decider.submit(parse_command("done"))
    result = CollectionRun(workspace, device, decider, packages=packages).start(
        task_for(workspace, "settings-wifi-off"), AGENT
    )
    assert result.status == TrajectoryStatus.COMPLETE
    assert phone.settings["global"]["device_name"] != "上一次运行留下的"  # reset before the first step
    assert trajectory(workspace, result.trajectory_id).settings["reset_phone"] is True  # the start is on record
    phone.settings["global"]["device_name"] = "上一次运行留下的"
    decider.submit(parse_command("done"))
    as_found = Settings(reset_phone=False)
    CollectionRun(workspace, device, decider, settings=as_found, packages=packages).start(
        task_for(workspace, "settings-wifi-off"), AGENT
    )
    assert phone.settings["global"]["device_name"] == "上一次运行留下的"
