"""The suggested target box in the annotation view: shown dashed from the element under the point, taken with B,
cleared with Shift+B; the keys change nothing from another view."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.storage.workspace import Workspace
from annotator.ui.annotate.view import AnnotationView
from annotator.ui.main_window import MainWindow
from tests.ui.test_annotate_view import UNLABELLED, open_and_wait, revisions, settle, stored
from tests.ui.test_annotate_view import view as view  # the fixture

pytestmark = pytest.mark.slow
SEARCH_BOX = (40.0, 120.0, 1040.0, 280.0)  # the factory's hierarchy: one clickable search box under (100, 200)


def test_b_takes_the_suggested_box_and_shift_b_says_there_is_none(
    qtbot: QtBot, window: MainWindow, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id = view.current_step_id()
    qtbot.waitUntil(lambda: view.canvas.suggested_box() == SEARCH_BOX)  # the collected click lies in it
    assert window.menu_actions.shortcut("annotate.take_box") == "B"

    window.show_view("collect")  # B from another view: nothing changes
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_B)
    window.menu_actions.actions["annotate.take_box"].trigger()  # however the command arrives
    window.menu_actions.actions["annotate.no_box"].trigger()
    settle(qtbot, view)
    assert stored(populated, step_id)["target_box"] is None

    window.show_view("annotate")
    view.canvas.setFocus()
    qtbot.keyClick(view.canvas, Qt.Key.Key_B)
    settle(qtbot, view)
    assert stored(populated, step_id)["target_box"] == list(SEARCH_BOX)
    assert revisions(populated, UNLABELLED)[-1] == (step_id, "target_box", list(SEARCH_BOX), "小王")
    assert view.canvas.suggested_box() is None and view.canvas.labelled().box == SEARCH_BOX  # the label's, solid

    qtbot.keyClick(view.canvas, Qt.Key.Key_B, Qt.KeyboardModifier.ShiftModifier)
    settle(qtbot, view)
    assert stored(populated, step_id)["target_box"] == []  # a person's "no box"
    assert view.canvas.suggested_box() is None and "no target box" in window.statusBar().currentMessage()
    qtbot.keyClick(view.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, view)
    assert stored(populated, step_id)["target_box"] == list(SEARCH_BOX)
