"""Keys act only in the view that shows what they change (issue 16, defect 1), Find works from any view (defect 4),
the shortcut sheet says where each key acts, and submitting unfinished work says what is missing (defect 3)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from annotator.ui.annotate.view import AnnotationView
from annotator.ui.main_window import MainWindow
from annotator.ui.shortcuts import ShortcutSheet
from tests.ui.test_annotate_view import UNLABELLED, open_and_wait, revisions, settle, stored
from tests.ui.test_annotate_view import view as view  # the fixture

pytestmark = pytest.mark.slow
OTHER_VIEWS = ("collect", "browser", "review", "stats", "judge", "studies", "models", "runs")
LABEL_KEYS = (  # what would change the open step if it reached the Annotate view
    (Qt.Key.Key_1, Qt.KeyboardModifier.NoModifier),
    (Qt.Key.Key_2, Qt.KeyboardModifier.NoModifier),
    (Qt.Key.Key_3, Qt.KeyboardModifier.NoModifier),
    (Qt.Key.Key_B, Qt.KeyboardModifier.NoModifier),
    (Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier),
    (Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier),
    (Qt.Key.Key_Space, Qt.KeyboardModifier.NoModifier),  # accept the step
    (Qt.Key.Key_T, Qt.KeyboardModifier.NoModifier),  # take the model's draft
    (Qt.Key.Key_R, Qt.KeyboardModifier.NoModifier),  # take the offered action text
    (Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier),  # complete, submit
)


def test_label_keys_change_nothing_from_another_view(
    qtbot: QtBot, window: MainWindow, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    step_id, before = view.current_step_id(), revisions(populated, UNLABELLED)
    for view_id in OTHER_VIEWS:
        window.show_view(view_id)
        target = QApplication.focusWidget() or window.views[view_id]
        for key, modifiers in LABEL_KEYS:
            qtbot.keyClick(target, key, modifiers)
    settle(qtbot, view)
    assert revisions(populated, UNLABELLED) == before and stored(populated, step_id)["verdict"] is None
    assert not window.menu_actions.actions["annotate.verdict_correct"].isEnabled()  # its menu item is greyed too

    window.show_view("annotate")  # where they belong, they work
    open_and_wait(qtbot, view, UNLABELLED)  # (Return in the list opened the row it is on)
    view.go_to_step(step_id)
    view.canvas.setFocus()
    qtbot.keyClick(view.canvas, Qt.Key.Key_1)
    settle(qtbot, view)
    assert stored(populated, step_id)["verdict"] == "correct"


def test_find_from_the_annotate_view_opens_the_list_with_its_search_box(
    qtbot: QtBot, window: MainWindow, view: AnnotationView
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    view.canvas.setFocus()
    qtbot.keyClick(view.canvas, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.current_view() == "browser"
    assert QApplication.focusWidget() is window.browser.filters.search


def test_the_shortcut_sheet_says_where_each_key_acts(window: MainWindow) -> None:
    sheet = ShortcutSheet(window.menu_actions, window)
    sheet.refresh()
    where = {
        sheet.table.item(row, 0).data(Qt.ItemDataRole.UserRole): sheet.table.item(row, 2).text()
        for row in range(sheet.table.rowCount())
    }
    assert where["annotate.verdict_correct"] == where["annotate.take_box"] == "Annotate"
    assert where["collect.home"] == "Collect" and where["browser.find"] == "Everywhere"


def test_submitting_unfinished_work_lists_what_is_missing_and_submits_nothing(
    qtbot: QtBot, window: MainWindow, view: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, view, UNLABELLED)
    shown: list[str] = []

    def answer() -> None:  # the dialog as the annotator reads and closes it
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        shown.append(box.informativeText())
        box.button(QMessageBox.StandardButton.Ok).click()

    QTimer.singleShot(20, answer)
    view.canvas.setFocus()
    qtbot.keyClick(view.canvas, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: bool(shown))
    settle(qtbot, view)
    assert shown[0].splitlines()[0] == "Step 1: think, action, tool call, verdict"
    assert "The outcome (task completed or not) is not set." in shown[0]
    assert load_trajectory(populated.database, UNLABELLED).review_status == "unlabelled"
    assert "Not submitted" in window.statusBar().currentMessage()
