"""Privacy regions in the annotation view: the tool (P), drawing with the mouse, selecting, Delete, the context
menu, Ctrl+Z, and what the canvas shows; stored in device pixels as a label with revisions."""

from __future__ import annotations

import doctest

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from annotator.storage.workspace import Workspace
from annotator.ui.annotate import privacy
from annotator.ui.annotate.history import SIDES_ROLE
from annotator.ui.annotate.privacy import whole_pixels
from annotator.ui.annotate.view import AnnotationView
from annotator.ui.main_window import MainWindow
from tests.ui.test_annotate_view import UNLABELLED, drag, on_screen, open_and_wait, revisions, settle, stored, trigger
from tests.ui.test_annotate_view import view as view  # the fixture

pytestmark = pytest.mark.slow


def brightness(view: AnnotationView, x: float, y: float) -> float:
    """The mean grey level of the 15x15 viewport pixels around a device pixel, as the annotator sees it."""
    image: QImage = view.canvas.viewport().grab().toImage()
    centre = on_screen(view, x, y)
    greys = [
        image.pixelColor(centre.x() + dx, centre.y() + dy).lightnessF() for dx in range(-7, 8) for dy in range(-7, 8)
    ]
    return sum(greys) / len(greys)


def press_p(qtbot: QtBot, view: AnnotationView) -> None:
    view.canvas.setFocus()
    qtbot.keyClick(view.canvas, Qt.Key.Key_P)


def test_p_then_a_drag_marks_a_region_that_delete_removes_and_ctrl_z_brings_back(
    qtbot: QtBot, window: MainWindow, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    action = window.menu_actions.actions["annotate.privacy_tool"]
    assert window.menu_actions.shortcut("annotate.privacy_tool") == "P" and not action.isChecked()
    before = brightness(view, 500, 700)
    press_p(qtbot, view)
    assert view.canvas.privacy_tool() and action.isChecked()
    assert view.canvas_hint.text().startswith("Privacy regions: drag to mark")

    drag(qtbot, view, on_screen(view, 100, 500), on_screen(view, 900, 900))
    settle(qtbot, view)
    ((x1, y1, x2, y2),) = stored(populated, step_id)["privacy_regions"]
    assert all(float(v).is_integer() for v in (x1, y1, x2, y2))  # widened to whole pixels
    step = 1 / view.canvas.zoom() + 1  # a viewport pixel in device pixels, and the widening
    assert abs(x1 - 100) <= step and abs(y1 - 500) <= step and abs(x2 - 900) <= step and abs(y2 - 900) <= step
    assert stored(populated, step_id)["target_box"] is None  # the target box is another tool's
    assert revisions(populated, UNLABELLED)[-1] == (step_id, "privacy_regions", [[x1, y1, x2, y2]], "小王")
    assert brightness(view, 500, 700) < before - 0.25  # veiled dark on the screenshot
    assert view.canvas.selected_region() == 0  # the new region is selected: Delete takes a slip back
    view.commands.toggle_history()
    settle(qtbot, view)
    newest = view.panel.history.table.topLevelItem(0)
    assert newest.text(3) == "Privacy regions" and newest.data(4, SIDES_ROLE)[1] == f"[{x1:g}, {y1:g}, {x2:g}, {y2:g}]"

    qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=on_screen(view, 500, 1800))
    assert view.canvas.selected_region() is None and stored(populated, step_id)["tool_call"] is None  # no point set
    qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=on_screen(view, 500, 700))
    assert view.canvas.selected_region() == 0
    qtbot.keyClick(view.canvas, Qt.Key.Key_Delete)
    settle(qtbot, view)
    assert stored(populated, step_id)["privacy_regions"] is None
    assert brightness(view, 500, 700) > before - 0.05

    qtbot.keyClick(view.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, view)
    assert stored(populated, step_id)["privacy_regions"] == [[x1, y1, x2, y2]]
    assert view.canvas.privacy_regions() == ((x1, y1, x2, y2),)
    assert brightness(view, 500, 700) < before - 0.25

    press_p(qtbot, view)  # back to labelling: a drag is the target box again
    assert not view.canvas.privacy_tool() and not action.isChecked()
    drag(qtbot, view, on_screen(view, 100, 1400), on_screen(view, 600, 1600))
    settle(qtbot, view)
    assert stored(populated, step_id)["target_box"] is not None
    assert stored(populated, step_id)["privacy_regions"] == [[x1, y1, x2, y2]]


def test_a_drag_past_the_screenshot_stops_at_its_edge_and_ctrl_click_marks_an_element(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    qtbot.waitUntil(lambda: len(view.canvas.elements()) == 1)  # the factory's hierarchy: one search box
    press_p(qtbot, view)
    beside = on_screen(view, 0, 2200) - QPoint(15, 0)  # on the grey left of the screenshot
    drag(qtbot, view, on_screen(view, 700, 1900), QPoint(beside.x(), view.canvas.viewport().height() - 2))
    settle(qtbot, view)
    ((x1, _, x2, y2),) = stored(populated, step_id)["privacy_regions"]
    assert x1 == 0 and y2 == 2400 and abs(x2 - 700) <= 1 / view.canvas.zoom() + 1

    search_box = on_screen(view, 300, 200)  # the factory's one element: [40,120][1040,280]
    qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, search_box)
    settle(qtbot, view)
    saved = stored(populated, step_id)
    assert saved["privacy_regions"][1] == [40.0, 120.0, 1040.0, 280.0] and saved["tool_call"] is None


def test_the_context_menu_deletes_one_region_and_clears_the_step(
    qtbot: QtBot, window: MainWindow, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    first, second = view.order
    messages: list[str] = []
    view.status_message.connect(messages.append)
    trigger(window, "annotate.privacy_clear")
    assert messages[-1] == "Step 1 has no privacy regions."
    trigger(window, "annotate.privacy_delete")
    assert messages[-1].startswith("Select a privacy region first")
    press_p(qtbot, view)
    for top in (300, 1000, 1700):
        drag(qtbot, view, on_screen(view, 100, top), on_screen(view, 900, top + 400))
    settle(qtbot, view)
    assert len(stored(populated, first)["privacy_regions"]) == 3
    assert messages[-1] == "Marked privacy region 3 of step 1: exports hide it."

    def menu_at(x: float, y: float) -> dict[str, object]:
        where = on_screen(view, x, y)
        event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, where, view.canvas.viewport().mapToGlobal(where))
        QApplication.sendEvent(view.canvas.viewport(), event)
        menu = view.privacy.menu
        assert menu is not None
        qtbot.waitUntil(menu.isVisible)
        entries = {action.text(): action for action in menu.actions()}
        return entries

    entries = menu_at(500, 1200)  # the second region
    assert list(entries) == ["Mark Privacy Regions", "Delete Privacy Region", "Clear Privacy Regions"]
    assert view.canvas.selected_region() == 1
    entries["Delete Privacy Region"].trigger()  # type: ignore[attr-defined]
    view.privacy.menu.close()  # type: ignore[union-attr]
    settle(qtbot, view)
    remaining = stored(populated, first)["privacy_regions"]
    assert [round(top, -2) for _, top, _, _ in remaining] == [300, 1700]  # the first and the third
    assert messages[-1] == "Deleted privacy region 2 of step 1 (Ctrl+Z brings it back)."

    entries = menu_at(500, 50)  # beside the regions: no region to delete
    assert "Delete Privacy Region" not in entries
    entries["Clear Privacy Regions"].trigger()  # type: ignore[attr-defined]
    view.privacy.menu.close()  # type: ignore[union-attr]
    settle(qtbot, view)
    assert stored(populated, first)["privacy_regions"] is None
    assert messages[-1] == "Cleared 2 privacy regions of step 1 (Ctrl+Z brings them back)."
    assert view.canvas.privacy_regions() == ()

    trigger(window, "annotate.next_step")  # regions are per step, the tool stays on
    assert view.current_step_id() == second and view.canvas.privacy_tool()
    drag(qtbot, view, on_screen(view, 100, 300), on_screen(view, 900, 700))
    settle(qtbot, view)
    assert stored(populated, second)["privacy_regions"] is not None
    assert stored(populated, first)["privacy_regions"] is None
    assert view.steps[second].stages == (False, False, False)  # not one of the three stages


def test_the_privacy_tool_and_its_texts_speak_chinese(qtbot: QtBot, window: MainWindow, view: AnnotationView) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    window.language_actions["zh_CN"].trigger()
    qtbot.waitUntil(lambda: window.menu_actions.actions["annotate.privacy_tool"].text() == "标记隐私区域(&Y)")
    press_p(qtbot, view)
    assert view.canvas_hint.text().startswith("隐私区域：拖动标记")
    assert window.menu_actions.actions["annotate.privacy_delete"].text() == "删除隐私区域(&G)"
    window.language_actions["en"].trigger()
    qtbot.waitUntil(lambda: view.canvas_hint.text().startswith("Privacy regions: drag to mark"))


def test_the_canvas_only_signals_in_the_privacy_tool(qtbot: QtBot, view: AnnotationView) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    canvas = view.canvas
    canvas.set_privacy_tool(True)
    with qtbot.waitSignal(canvas.region_drawn) as drawn, qtbot.assertNotEmitted(canvas.box_drawn):
        drag(qtbot, view, on_screen(view, 800, 600), on_screen(view, 200, 400))  # up and to the left
    x1, y1, x2, y2 = drawn.args
    step = 1 / canvas.zoom()
    assert x1 < x2 and y1 < y2
    assert abs(x1 - 200) <= step and abs(y1 - 400) <= step and abs(x2 - 800) <= step and abs(y2 - 600) <= step
    canvas.set_privacy_regions([(200.0, 400.0, 800.0, 600.0)])
    with qtbot.assertNotEmitted(canvas.point_chosen):
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=on_screen(view, 500, 500))
    assert canvas.selected_region() == 0
    canvas.set_privacy_regions([(200.0, 400.0, 800.0, 600.0)])  # the same regions again: still selected
    assert canvas.selected_region() == 0
    canvas.set_privacy_regions([])
    assert canvas.selected_region() is None


def test_delete_and_p_in_a_text_field_edit_the_text_not_the_regions(
    qtbot: QtBot, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    press_p(qtbot, view)
    drag(qtbot, view, on_screen(view, 100, 500), on_screen(view, 900, 900))
    settle(qtbot, view)
    assert view.canvas.selected_region() == 0
    view.show_stage("think")
    think = view.editors.think.edit
    qtbot.keyClicks(think, "Pay")
    think.moveCursor(think.textCursor().MoveOperation.Start)
    qtbot.keyClick(think, Qt.Key.Key_Delete)
    view.show_stage("tool_call")
    line = view.editors.tool_call.text
    line.setFocus()
    line.setText("abc")
    line.setCursorPosition(0)
    qtbot.keyClick(line, Qt.Key.Key_Delete)
    settle(qtbot, view)
    assert think.toPlainText() == "ay" and line.text() == "bc"
    assert view.canvas.privacy_tool()  # "P" was typed, not the tool switched off
    assert len(stored(populated, step_id)["privacy_regions"]) == 1


def test_a_region_covers_the_whole_pixels_it_touches_and_stays_on_the_screen() -> None:
    assert doctest.testmod(privacy).attempted == 2 and doctest.testmod(privacy).failed == 0
    assert whole_pixels(900.2, 10, 1200, 30.5, 1080, 2400) == (900.0, 10.0, 1080.0, 31.0)
    assert whole_pixels(1100, 10, 1200, 30, 1080, 2400) is None  # wholly beside the screen
