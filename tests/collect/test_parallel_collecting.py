"""The parallel collection service as the app's Collect grid uses it: events per phone, and its stop event."""

from __future__ import annotations

import threading
from collections import defaultdict

import pytest

from annotator.collect.session import StopKind, Task
from annotator.collect.teleop import TeleopDecider
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.domain.trajectory import TrajectoryStatus
from annotator.services import parallel_collecting as parallel
from annotator.services.collecting import AgentEndpoint, CollectError
from annotator.storage import collection
from annotator.storage.workspace import Workspace

pytestmark = pytest.mark.slow
UIDS = ("settings-zen-on", "settings-wifi-off", "settings-bluetooth-on", "settings-dark-mode")


def test_stop_ends_every_phone_after_its_step_and_each_phone_reports_in_order(workspace: Workspace) -> None:
    phones = [VirtualPhone(serial="grid-1"), VirtualPhone(serial="grid-2")]
    tasks = []
    for uid in UIDS:
        item = instruction_by_uid(uid)
        tasks.append(Task(collection.add_instruction(workspace.database, item.app, item.text), item.text, item.app))
    stop = threading.Event()
    events: dict[str, list[parallel.PhoneEvent]] = defaultdict(list)

    def seen(event: parallel.PhoneEvent) -> None:
        events[event.serial].append(event)
        if isinstance(event, parallel.StepRecorded):
            stop.set()  # the Stop button, pressed once the first step is in

    with VirtualAdbServer(phones) as server, ScriptedEndpoint(mistakes={}) as scripted:
        devices = parallel.choose_phones((), server.port)
        endpoint = AgentEndpoint(scripted.base_url, "scripted")
        result = parallel.collect_on_phones(workspace, devices, endpoint, tasks, on_event=seen, stop=stop, screens=True)
        with pytest.raises(CollectError, match="teleoperation drives one phone"):
            parallel.collect_on_phones(workspace, devices, endpoint, tasks[:1], make_decider=TeleopDecider)
    assert result.stopped and not result.all_done and "stopped by the user" in result.summary()
    assert {r.stop for r in result.results} == {StopKind.STOPPED} and len(result.results) == 2
    assert all(r.status == TrajectoryStatus.INTERRUPTED for r in result.results)  # kept, resumable
    assert [job.task.text for job in result.left] == [t.text for t in tasks[2:]]
    for serial in ("grid-1", "grid-2"):
        kinds = [type(event).__name__ for event in events[serial]]
        assert kinds[0] == "RunStarted" and kinds[-2:] == ["RunEnded", "PhoneFinished"] and "ScreenSeen" in kinds
        finished = events[serial][-1]
        assert isinstance(finished, parallel.PhoneFinished) and finished.summary.runs == 1
