"""Two people on one SQLite file: the app's save after someone else's change of the same step is refused, and the
merge dialog shows both; take theirs, keep mine and edit each store the right value, and cancel loses nothing."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from annotator.services.annotation import Editor
from annotator.storage.workspace import Workspace
from annotator.ui.annotate import unmerged
from annotator.ui.annotate.merge_dialog import MergeDialog
from annotator.ui.annotate.view import AnnotationView
from annotator.ui.main_window import MainWindow
from tests.ui.test_annotate_view import UNLABELLED, open_and_wait, settle, stored, view  # noqa: F401  (fixture)

pytestmark = pytest.mark.slow


@pytest.fixture
def annotation(request: pytest.FixtureRequest) -> AnnotationView:
    """The main window's annotation view, shown, with 小王 (an annotator) at the keyboard."""
    return request.getfixturevalue("view")


THEIRS, MINE = "他改的想法", "我的想法"


def refused_save(qtbot: QtBot, annotation: AnnotationView, populated: Workspace) -> tuple[int, MergeDialog]:
    """The annotation opens the trajectory, a second person (their own Workspace on the same file) changes step 1's
    think, then the view's person types theirs: the save is refused and the merge dialog comes up."""
    open_and_wait(qtbot, annotation, UNLABELLED)
    step_id = annotation.order[0]
    with Workspace.open(populated.data_dir) as other:
        reviewer = Editor(other, UNLABELLED, "小李", "reviewer")
        reviewer.load()
        reviewer.change(step_id, {"think": THEIRS})
    annotation.show_stage("think")
    annotation.editors.think.edit.insertPlainText(MINE)
    qtbot.waitUntil(lambda: annotation.merges.dialog is not None and annotation.merges.dialog.isVisible(), timeout=5000)
    dialog = annotation.merges.dialog
    assert dialog is not None
    return step_id, dialog


@pytest.mark.parametrize(("choice", "kept"), [("take-theirs", THEIRS), ("keep-mine", MINE), ("save-edited", "合并后")])
def test_each_choice_of_the_merge_stores_what_was_chosen(
    qtbot: QtBot, window: MainWindow, annotation: AnnotationView, populated: Workspace, choice: str, kept: str
) -> None:
    step_id, dialog = refused_save(qtbot, annotation, populated)
    assert stored(populated, step_id)["think"] == THEIRS  # refused: nothing of mine written
    assert dialog.stale.changed_by == "小李" and "小李" in dialog.prompt.text()
    assert dialog.edits["think"].toPlainText() == MINE  # the edit box starts from mine
    if choice == "save-edited":
        dialog.edits["think"].setPlainText(kept)
    qtbot.mouseClick(dialog.findChild(type(dialog.take_theirs), choice), Qt.MouseButton.LeftButton)
    settle(qtbot, annotation)
    qtbot.waitUntil(lambda: annotation.editors.think.text() == kept)
    assert stored(populated, step_id)["think"] == kept
    assert annotation.merges.dialog is None and not annotation.panel.unsaved.isVisible()
    annotation.editors.think.edit.moveCursor(QTextCursor.MoveOperation.End)
    annotation.editors.think.edit.insertPlainText("。")  # the next save goes on top of the merged version
    settle(qtbot, annotation)
    assert stored(populated, step_id)["think"] == kept + "。" and annotation.merges.dialog is None


def test_cancel_keeps_my_text_unsaved_and_the_next_change_offers_the_merge_again(
    qtbot: QtBot, window: MainWindow, annotation: AnnotationView, populated: Workspace
) -> None:
    step_id, dialog = refused_save(qtbot, annotation, populated)
    dialog.grab().save("/tmp/merge_dialog.png")
    dialog.reject()
    qtbot.waitUntil(lambda: annotation.merges.dialog is None)
    assert annotation.editors.think.text() == MINE and annotation.panel.unsaved.isVisible()
    assert annotation.saver.unsaved(step_id, "think") and stored(populated, step_id)["think"] == THEIRS
    annotation.open_trajectory(UNLABELLED)  # a reload does not overwrite what waits for the merge
    settle(qtbot, annotation)
    assert annotation.editors.think.text() == MINE
    annotation.editors.think.edit.insertPlainText("！")
    qtbot.waitUntil(lambda: annotation.merges.dialog is not None, timeout=5000)
    assert annotation.merges.dialog is not None and annotation.merges.dialog.stale.mine == {"think": MINE + "！"}
    annotation.merges.dialog.reject()
    window.close()  # the edit waiting for its merge would be lost: asked first, and the window stays
    question = window.question
    assert question is not None and question.objectName() == "close-unmerged" and question.isVisible()
    assert window.isVisible()
    qtbot.mouseClick(question.go, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.isVisible())


def test_a_stale_outcome_is_merged_too(
    qtbot: QtBot, window: MainWindow, annotation: AnnotationView, populated: Workspace
) -> None:
    open_and_wait(qtbot, annotation, UNLABELLED)
    with Workspace.open(populated.data_dir) as other:
        Editor(other, UNLABELLED, "小李", "reviewer").set_outcome("failure")
    annotation.commands.set_outcome("success")
    qtbot.waitUntil(lambda: annotation.merges.dialog is not None, timeout=5000)
    dialog = annotation.merges.dialog
    assert dialog is not None and (dialog.stale.theirs, dialog.stale.mine) == (
        {"outcome": "failure"},
        {"outcome": "success"},
    )
    qtbot.mouseClick(dialog.keep_mine, Qt.MouseButton.LeftButton)
    settle(qtbot, annotation)
    qtbot.waitUntil(lambda: annotation.record is not None and annotation.record.label_outcome == "success")
    assert Editor(populated, UNLABELLED, "小王").record().label_outcome == "success"


def test_text_waiting_for_its_merge_survives_opening_another_trajectory(
    qtbot: QtBot, window: MainWindow, annotation: AnnotationView, populated: Workspace
) -> None:
    """Issue 29, 1: a cancelled merge, then another trajectory opened (as Ctrl+U, Ctrl+R or a double click do): asked
    first; Cancel stays; going on keeps the text on disk at once (a crash keeps it too), and opening the trajectory
    again puts it back in the editor, unsaved, until the next change saves it."""
    step_id, dialog = refused_save(qtbot, annotation, populated)
    dialog.reject()
    qtbot.waitUntil(lambda: annotation.merges.dialog is None)
    data_dir = str(populated.data_dir)
    assert unmerged.kept(data_dir, UNLABELLED) == {step_id: {"think": MINE}}  # on disk before anything else
    window.open_trajectory(1)
    question = annotation.question
    assert question is not None and question.objectName() == "leave-unmerged" and question.isVisible()
    question.reject()  # Cancel: stay, the text still in its editor
    settle(qtbot, annotation)
    assert annotation.current_trajectory() == UNLABELLED and annotation.editors.think.text() == MINE
    window.open_trajectory(1)
    assert annotation.question is not None
    qtbot.mouseClick(annotation.question.go, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: annotation.is_showing(1), timeout=5000)
    assert annotation.saver.unmerged_steps() == 0 and unmerged.kept(data_dir, UNLABELLED) == {step_id: {"think": MINE}}
    window.close()  # nothing of trajectory 1 waits: no question; the kept text stays on disk
    qtbot.waitUntil(lambda: not window.isVisible())
    assert unmerged.kept(data_dir, UNLABELLED) == {step_id: {"think": MINE}}
    assert stored(populated, step_id)["think"] == THEIRS


def test_kept_text_comes_back_unsaved_when_its_trajectory_is_opened_again(
    qtbot: QtBot, window: MainWindow, annotation: AnnotationView, populated: Workspace
) -> None:
    """What a crash or another trajectory left on disk: back in the editor, marked unsaved, not sent; the next
    change saves it and forgets it."""
    open_and_wait(qtbot, annotation, UNLABELLED)
    step_id = annotation.order[0]
    open_and_wait(qtbot, annotation, 1)
    unmerged.keep(str(populated.data_dir), UNLABELLED, {step_id: {"think": MINE}})
    open_and_wait(qtbot, annotation, UNLABELLED)
    annotation.show_stage("think")
    assert annotation.step_id == step_id and annotation.editors.think.text() == MINE
    assert annotation.panel.unsaved.isVisible() and annotation.saver.unsaved(step_id, "think")
    settle(qtbot, annotation)
    assert stored(populated, step_id)["think"] is None  # not sent by itself
    annotation.editors.think.edit.moveCursor(QTextCursor.MoveOperation.End)
    annotation.editors.think.edit.insertPlainText("！")
    settle(qtbot, annotation)
    assert stored(populated, step_id)["think"] == MINE + "！"
    assert unmerged.kept(str(populated.data_dir), UNLABELLED) == {}
