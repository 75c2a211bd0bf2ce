"""The annotation view in the main window on a real workspace: canvas clicks, autosave, backend undo with
Ctrl+Z, verdict keys, corrected and removed steps, history and restore, invalid tool calls, the queue."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from annotator.services import review
from annotator.services.annotation import load_trajectory
from annotator.storage import models
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.annotate.view import AnnotationView
from annotator.ui.main_window import MainWindow
from tests.factories import add_trajectory, click, finish_labelling

pytestmark = pytest.mark.slow

UNLABELLED = 3  # the populated fixture's third trajectory: two steps, no labels


def stored(workspace: Workspace, step_id: int) -> dict[str, Any]:
    with workspace.database.session() as session:
        step = session.get(models.Step, step_id)
        assert step is not None
        fields = ("think", "action_text", "tool_call", "target_box", "verdict", "removed", "origin", "privacy_regions")
        return {field: getattr(step, field) for field in fields}


def revisions(workspace: Workspace, trajectory_id: int) -> list[tuple[int | None, str, Any, str | None]]:
    R = models.LabelRevision
    with workspace.database.session() as session:
        rows = session.execute(
            select(R.step_id, R.field, R.new_value, models.Person.name)
            .outerjoin(models.Person, models.Person.id == R.person_id)
            .where(R.trajectory_id == trajectory_id)
            .order_by(R.id)
        )
        return [tuple(row) for row in rows]


@pytest.fixture
def view(qtbot: QtBot, window: MainWindow) -> AnnotationView:
    identity.remember("小王", "annotator")
    annotation = window.annotate  # bound to the actions table: Ctrl+Z, 1/2/3 … reach it as in the app
    window.show_view("annotate")
    window.activateWindow()
    qtbot.waitUntil(lambda: window.isActiveWindow())
    return annotation


def open_and_wait(qtbot: QtBot, view: AnnotationView, trajectory_id: int) -> None:
    view.open_trajectory(trajectory_id)
    qtbot.waitUntil(lambda: view.is_showing(trajectory_id) and not view.jobs.busy())


def settle(qtbot: QtBot, view: AnnotationView) -> None:
    """Until typing has been saved (the pause has passed) and every job has answered."""
    qtbot.waitUntil(lambda: view.saver.idle() and not view.jobs.busy(), timeout=5000)


def trigger(window: MainWindow, action_id: str) -> None:
    action = window.menu_actions.actions[action_id]
    assert action.isEnabled(), f"{action_id} is not bound"
    action.trigger()


def test_opening_shows_the_instruction_the_steps_and_what_was_collected(qtbot: QtBot, view: AnnotationView) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    assert view.header.instruction.text() == "打开淘宝，查看我关注的店铺"
    assert "淘宝" in view.header.details.text() and "unlabelled" in view.header.details.text()
    assert view.panel.title.text() == "Step 1 of 2"
    assert view.editors.think.original.toPlainText() == "步骤 0"
    assert view.editors.think.text() == ""  # not labelled yet
    assert '"coordinate": [100, 200]' in view.editors.tool_call.original.toPlainText()
    assert not view.header.banner.isVisible()


def on_screen(view: AnnotationView, x: float, y: float) -> QPoint:
    """Where a device pixel is in the canvas's viewport."""
    return view.canvas.mapFromScene(QPointF(x, y))


def drag(qtbot: QtBot, view: AnnotationView, start: QPoint, end: QPoint) -> None:
    """A left drag on the canvas, as a hand makes it: press, move through the middle, release."""
    viewport = view.canvas.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(viewport, QPoint((start.x() + end.x()) // 2, (start.y() + end.y()) // 2))
    qtbot.mouseMove(viewport, end)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)


def test_a_click_on_the_screenshot_sets_the_tool_call_and_writes_a_revision(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    where = on_screen(view, 540, 1200)
    device = view.canvas.to_device(QPointF(where))
    expected = click(round(device.x()), round(device.y()))
    qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert abs(device.x() - 540) < 5 and abs(device.y() - 1200) < 5
    assert view.editors.tool_call.valid_call() == expected
    settle(qtbot, view)
    assert stored(populated, step_id)["tool_call"] == expected
    assert (step_id, "tool_call", expected, "小王") in revisions(populated, UNLABELLED)
    assert view.editors.tabText(2).endswith("✓")
    assert view.canvas._labelled.point == tuple(float(v) for v in expected["arguments"]["coordinate"])
    assert "review: labelling" in view.header.details.text()  # as stored: the first edit started the labelling


def test_a_corner_of_the_box_dragged_resizes_it(qtbot: QtBot, view: AnnotationView, populated: Workspace) -> None:
    """labelme's handles: the opposite corner stays, the box is not drawn again from scratch."""
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    drag(qtbot, view, on_screen(view, 100, 1000), on_screen(view, 600, 1400))
    settle(qtbot, view)
    drag(qtbot, view, on_screen(view, 600, 1400), on_screen(view, 800, 1600))  # the bottom-right handle
    settle(qtbot, view)
    x1, y1, x2, y2 = stored(populated, step_id)["target_box"]
    assert abs(x1 - 100) < 5 and abs(y1 - 1000) < 5 and abs(x2 - 800) < 5 and abs(y2 - 1600) < 5
    drag(qtbot, view, on_screen(view, 100, 1000), on_screen(view, 300, 1100))  # the top-left one
    settle(qtbot, view)
    x1, y1, x2, y2 = stored(populated, step_id)["target_box"]
    assert abs(x1 - 300) < 5 and abs(y1 - 1100) < 5 and abs(x2 - 800) < 5 and abs(y2 - 1600) < 5


def test_a_drag_draws_the_target_box_and_ctrl_click_picks_an_element(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    qtbot.waitUntil(lambda: len(view.canvas.elements()) == 1)  # the factory's hierarchy: one search box
    drag(qtbot, view, on_screen(view, 100, 1000), on_screen(view, 600, 1400))
    settle(qtbot, view)
    x1, y1, x2, y2 = stored(populated, step_id)["target_box"]
    assert abs(x1 - 100) < 5 and abs(y1 - 1000) < 5 and abs(x2 - 600) < 5 and abs(y2 - 1400) < 5

    qtbot.mouseClick(
        view.canvas.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.ControlModifier,
        on_screen(view, 300, 200),
    )
    settle(qtbot, view)
    saved = stored(populated, step_id)
    assert saved["target_box"] == [40.0, 120.0, 1040.0, 280.0] and saved["tool_call"] == click(540, 200)
    assert {r[1] for r in revisions(populated, UNLABELLED)[-2:]} == {"tool_call", "target_box"}


def test_typing_is_saved_after_a_pause_and_ctrl_z_in_the_editor_undoes_the_last_saved_change(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    think, action = view.editors.think.edit, view.editors.action_text.edit
    view.show_stage("think")
    think.insertPlainText("当前在淘宝首页，下一步点击搜索框")
    settle(qtbot, view)
    assert stored(populated, step_id)["think"] == "当前在淘宝首页，下一步点击搜索框"
    think.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(think, ", then type")
    settle(qtbot, view)
    assert stored(populated, step_id)["think"] == "当前在淘宝首页，下一步点击搜索框, then type"
    view.show_stage("action_text")
    action.insertPlainText("点击顶部的搜索框")
    settle(qtbot, view)
    assert stored(populated, step_id)["action_text"] == "点击顶部的搜索框"

    view.show_stage("think")
    assert think.hasFocus()
    qtbot.keyClick(think, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the window's Undo action
    settle(qtbot, view)
    assert stored(populated, step_id)["action_text"] is None and action.toPlainText() == ""
    qtbot.keyClick(think, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, view)
    assert think.toPlainText() == "当前在淘宝首页，下一步点击搜索框"
    assert stored(populated, step_id)["think"] == "当前在淘宝首页，下一步点击搜索框"
    qtbot.keyClick(think, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    settle(qtbot, view)
    assert stored(populated, step_id)["think"].endswith(", then type") and think.toPlainText().endswith(", then type")


def test_verdict_keys_work_on_the_canvas_and_type_digits_in_an_editor(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    view.canvas.setFocus()
    qtbot.keyClick(view.canvas, Qt.Key.Key_2)
    settle(qtbot, view)
    assert stored(populated, step_id)["verdict"] == "wrong"
    assert view.panel.verdict_buttons["wrong"].isChecked()
    view.show_stage("action_text")
    qtbot.keyClicks(view.editors.action_text.edit, "3")
    settle(qtbot, view)
    assert stored(populated, step_id)["verdict"] == "wrong" and stored(populated, step_id)["action_text"] == "3"


def test_a_corrected_step_is_inserted_after_a_wrong_one_and_a_redundant_one_removed(
    qtbot: QtBot, window: MainWindow, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    wrong, second = view.order
    view.commands.set_verdict("wrong")
    trigger(window, "annotate.insert_step")
    settle(qtbot, view)
    assert len(view.order) == 3 and view.order[0] == wrong and view.order[2] == second
    inserted = view.current_step_id()
    assert inserted == view.order[1] and view.panel.title.text() == "Step 2 of 3"
    assert "inserted" in view.panel.tags.text()
    view.canvas.point_chosen.emit(300.0, 640.0)
    settle(qtbot, view)
    assert stored(populated, inserted)["origin"] == "inserted"
    assert stored(populated, inserted)["tool_call"] == click(300, 640)

    trigger(window, "annotate.next_step")
    assert view.current_step_id() == second
    view.commands.set_verdict("redundant")
    trigger(window, "annotate.remove_step")
    settle(qtbot, view)
    assert stored(populated, second)["removed"] is True
    with populated.database.session() as session:  # the collected record stays
        count = session.scalar(select(func.count()).select_from(models.Step).where(models.Step.id == second))
    assert count == 1
    assert "left out" in view.panel.tags.text() and view.panel.remove_step.text() == "Restore Step"
    trigger(window, "annotate.remove_step")
    settle(qtbot, view)
    assert stored(populated, second)["removed"] is False


def test_the_history_lists_changes_and_restores_an_older_value(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    view.editors.think.edit.insertPlainText("第一版")
    settle(qtbot, view)
    view.editors.think.edit.setPlainText("第二版")
    settle(qtbot, view)
    history = view.panel.history
    view.commands.toggle_history()
    settle(qtbot, view)
    assert history.isVisible()
    shown = history.revisions()
    assert [(r.field, r.new, r.person) for r in shown[:2]] == [("think", "第二版", "小王"), ("think", "第一版", "小王")]
    assert history.table.topLevelItemCount() == len(shown)
    history.table.setCurrentItem(history.table.topLevelItem(1))  # the first version
    assert history.restore_button.isEnabled()
    history.restore_button.click()
    settle(qtbot, view)
    assert view.editors.think.text() == "第一版" and stored(populated, step_id)["think"] == "第一版"
    assert history.revisions()[0].new == "第一版"  # the restore is a revision too, shown at the top


def test_an_invalid_tool_call_shows_its_problem_and_is_not_saved(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    editor = view.editors.tool_call
    view.show_stage("tool_call")
    broken = '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1200, 500]}}'
    editor.json_edit.setPlainText(broken)
    qtbot.wait(700)
    settle(qtbot, view)
    assert stored(populated, step_id)["tool_call"] is None
    assert not [r for r in revisions(populated, UNLABELLED) if r[1] == "tool_call"]
    assert editor.json_edit.toPlainText() == broken
    assert "outside the 1080x2400 screen" in editor.problem_label.text()


def test_a_rejected_trajectory_shows_the_reviewers_comment(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    review.reject(populated, 1, "李审核", "第 2 步的坐标点偏了")
    open_and_wait(qtbot, view, 1)
    assert view.header.banner.isVisible()
    assert "李审核" in view.header.banner.text() and "第 2 步的坐标点偏了" in view.header.banner.text()


def test_outcome_and_submit_reach_the_database(qtbot: QtBot, view: AnnotationView, populated: Workspace) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    view.header.not_completed.click()
    settle(qtbot, view)
    assert load_trajectory(populated.database, UNLABELLED).label_outcome == "failure"
    assert view.header.not_completed.isChecked()
    finish_labelling(populated, UNLABELLED)  # every stage and verdict: ready for review
    view.commands.submit_for_review()
    settle(qtbot, view)
    assert load_trajectory(populated.database, UNLABELLED).review_status == "annotated"
    assert "awaiting review" in view.header.details.text()


def test_keep_original_fills_only_the_empty_stages(qtbot: QtBot, view: AnnotationView, populated: Workspace) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    view.editors.action_text.edit.insertPlainText("点击搜索框")
    view.commands.keep_original()
    settle(qtbot, view)
    saved = stored(populated, step_id)
    assert saved["think"] == "步骤 0" and saved["action_text"] == "点击搜索框" and saved["tool_call"] == click(100, 200)
    assert view.editors.think.text() == "步骤 0"


def test_closing_saves_typing_that_has_not_paused_yet(qtbot: QtBot, view: AnnotationView, populated: Workspace) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    view.editors.think.edit.insertPlainText("刚刚打的字")
    view.save_state()
    assert stored(populated, step_id)["think"] == "刚刚打的字"


def test_switching_steps_saves_first_and_the_newest_open_wins(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    first = view.current_step_id()
    view.editors.think.edit.insertPlainText("第一步的想法")
    view.next_step()
    assert view.editors.think.text() == ""
    view.previous_step()
    assert view.editors.think.text() == "第一步的想法"  # from the view's copy, before the save has answered
    settle(qtbot, view)
    assert stored(populated, first)["think"] == "第一步的想法"
    view.open_trajectory(1)
    view.open_trajectory(2)
    qtbot.waitUntil(lambda: view.is_showing(2) and not view.jobs.busy())
    qtbot.wait(50)
    assert view.current_trajectory() == 2 and view.header.instruction.text() == "打开抖音，关注第一个视频的作者"


def test_next_trajectory_follows_the_annotators_queue(qtbot: QtBot, view: AnnotationView, populated: Workspace) -> None:
    extra = add_trajectory(populated, "抖音", "打开抖音，搜索周杰伦", 2, seed=4, label=False)
    open_and_wait(qtbot, view, UNLABELLED)
    view.commands.next_trajectory()
    qtbot.waitUntil(lambda: view.is_showing(extra) and not view.jobs.busy())


def test_without_a_name_edits_are_refused_with_a_reason(qtbot: QtBot, window: MainWindow, populated: Workspace) -> None:
    annotation = window.annotate
    messages: list[str] = []
    annotation.status_message.connect(messages.append)
    open_and_wait(qtbot, annotation, UNLABELLED)
    annotation.commands.set_verdict("correct")
    settle(qtbot, annotation)
    assert "Say who you are first" in messages[-1]
    assert stored(populated, annotation.current_step_id())["verdict"] is None
    assert annotation.editors.think.edit.isReadOnly()
    identity.remember("小王", "annotator")  # the first-start dialog, answered late
    annotation.commands.set_verdict("correct")
    settle(qtbot, annotation)
    assert stored(populated, annotation.current_step_id())["verdict"] == "correct"
    assert not annotation.editors.think.edit.isReadOnly()
