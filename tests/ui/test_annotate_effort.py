"""The annotator's everyday path, in the real window (issue 16): the key counts of accepting a step, fixing a
click and a whole trajectory; a moved point's stale action text (defect 5); typed tool-call JSON that is not
valid is kept, not dropped, when the annotator leaves the step (defect 6)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.main_window import MainWindow
from bench.gui_effort import COMMENTS, EffortDriver, add_effort_trajectory
from tests.factories import make_png
from tests.ui.conftest import open_window, wait_loaded
from tests.ui.test_annotate_view import stored

pytestmark = pytest.mark.slow
GOALS = {"keys_accept_step": 1, "keys_fix_click": 2, "keys_five_step_trajectory": 7}


@pytest.fixture
def effort_workspace(workspace: Workspace) -> tuple[Workspace, int]:
    return workspace, add_effort_trajectory(workspace, make_png(seed=7))


@pytest.fixture
def effort_window(qtbot: QtBot, qapp: AnnotatorApp, effort_workspace: tuple[Workspace, int]) -> MainWindow:
    identity.remember("小王", "annotator")
    window = open_window(qtbot, qapp, effort_workspace[0].data_dir)
    wait_loaded(qtbot, window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def driver(qtbot: QtBot, window: MainWindow) -> EffortDriver:
    def until(condition: Callable[[], bool]) -> None:
        qtbot.waitUntil(condition, timeout=10_000)

    return EffortDriver(window, until)


def open_effort(qtbot: QtBot, window: MainWindow, trajectory_id: int) -> EffortDriver:
    window.open_trajectory(trajectory_id)
    drive = driver(qtbot, window)
    drive.until(lambda: window.annotate.is_showing(trajectory_id))
    drive.settle()
    return drive


def step_ids(window: MainWindow) -> list[int]:
    return list(window.annotate.order)


def test_a_whole_correct_trajectory_takes_seven_keys_from_the_list_to_submitted(
    qtbot: QtBot, effort_window: MainWindow, effort_workspace: tuple[Workspace, int]
) -> None:
    workspace, trajectory_id = effort_workspace
    drive = driver(qtbot, effort_window)
    keys = drive.five_step_trajectory(trajectory_id)
    assert keys <= GOALS["keys_five_step_trajectory"]
    for step_id in step_ids(effort_window):
        saved = stored(workspace, step_id)
        assert saved["verdict"] == "correct" and saved["think"] and saved["action_text"] and saved["tool_call"]
    record = effort_window.annotate.record
    assert record is not None and record.label_outcome == "success" and record.review_status == "annotated"


def test_space_accepts_a_step_in_one_key_and_opens_the_next_one_that_needs_work(
    qtbot: QtBot, effort_window: MainWindow, effort_workspace: tuple[Workspace, int]
) -> None:
    workspace, trajectory_id = effort_workspace
    drive = open_effort(qtbot, effort_window, trajectory_id)
    first, second, third = step_ids(effort_window)[:3]
    effort_window.annotate.go_to_step(second)
    drive.press(Qt.Key.Key_Space)  # the second first: accepting opens the next step that needs work after it
    assert effort_window.annotate.current_step_id() == third
    effort_window.annotate.go_to_step(first)
    drive.settle()
    assert drive.accept_step() == GOALS["keys_accept_step"]
    assert effort_window.annotate.current_step_id() == third  # the second is done: it is passed over
    saved = stored(workspace, first)
    view = effort_window.annotate
    original = view.steps[first].original
    assert (saved["think"], saved["action_text"], saved["verdict"]) == (original.think, "点击“搜索”", "correct")
    assert saved["tool_call"] == original.tool_call

    qtbot.keyClick(view.canvas, Qt.Key.Key_A)  # A / D: previous and next step on single keys
    assert view.current_step_id() == second
    qtbot.keyClick(view.canvas, Qt.Key.Key_D)
    assert view.current_step_id() == third

    effort_window.show_view("browser")  # from another view Space changes nothing
    qtbot.keyClick(effort_window.focusWidget() or effort_window, Qt.Key.Key_Space)
    effort_window.menu_actions.actions["annotate.accept_step"].trigger()
    drive.settle()
    assert stored(workspace, third)["verdict"] is None


def test_a_fixed_click_takes_one_click_and_one_key_and_the_action_text_follows(
    qtbot: QtBot, effort_window: MainWindow, effort_workspace: tuple[Workspace, int]
) -> None:
    workspace, trajectory_id = effort_workspace
    drive = open_effort(qtbot, effort_window, trajectory_id)
    first, second = step_ids(effort_window)[:2]
    assert drive.fix_click() == (1, 1)
    assert effort_window.annotate.current_step_id() == second
    saved = stored(workspace, first)
    left, top, right, bottom = COMMENTS
    x, y = saved["tool_call"]["arguments"]["coordinate"]
    assert left <= x < right and top <= y < bottom  # the clicked pixel, on 评论
    assert (saved["action_text"], saved["verdict"]) == ("点击“评论”", "correct")


def test_a_moved_point_offers_the_action_text_of_the_new_element_and_r_takes_it(
    qtbot: QtBot, effort_window: MainWindow, effort_workspace: tuple[Workspace, int]
) -> None:
    workspace, trajectory_id = effort_workspace
    drive = open_effort(qtbot, effort_window, trajectory_id)
    view = effort_window.annotate
    first = view.current_step_id()
    drive.elements_known()
    left, top, right, bottom = COMMENTS
    drive.click_device((left + right) / 2, (top + bottom) / 2)
    editors = view.editors
    assert editors.offer.isVisible() and "点击“评论”" in editors.offer.text()
    assert "⚠" in editors.tabText(1)  # the action stage needs a look
    assert "点击“评论”" in effort_window.statusBar().currentMessage()
    assert stored(workspace, first)["action_text"] is None  # offered, not written

    drive.press(Qt.Key.Key_R)
    assert stored(workspace, first)["action_text"] == "点击“评论”"
    assert not editors.offer.isVisible() and "⚠" not in editors.tabText(1)
    assert view.current_step_id() == first  # R takes the text and stays

    drive.click_device(100, 200)  # back onto 搜索: the text names 评论 now, so 搜索 is offered
    assert "点击“搜索”" in editors.offer.text()
    editors.show_stage("action_text")
    qtbot.keyClicks(editors.action_text.edit, " ok")  # the annotator writes the text: no offer any more
    assert not editors.offer.isVisible()


def test_tool_call_json_that_is_not_valid_is_kept_when_the_annotator_leaves_the_step(
    qtbot: QtBot, effort_window: MainWindow, effort_workspace: tuple[Workspace, int]
) -> None:
    workspace, trajectory_id = effort_workspace
    drive = open_effort(qtbot, effort_window, trajectory_id)
    view = effort_window.annotate
    first = view.current_step_id()
    view.show_stage("tool_call")
    json_edit = view.editors.tool_call.json_edit
    json_edit.selectAll()
    typed = '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [5000'
    qtbot.keyClicks(json_edit, typed)
    drive.press(Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)  # next step, from inside the editor
    assert view.current_step_id() != first
    assert "not valid" in effort_window.statusBar().currentMessage()
    assert stored(workspace, first)["tool_call"] is None  # never saved
    drive.press(Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert view.current_step_id() == first
    assert json_edit.toPlainText() == typed  # as typed, with its problem shown
    assert view.editors.tool_call.problems


def test_a_model_draft_shows_dimmed_and_one_key_takes_it_with_its_origin(
    qtbot: QtBot, qapp: AnnotatorApp, workspace: Workspace
) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialog
    from sqlalchemy import select

    from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
    from annotator.storage import models
    from annotator.ui import settings as keys
    from tests.factories import add_virtual_trajectory

    trajectory_id = add_virtual_trajectory(workspace, "shop-search-earbuds", hierarchy=True)
    identity.remember("小王", "annotator")
    window = open_window(qtbot, qapp, workspace.data_dir)
    wait_loaded(qtbot, window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    drive = open_effort(qtbot, window, trajectory_id)
    view = window.annotate
    with ScriptedEndpoint() as endpoint:
        window.hub.endpoint_offered.emit(endpoint.base_url, "scripted")  # as the Collect view's demo button does

        def confirm() -> None:
            dialog = QApplication.activeModalWidget()
            assert isinstance(dialog, QDialog) and dialog.objectName() == "draft-endpoint"
            dialog.accept()

        QTimer.singleShot(0, confirm)
        window.menu_actions.actions["annotate.draft"].trigger()  # the Annotate menu's item, as the header's button
        qtbot.waitUntil(lambda: "Drafts: 6 offered" in window.statusBar().currentMessage(), timeout=30_000)
    assert keys.text("draft/endpoint") == ""  # the demo's endpoint is used, not kept: its port is gone next time
    qtbot.waitUntil(lambda: all(view.steps[i].draft is not None for i in view.order) and not view.jobs.busy())
    window.activateWindow()  # back from the dialog (the offscreen platform does not give activation back)
    qtbot.waitUntil(window.isActiveWindow)
    first, second = view.order[:2]
    view.go_to_step(second)
    draft = view.steps[second].draft
    assert draft is not None and draft.action_text in view.editors.action_text.edit.placeholderText()
    assert view.editors.action_text.text() == "" and stored(workspace, second)["action_text"] is None  # not a label

    drive.press(Qt.Key.Key_T)
    assert (stored(workspace, second)["action_text"], stored(workspace, second)["tool_call"]) == (
        draft.action_text,
        draft.tool_call,
    )
    assert view.editors.action_text.text() == draft.action_text
    view.go_to_step(first)
    drive.settle()
    drive.press(Qt.Key.Key_Space)  # accepting takes the draft too
    saved = stored(workspace, first)
    assert saved["verdict"] == "correct" and saved["think"] == view.steps[first].draft.think
    R = models.LabelRevision
    with workspace.database.session() as session:
        origins = session.execute(select(R.step_id, R.field, R.draft_id).where(R.draft_id.is_not(None))).all()
    assert {(step, field) for step, field, _ in origins} >= {(second, "action_text"), (first, "think")}


def test_tool_call_json_that_is_not_valid_is_there_again_after_the_app_is_closed(
    qtbot: QtBot, qapp: AnnotatorApp, effort_window: MainWindow, effort_workspace: tuple[Workspace, int]
) -> None:
    workspace, trajectory_id = effort_workspace
    open_effort(qtbot, effort_window, trajectory_id)
    view = effort_window.annotate
    first = view.current_step_id()
    view.show_stage("tool_call")
    typed = '{"name": "mobile_use", "arguments": {"action": "tap"'
    view.editors.tool_call.json_edit.setPlainText(typed)
    effort_window.close()  # saves the state of every view
    again = open_window(qtbot, qapp, workspace.data_dir)
    wait_loaded(qtbot, again)
    again.open_trajectory(trajectory_id)
    qtbot.waitUntil(lambda: again.annotate.is_showing(trajectory_id) and again.annotate.current_step_id() == first)
    assert again.annotate.editors.tool_call.json_edit.toPlainText() == typed


def test_space_accepts_nothing_while_the_privacy_tool_is_on(
    qtbot: QtBot, effort_window: MainWindow, effort_workspace: tuple[Workspace, int]
) -> None:
    workspace, trajectory_id = effort_workspace
    drive = open_effort(qtbot, effort_window, trajectory_id)
    view = effort_window.annotate
    first = view.current_step_id()
    drive.press(Qt.Key.Key_P)
    assert view.privacy.active
    drive.press(Qt.Key.Key_Space)
    assert view.current_step_id() == first and stored(workspace, first)["verdict"] is None
    assert "privacy tool is on" in effort_window.statusBar().currentMessage()
    drive.press(Qt.Key.Key_P)
    assert drive.accept_step() == 1 and stored(workspace, first)["verdict"] == "correct"
