"""Issue 29, item 4: Review's accept acts on the trajectory the reviewer has in front of them, never on a row chosen
before they opened another one in Annotate, and accepting one's own labels asks first. A real window over a real
workspace, driven with the keys a reviewer presses."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from annotator.domain.trajectory import ReviewStatus
from annotator.services.review import FIXED_NOTE
from annotator.storage import labels, models
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.main_window import MainWindow
from tests.ui.conftest import open_window, wait_loaded
from tests.ui.test_review_view import DOUYIN, TAOBAO, newest_review

pytestmark = pytest.mark.slow
CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
TAOBAO_ID, DOUYIN_ID, UNLABELLED = 1, 2, 3  # `populated`: 1 and 2 labelled by 小王 (3 and 2 steps), 3 by nobody


@pytest.fixture
def window(qtbot: QtBot, qapp: AnnotatorApp, populated: Workspace) -> MainWindow:
    """Trajectories 1 and 2 wait for review; the window shows the Review view (Ctrl+4) with its queue read."""
    for trajectory_id in (TAOBAO_ID, DOUYIN_ID):
        labels.set_review(populated.database, trajectory_id, ReviewStatus.ANNOTATED)
    opened = open_window(qtbot, qapp, populated.data_dir)
    wait_loaded(qtbot, opened)
    press(qtbot, opened, Qt.Key.Key_4, CTRL)
    assert opened.current_view() == "review"
    settle(qtbot, opened)
    return opened


def press(qtbot: QtBot, window: MainWindow, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> None:
    if QApplication.activeWindow() is not window:  # offscreen, no window manager activates it again after a dialog
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window, key, modifiers)


def settle(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.jobs.busy(), timeout=10_000)


def choose_in_review(qtbot: QtBot, window: MainWindow, trajectory_id: int) -> None:
    """A click on the trajectory's row of the waiting queue, as the reviewer chooses it."""
    table = window.review.waiting_table
    row = table.queue.row_of(trajectory_id)
    assert row is not None
    rect = table.visualRect(table.queue.index(row, table.queue.column("instruction")))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    settle(qtbot, window)
    assert window.review.preview.record is not None and window.review.preview.record.id == trajectory_id


def shown_in_review(window: MainWindow) -> int | None:
    item = window.review.waiting_table.selected_item()
    return item.trajectory_id if item else None


def reviews(workspace: Workspace) -> int:
    with workspace.database.session() as session:
        return session.scalar(select(func.count()).select_from(models.Review)) or 0


def answer_with(button: QMessageBox.StandardButton, asked: list[str]) -> Callable[[], None]:
    """The reviewer reading the question (its text kept in `asked`) and clicking `button`, once it shows."""
    tries = [0]

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            tries[0] += 1
            if tries[0] < 500:  # 10 s: a question that never comes fails the test, it does not poll forever
                QTimer.singleShot(20, answer)
            return
        asked.append(f"{box.text()}\n{box.informativeText()}")
        box.button(button).click()

    return answer


def test_the_accept_after_annotating_another_trajectory_accepts_that_one(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    """The issue's steps: 13 chosen in Review, Ctrl+R opens 5 in Annotate, Ctrl+4, Ctrl+Shift+A accepted 13."""
    identity.remember("张审核", "reviewer")
    choose_in_review(qtbot, window, DOUYIN_ID)
    press(qtbot, window, Qt.Key.Key_R, CTRL)  # the next trajectory needing review, opened in Annotate
    qtbot.waitUntil(lambda: window.annotate.is_showing(TAOBAO_ID))
    assert window.current_view() == "annotate"

    press(qtbot, window, Qt.Key.Key_4, CTRL)
    assert shown_in_review(window) == TAOBAO_ID  # at once, before the queues are read again
    settle(qtbot, window)
    assert shown_in_review(window) == TAOBAO_ID and window.review.preview.instruction.text() == TAOBAO
    press(qtbot, window, Qt.Key.Key_A, CTRL | SHIFT)
    settle(qtbot, window)
    assert newest_review(populated, TAOBAO_ID) == ("accepted", None, "张审核", "accepted")
    assert newest_review(populated, DOUYIN_ID)[3] == "annotated"  # the row chosen before is untouched
    assert shown_in_review(window) == DOUYIN_ID  # the queue moves on


def test_a_quick_accept_on_coming_back_does_not_wait_for_the_queues(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    identity.remember("张审核", "reviewer")
    choose_in_review(qtbot, window, DOUYIN_ID)
    press(qtbot, window, Qt.Key.Key_R, CTRL)
    qtbot.waitUntil(lambda: window.annotate.is_showing(TAOBAO_ID))
    press(qtbot, window, Qt.Key.Key_4, CTRL)
    press(qtbot, window, Qt.Key.Key_A, CTRL | SHIFT)  # while the queues are read again
    settle(qtbot, window)
    assert newest_review(populated, TAOBAO_ID)[3] == "accepted"
    assert newest_review(populated, DOUYIN_ID)[3] == "annotated"


def test_after_opening_work_that_waits_for_nobody_the_accept_decides_nothing(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    identity.remember("张审核", "reviewer")
    choose_in_review(qtbot, window, DOUYIN_ID)
    press(qtbot, window, Qt.Key.Key_U, CTRL)  # the next unlabelled trajectory: not in the review queue
    qtbot.waitUntil(lambda: window.annotate.is_showing(UNLABELLED))
    before = reviews(populated)
    press(qtbot, window, Qt.Key.Key_4, CTRL)
    settle(qtbot, window)
    assert shown_in_review(window) is None  # nothing chosen, rather than the row left behind
    press(qtbot, window, Qt.Key.Key_A, CTRL | SHIFT)
    settle(qtbot, window)
    assert reviews(populated) == before and newest_review(populated, DOUYIN_ID)[3] == "annotated"
    assert window.statusBar().currentMessage() == "Choose a trajectory in the queue first."


def test_accepting_steps_one_labelled_oneself_asks_first(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    """小王 labelled the 3 steps of trajectory 1 and reviews too: No leaves it waiting, Yes accepts it."""
    identity.remember("小王", "reviewer")
    choose_in_review(qtbot, window, TAOBAO_ID)
    asked: list[str] = []
    QTimer.singleShot(20, answer_with(QMessageBox.StandardButton.No, asked))
    press(qtbot, window, Qt.Key.Key_A, CTRL | SHIFT)
    qtbot.waitUntil(lambda: bool(asked))
    settle(qtbot, window)
    assert asked[0].startswith(f"You labelled 3 of the steps of “{TAOBAO}” yourself.")
    assert newest_review(populated, TAOBAO_ID)[3] == "annotated"  # No: nothing written

    QTimer.singleShot(20, answer_with(QMessageBox.StandardButton.Yes, asked))
    press(qtbot, window, Qt.Key.Key_A, CTRL | SHIFT)
    qtbot.waitUntil(lambda: len(asked) == 2)
    settle(qtbot, window)
    assert newest_review(populated, TAOBAO_ID) == ("accepted", None, "小王", "accepted")


def test_a_fix_is_the_reviewers_own_edit_and_its_accept_asks_nothing(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    identity.remember("张审核", "reviewer")
    choose_in_review(qtbot, window, DOUYIN_ID)
    press(qtbot, window, Qt.Key.Key_E, CTRL | SHIFT)  # Fix and Accept: open it in Annotate
    qtbot.waitUntil(lambda: window.annotate.is_showing(DOUYIN_ID))
    window.annotate.canvas.setFocus()
    qtbot.keyClick(window.annotate.canvas, Qt.Key.Key_2)  # the first step is wrong: a revision under 张审核
    settle(qtbot, window)
    assert labels.revisions(populated.database, DOUYIN_ID)[0].person == "张审核"  # newest first

    press(qtbot, window, Qt.Key.Key_4, CTRL)
    settle(qtbot, window)
    press(qtbot, window, Qt.Key.Key_A, CTRL | SHIFT)
    settle(qtbot, window)
    assert QApplication.activeModalWidget() is None  # no question
    assert newest_review(populated, DOUYIN_ID) == ("accepted", FIXED_NOTE, "张审核", "accepted")
    assert window.review.preview.instruction.text() == TAOBAO != DOUYIN


def test_a_trajectory_opened_inside_annotate_is_followed_too(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    """] opens the next trajectory of the person's queue inside the Annotate view, without the window."""
    identity.remember("张审核", "reviewer")
    choose_in_review(qtbot, window, DOUYIN_ID)
    press(qtbot, window, Qt.Key.Key_R, CTRL)
    qtbot.waitUntil(lambda: window.annotate.is_showing(TAOBAO_ID))
    window.annotate.canvas.setFocus()
    qtbot.keyClick(window.annotate.canvas, Qt.Key.Key_BracketRight)  # 张审核's queue: the unlabelled one
    qtbot.waitUntil(lambda: window.annotate.is_showing(UNLABELLED))
    press(qtbot, window, Qt.Key.Key_4, CTRL)
    settle(qtbot, window)
    assert shown_in_review(window) is None  # not trajectory 1, opened before it, nor 2, chosen before that
    press(qtbot, window, Qt.Key.Key_A, CTRL | SHIFT)
    settle(qtbot, window)
    assert newest_review(populated, DOUYIN_ID)[3] == "annotated" == newest_review(populated, TAOBAO_ID)[3]


def test_without_a_chosen_trajectory_the_decisions_are_greyed(qtbot: QtBot, window: MainWindow) -> None:
    """Issue 29, 9: after work on a trajectory the queue does not list, Review chooses nothing, and its Accept, Fix
    and Reject looked usable while they could only answer in words."""
    identity.remember("张审核", "reviewer")
    window.open_trajectory(3)  # unlabelled: not waiting for review
    qtbot.waitUntil(lambda: window.annotate.is_showing(3))
    press(qtbot, window, Qt.Key.Key_4, CTRL)
    settle(qtbot, window)
    bar = window.review.decision_bar
    assert shown_in_review(window) is None
    assert not bar.accept_button.isEnabled() and not bar.fix_button.isEnabled() and not bar.reject_button.isEnabled()
    choose_in_review(qtbot, window, DOUYIN_ID)
    assert bar.accept_button.isEnabled() and bar.reject_button.isEnabled()
