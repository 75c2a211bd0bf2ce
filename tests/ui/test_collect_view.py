"""The Collect view on the virtual phone over real adb: teleoperation through the live screen, agent runs with
the scripted endpoint, stopping, and a phone that disappears mid-session."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import all_instructions, instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.domain import actions as act
from annotator.domain.trajectory import Outcome, TrajectoryStatus
from annotator.services.live_collect import PhoneListing
from annotator.storage import models
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.collect import CollectView
from annotator.ui.collect.forms import TaskForm
from annotator.ui.collect.panel import DevicePanel
from annotator.ui.collect.screen import LONG_PRESS_MS, PhoneScreen
from annotator.ui.workers import Jobs

pytestmark = pytest.mark.slow

SETTINGS_ICON = (540, 600, 810, 860)  # the 设置 icon on the virtual phone's home screen, device pixels
RUN_TIMEOUT_MS = 20_000


@pytest.fixture
def view(qtbot: QtBot, qapp: AnnotatorApp, workspace: Workspace) -> Iterator[CollectView]:
    jobs = Jobs()
    shown = CollectView(jobs)  # not qtbot.addWidget: it would delete the view before the teardown below
    shown.resize(1280, 820)
    shown.show()
    shown.set_workspace(workspace)
    shown.messages = []  # type: ignore[attr-defined]
    shown.status_message.connect(shown.messages.append)  # type: ignore[attr-defined]
    jobs.failed.connect(lambda title, message: shown.messages.append(f"{title}: {message}"))  # type: ignore[attr-defined]
    yield shown
    shown.set_workspace(None)  # ends a session and stops the view's own phone and endpoint
    qtbot.waitUntil(lambda: not jobs.busy(), timeout=10_000)
    jobs.wait(10_000)
    shown.close()
    shown.deleteLater()


def choose_phone_on(qtbot: QtBot, view: CollectView, port: int) -> None:
    """Point the device list at an adb server (as for `annotator virtual-phone serve`) and take its phone."""
    view.panel.port.setValue(port)
    view.refresh_devices()
    qtbot.waitUntil(
        lambda: view.phone is not None and view.phone_screen.image is not None and view.phone_screen.accepting
    )


def write_instruction(view: CollectView, app: str, text: str) -> None:
    view.task.app.setEditText(app)
    view.task.instruction.setEditText(text)


def widget_point(view: CollectView, x: float, y: float) -> QPoint:
    return view.phone_screen.to_widget(x, y).toPoint()


def wait_for_screen(qtbot: QtBot, view: CollectView, steps: int) -> None:
    """Until `steps` steps are listed and the phone's next screen is shown, ready for the next gesture."""
    qtbot.waitUntil(lambda: view.steps.count() == steps and view.phone_screen.accepting, timeout=RUN_TIMEOUT_MS)


def tap(qtbot: QtBot, view: CollectView, x: float, y: float) -> None:
    point = widget_point(view, x, y)
    qtbot.mousePress(view.phone_screen, Qt.MouseButton.LeftButton, pos=point)
    qtbot.mouseRelease(view.phone_screen, Qt.MouseButton.LeftButton, pos=point)


def drag(qtbot: QtBot, view: CollectView, start: tuple[float, float], end: tuple[float, float]) -> None:
    begin, finish = widget_point(view, *start), widget_point(view, *end)
    qtbot.mousePress(view.phone_screen, Qt.MouseButton.LeftButton, pos=begin)
    qtbot.mouseMove(view.phone_screen, pos=(begin + finish) / 2)
    qtbot.mouseRelease(view.phone_screen, Qt.MouseButton.LeftButton, pos=finish)


def near(point: list[float], expected: tuple[float, float], tolerance: float = 6) -> bool:
    return abs(point[0] - expected[0]) <= tolerance and abs(point[1] - expected[1]) <= tolerance


def stored(workspace: Workspace, trajectory_id: int) -> dict[str, Any]:
    """How the trajectory is saved: status, outcome, end time, who collected it and for which instruction."""
    with workspace.database.session() as session:
        row = session.get(models.Trajectory, trajectory_id)
        assert row is not None
        return {
            "status": row.status,
            "outcome": row.outcome,
            "ended_at": row.ended_at,
            "person": row.collector_person.name if row.collector_person else None,
            "instruction": row.instruction.text,
        }


def test_teleoperating_the_live_screen_records_each_gesture_as_a_step(
    qtbot: QtBot, view: CollectView, workspace: Workspace, server: VirtualAdbServer, phone: VirtualPhone
) -> None:
    identity.remember("小王", "annotator")
    recorded: list[int] = []
    view.hub.changed.connect(lambda changes: recorded.extend(sorted(changes.trajectories)))
    choose_phone_on(qtbot, view, server.port)
    assert view.devices.count() == 1 and view.devices.item(0).text() == (
        f"virtual-1\nVirtual Phone · Android 14\n1080×2400 · adb port {server.port}"
    )
    write_instruction(view, "设置", "打开设置，查看关于手机")
    qtbot.mouseClick(view.record_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.session is not None and view.phone_screen.accepting)
    assert not view.record_button.isEnabled() and view.stop_button.isEnabled()

    tap(qtbot, view, 675, 730)  # the 设置 icon
    wait_for_screen(qtbot, view, 1)
    assert phone.foreground == "com.android.settings"  # the click reached the phone at the icon
    drag(qtbot, view, (540, 1800), (540, 900))  # scroll the settings list
    wait_for_screen(qtbot, view, 2)
    qtbot.mouseClick(view.controls.buttons["Back"], Qt.MouseButton.LeftButton)
    wait_for_screen(qtbot, view, 3)
    assert phone.foreground == "com.android.launcher3"
    qtbot.mouseClick(view.controls.success, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.session is None, timeout=RUN_TIMEOUT_MS)

    assert len(recorded) == 1 and view.steps.count() == 4
    assert [view.steps.item(row).text().split(" ")[0] for row in range(4)] == ["1.", "2.", "3.", "4."]
    saved = load_trajectory(workspace.database, recorded[0])
    calls = [step.raw.tool_call["arguments"] for step in saved.steps]
    assert [call["action"] for call in calls] == ["click", "swipe", "system_button", "terminate"]
    x, y = calls[0]["coordinate"]
    assert SETTINGS_ICON[0] <= x <= SETTINGS_ICON[2] and SETTINGS_ICON[1] <= y <= SETTINGS_ICON[3]
    assert near(calls[0]["coordinate"], (675, 730))  # device pixels, not the widget's
    assert near(calls[1]["coordinate"], (540, 1800)) and near(calls[1]["coordinate2"], (540, 900))
    assert calls[2]["button"] == "Back" and calls[3]["status"] == "success"
    saved_row = stored(workspace, recorded[0])
    assert (saved_row["status"], saved_row["outcome"]) == (TrajectoryStatus.COMPLETE, Outcome.SUCCESS)
    assert saved_row["person"] == "小王" and saved_row["instruction"] == "打开设置，查看关于手机"
    assert "Trajectory" in view.progress.text() and "4 step" in view.progress.text()


def test_an_agent_run_on_the_built_in_phone_lists_steps_as_they_are_recorded(
    qtbot: QtBot, view: CollectView, workspace: Workspace
) -> None:
    recorded: list[int] = []
    view.hub.changed.connect(lambda changes: recorded.extend(sorted(changes.trajectories)))
    qtbot.mouseClick(view.panel.virtual, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.phone is not None and view.phone.built_in and view.phone_screen.image is not None)
    qtbot.waitUntil(lambda: "设置" in view.task.instructions)  # the virtual phone's instructions were added
    offered = f"its {len(all_instructions())} instruction"
    assert any(offered in message for message in view.messages)  # type: ignore[attr-defined]
    qtbot.mouseClick(view.agent.demo, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.agent.url.text().startswith("http://127.0.0.1:"))
    assert view.agent.model.text() == "scripted"
    write_instruction(view, "设置", instruction_by_uid("settings-device-name").text)
    view.agent.runs.setValue(2)
    while_running: list[tuple[int, bool, str]] = []
    view.steps.model().rowsInserted.connect(
        lambda *_: while_running.append((view.steps.count(), view.session is not None, view.progress.text()))
    )
    qtbot.mouseClick(view.agent.start, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.session is None, timeout=2 * RUN_TIMEOUT_MS)

    assert len(recorded) == 2, view.messages  # type: ignore[attr-defined]
    stored = [len(load_trajectory(workspace.database, tid).steps) for tid in recorded]
    assert view.steps.count() == sum(stored) and min(stored) >= 3
    assert [count for count, _running, _text in while_running] == list(range(1, sum(stored) + 1))
    assert all(running for _count, running, _text in while_running)  # each step showed while the run went on
    assert any("run 2 of 2" in text for _count, _running, text in while_running)
    assert view.steps.item(view.steps.count() - 1).text().startswith("Run 2 · ")
    assert view.phone_screen.image is not None and view.phone_screen.image.width() == 1080


def test_stop_ends_an_agent_run_after_the_current_step_and_closes_it(
    qtbot: QtBot, view: CollectView, workspace: Workspace
) -> None:
    recorded: list[int] = []
    view.hub.changed.connect(lambda changes: recorded.extend(sorted(changes.trajectories)))
    qtbot.mouseClick(view.panel.virtual, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(view.agent.demo, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.phone is not None and bool(view.task.instructions) and bool(view.agent.url.text()))
    write_instruction(view, "设置", instruction_by_uid("settings-device-name").text)
    view.agent.runs.setValue(3)
    view.start_agent_run()
    qtbot.waitUntil(lambda: view.steps.count() >= 2, timeout=RUN_TIMEOUT_MS)
    view.stop()
    assert "Stopping after the current step" in view.progress.text()
    qtbot.waitUntil(lambda: view.session is None, timeout=RUN_TIMEOUT_MS)

    assert len(recorded) == 1  # the other two runs never started
    saved_row = stored(workspace, recorded[0])
    assert saved_row["status"] == TrajectoryStatus.INTERRUPTED and saved_row["ended_at"] is not None  # closed
    assert len(load_trajectory(workspace.database, recorded[0]).steps) == view.steps.count() >= 2


def record_two_steps_then_disconnect(qtbot: QtBot, view: CollectView, server: VirtualAdbServer) -> int:
    """A recording with two steps whose phone goes away while the person looks at it; the trajectory's id."""
    recorded: list[int] = []
    view.hub.changed.connect(lambda changes: recorded.extend(sorted(changes.trajectories)))
    choose_phone_on(qtbot, view, server.port)
    write_instruction(view, "设置", "打开设置，查看关于手机")
    view.start_recording()
    qtbot.waitUntil(lambda: view.session is not None and view.phone_screen.accepting)
    tap(qtbot, view, 675, 730)
    wait_for_screen(qtbot, view, 1)
    view.press_button("Back")
    wait_for_screen(qtbot, view, 2)
    server.close()
    tap(qtbot, view, 405, 730)
    qtbot.waitUntil(lambda: view.banner.isVisible() and view.session is None, timeout=RUN_TIMEOUT_MS)
    assert len(recorded) == 1
    return recorded[0]


def actions_of(workspace: Workspace, trajectory_id: int) -> list[str]:
    return [
        step.raw.tool_call["arguments"]["action"] for step in load_trajectory(workspace.database, trajectory_id).steps
    ]


def test_a_phone_that_disconnects_mid_recording_shows_the_banner_and_keeps_the_steps(
    qtbot: QtBot, view: CollectView, workspace: Workspace, server: VirtualAdbServer
) -> None:
    trajectory_id = record_two_steps_then_disconnect(qtbot, view, server)

    text = view.banner.message.text()
    assert "The phone virtual-1 is disconnected" in text and "so far (2 step" in text
    assert view.banner.resume.isVisible() and view.banner.close_run.isVisible()
    saved_row = stored(workspace, trajectory_id)
    assert saved_row["status"] == TrajectoryStatus.INTERRUPTED and saved_row["ended_at"] is None  # resumable
    assert actions_of(workspace, trajectory_id) == ["click", "system_button"]
    qtbot.waitUntil(lambda: view.devices.count() == 0 and view.phone is None)  # the list was read again
    qtbot.mouseClick(view.banner.close_run, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not view.banner.isVisible())
    assert stored(workspace, trajectory_id)["ended_at"] is not None


def test_after_reconnecting_the_recording_resumes_where_it_stopped(
    qtbot: QtBot, view: CollectView, workspace: Workspace, server: VirtualAdbServer, phone: VirtualPhone
) -> None:
    trajectory_id = record_two_steps_then_disconnect(qtbot, view, server)
    with VirtualAdbServer([phone]) as back:  # the same phone, reachable again (on another port)
        choose_phone_on(qtbot, view, back.port)
        qtbot.mouseClick(view.banner.resume, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: view.session is not None and view.phone_screen.accepting)
        assert not view.banner.isVisible() and view.steps.count() == 2  # the steps so far stay listed
        tap(qtbot, view, 675, 730)
        wait_for_screen(qtbot, view, 3)
        qtbot.mouseClick(view.controls.failure, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: view.session is None, timeout=RUN_TIMEOUT_MS)
    assert actions_of(workspace, trajectory_id) == ["click", "system_button", "click", "terminate"]
    saved_row = stored(workspace, trajectory_id)
    assert (saved_row["status"], saved_row["outcome"]) == (TrajectoryStatus.COMPLETE, Outcome.FAILURE)


def test_a_phone_restarted_meanwhile_is_resumed_only_when_the_person_says_so(
    qtbot: QtBot, view: CollectView, workspace: Workspace, server: VirtualAdbServer, phone: VirtualPhone
) -> None:
    choose_phone_on(qtbot, view, server.port)
    write_instruction(view, "设置", "打开设置，查看关于手机")
    view.start_recording()
    qtbot.waitUntil(lambda: view.session is not None and view.phone_screen.accepting)
    tap(qtbot, view, 675, 730)  # into 设置
    wait_for_screen(qtbot, view, 1)
    tap(qtbot, view, 540, 600)  # a row of the settings page: the run's last step acted on that page
    wait_for_screen(qtbot, view, 2)
    server.close()
    tap(qtbot, view, 405, 730)
    qtbot.waitUntil(lambda: view.banner.isVisible() and view.session is None, timeout=RUN_TIMEOUT_MS)
    phone.reset()  # restarted while it was away: it shows the home screen
    with VirtualAdbServer([phone]) as back:
        choose_phone_on(qtbot, view, back.port)
        qtbot.mouseClick(view.banner.resume, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: view.question is not None and view.question.isVisible(), timeout=RUN_TIMEOUT_MS)
        assert view.session is None and view.banner.resume.isVisible()  # nothing was done; still offered
        qtbot.mouseClick(view.question.go, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: view.session is not None and view.phone_screen.accepting)
        qtbot.mouseClick(view.controls.failure, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: view.session is None, timeout=RUN_TIMEOUT_MS)
    assert actions_of(workspace, 1) == ["click", "click", "terminate"]


def test_the_live_screen_turns_a_held_press_into_a_long_press_in_device_pixels(
    qtbot: QtBot, qapp: AnnotatorApp
) -> None:
    screen = PhoneScreen()
    qtbot.addWidget(screen)
    screen.resize(300, 700)
    screen.show()
    screenshot = QImage(1080, 2400, QImage.Format.Format_RGB32)
    screenshot.fill(0xFFFFFF)
    screen.set_image(screenshot)
    screen.set_accepting(True)
    gestures: list[act.Action] = []
    screen.gesture.connect(gestures.append)
    point = screen.to_widget(540, 1200).toPoint()
    qtbot.mousePress(screen, Qt.MouseButton.LeftButton, pos=point)
    qtbot.wait(LONG_PRESS_MS + 100)
    qtbot.mouseRelease(screen, Qt.MouseButton.LeftButton, pos=point)
    qtbot.mouseClick(screen, Qt.MouseButton.LeftButton, pos=QPoint(2, 2))  # on the margin, not the screenshot
    screen.set_accepting(False)  # nothing is taken while the phone is busy
    qtbot.mouseClick(screen, Qt.MouseButton.LeftButton, pos=point)

    assert len(gestures) == 1 and isinstance(gestures[0], act.LongPress)
    assert near(list(gestures[0].coordinate), (540, 1200)) and gestures[0].seconds >= LONG_PRESS_MS / 1000


def test_a_long_instruction_shows_its_beginning_and_all_of_it_in_the_tooltip(qtbot: QtBot, qapp: AnnotatorApp) -> None:
    long_text = "在优选商城搜索“蓝牙耳机”，按销量排序，打开“无线蓝牙耳机 降噪长续航”的商品详情，加入购物车并提交订单"
    form = TaskForm()
    qtbot.addWidget(form)
    form.resize(320, 160)
    form.show()
    form.set_instructions({"优选商城": [(1, "打开优选商城"), (2, long_text)]})
    form.instruction.setCurrentIndex(1)  # picked from the list

    line = form.instruction.lineEdit()
    assert line.text() == long_text and line.cursorPosition() == 0
    assert form.instruction.toolTip() == long_text
    form.set_instructions({"优选商城": [(2, long_text)]})  # the list reloads (a phone started): the choice stays
    assert line.text() == long_text and line.cursorPosition() == 0


def test_with_the_virtual_phone_running_the_adb_note_speaks_only_of_real_phones(
    qtbot: QtBot, qapp: AnnotatorApp
) -> None:
    panel = DevicePanel()
    qtbot.addWidget(panel)
    panel.port.setValue(5037)
    panel.show_listing(PhoneListing([], ["127.0.0.1:5037: connection refused"]))
    assert "start a virtual phone" in panel.note.text() and panel.note.isVisibleTo(panel)

    panel.show_virtual_phone(38691, starting=False)
    assert panel.note.text().startswith("Phones on USB or Wi-Fi") and "5037" in panel.note.text()
    assert "virtual phone" not in panel.note.text()
