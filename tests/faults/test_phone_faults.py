"""A phone lost for real while the agent collects: its adb connection cut part way through a screenshot or a
hierarchy dump (the virtual adb server sends the start of the reply, then drops the line and the phone, as a
pulled cable does), or the phone gone for good. The trajectory is `interrupted` with the steps it had, and once
the phone is back `--resume` finishes it; a phone restarted meanwhile is noticed before resuming. On several
phones, the others take over the lost phone's work."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from annotator.cli.root import cli
from annotator.collect.session import StepEvent, StopKind, Task
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.device.android import AndroidDevice
from annotator.device.errors import DeviceGone
from annotator.domain.trajectory import Outcome, TrajectoryStatus
from annotator.services import collecting
from annotator.storage import collection, models
from annotator.storage.workspace import Workspace
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow


def task_for(workspace: Workspace, uid: str) -> Task:
    instruction = instruction_by_uid(uid)
    instruction_id = collection.add_instruction(workspace.database, instruction.app, instruction.text)
    return Task(instruction_id, instruction.text, instruction.app)


def know_apps(workspace: Workspace, phone: VirtualPhone) -> None:
    packages = {app.label: package for package, app in phone.apps.items()}
    collection.save_device(workspace.database, phone.serial, {}, app_packages=packages)


def step_indexes(workspace: Workspace, trajectory_id: int) -> list[int]:
    with workspace.database.session() as session:
        query = select(models.Step.index).where(models.Step.trajectory_id == trajectory_id).order_by(models.Step.index)
        return list(session.scalars(query))


FAULTS: dict[str, Callable[[VirtualAdbServer, str], object]] = {
    "cut mid-screenshot": lambda server, serial: server.cut_next(serial, "screencap", 20_000),
    "cut mid-dump": lambda server, serial: server.cut_next(serial, "uiautomator", 300),
    "gone for good": lambda server, serial: server.unplug(serial),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_a_phone_lost_mid_run_leaves_it_interrupted_and_resumable(
    workspace: Workspace, server: VirtualAdbServer, phone: VirtualPhone, device: AndroidDevice, fault: str
) -> None:
    know_apps(workspace, phone)
    task = task_for(workspace, "settings-zen-on")

    def lose_the_phone(event: StepEvent) -> None:
        if event.index == 0:  # the first step is recorded; the phone goes while the next one is observed
            FAULTS[fault](server, phone.serial)

    with ScriptedEndpoint(mistakes={}) as scripted:
        endpoint = collecting.AgentEndpoint(scripted.base_url, "scripted")
        decider = collecting.agent_decider(endpoint, collecting.DEFAULT_SETTINGS)
        (lost,) = collecting.run_tasks(workspace, device, decider, [task], endpoint=endpoint, on_step=lose_the_phone)
        assert (lost.status, lost.stop, lost.steps) == (TrajectoryStatus.INTERRUPTED, StopKind.PHONE_GONE, 1)
        assert "no longer reachable" in lost.stop_reason and phone.serial in lost.stop_reason
        assert step_indexes(workspace, lost.trajectory_id) == [0]
        with pytest.raises(DeviceGone):  # the phone is not back: nothing is resumed, the run stays open
            collecting.resume_run(workspace, device, decider, lost.trajectory_id)
        assert collecting.open_run(workspace, lost.trajectory_id).startswith("phone gone")

        server.plug(phone)
        resumed = collecting.resume_run(workspace, device, decider, lost.trajectory_id)
        decider.close()
    assert (resumed.trajectory_id, resumed.status, resumed.outcome) == (
        lost.trajectory_id,
        TrajectoryStatus.COMPLETE,
        Outcome.SUCCESS,
    )
    assert step_indexes(workspace, lost.trajectory_id) == list(range(resumed.steps))
    assert phone.settings["global"]["zen_mode"] == "1"


def test_a_restarted_phone_is_not_resumed_unless_asked(
    workspace: Workspace, server: VirtualAdbServer, phone: VirtualPhone, device: AndroidDevice
) -> None:
    know_apps(workspace, phone)
    task = task_for(workspace, "settings-zen-on")
    with ScriptedEndpoint(mistakes={}) as scripted:
        endpoint = collecting.AgentEndpoint(scripted.base_url, "scripted")
        decider = collecting.agent_decider(endpoint, collecting.DEFAULT_SETTINGS)

        def lose(event: StepEvent) -> None:
            if event.index == 1:
                server.unplug(phone.serial)

        (lost,) = collecting.run_tasks(workspace, device, decider, [task], endpoint=endpoint, on_step=lose)
        server.plug(phone)
        phone.reset()  # restarted: the home screen, the settings app closed
        with pytest.raises(collecting.ScreenChanged, match=r"the phone shows .* the last recorded step showed"):
            collecting.resume_run(workspace, device, decider, lost.trajectory_id)
        assert step_indexes(workspace, lost.trajectory_id) == [0, 1]  # nothing was done to it
        resumed = collecting.resume_run(workspace, device, decider, lost.trajectory_id, anyway=True)
        decider.close()
    assert resumed.status == TrajectoryStatus.COMPLETE and resumed.steps > 2


def test_collect_on_three_phones_one_unplugged_halfway(tmp_path: Path, new_workspace: NewWorkspace) -> None:
    phones = [VirtualPhone(serial=f"rack-{number}") for number in (1, 2, 3)]
    uids = ["settings-zen-on", "settings-wifi-off", "settings-bluetooth-on"]
    with VirtualAdbServer(phones) as server, ScriptedEndpoint(mistakes={}) as scripted:
        with new_workspace(tmp_path) as workspace:
            for phone in phones:
                know_apps(workspace, phone)
            for uid in uids:
                task_for(workspace, uid)
        server.cut_next("rack-2", "screencap", 1000, skip=2)  # a few screens in, the cable is pulled
        environment = {"ANDROID_ADB_SERVER_PORT": str(server.port), "ANNOTATOR_DATA_DIR": str(tmp_path)}
        arguments = [
            "collect",
            "--devices",
            "all",
            "--app",
            "设置",
            "--all-pending",
            "--agent-url",
            scripted.base_url,
            "--agent-model",
            "scripted",
        ]
        result = CliRunner().invoke(cli, arguments, env=environment, catch_exceptions=False)
    # Every run was done by the phones left, and the lost phone's run is open: exit 1, so a scheduler notices.
    assert result.exit_code == 1, result.output
    assert "[rack-2] phone lost:" in result.output and "goes to the other phones" in result.output
    assert "3 runs complete on 3 phones" in result.output and "phones lost: rack-2" in result.output
    with Workspace.open(tmp_path) as workspace, workspace.database.session() as session:
        statuses = dict(
            session.execute(select(models.Trajectory.status, func.count()).group_by(models.Trajectory.status)).all()
        )
        interrupted = session.scalars(
            select(models.Device.serial).join(models.Trajectory).where(models.Trajectory.status == "interrupted")
        ).all()
    assert statuses == {"complete": 3, "interrupted": 1} and interrupted == ["rack-2"]
