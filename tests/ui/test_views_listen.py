"""Views listen instead of being wired: a write announces what it changed (annotator.ui.hub) and every view that
shows it refreshes itself. Tried on a real window over a real workspace, as an annotator and a reviewer work."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.browser.model import COLUMN_INDEX, ID_ROLE
from annotator.ui.main_window import MainWindow
from tests.factories import finish_labelling
from tests.ui.conftest import wait_loaded

pytestmark = pytest.mark.slow
UNLABELLED = 3  # the populated workspace's third trajectory


def browser_review(window: MainWindow, trajectory_id: int) -> str:
    model = window.browser.model
    row = next(r for r in range(model.rowCount()) if model.data(model.index(r, 0), ID_ROLE) == trajectory_id)
    return str(model.data(model.index(row, COLUMN_INDEX["review"])))


def settle(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.jobs.busy(), timeout=10_000)


def test_a_decision_reaches_the_annotation_view_and_the_browser_without_wiring(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    assert browser_review(window, UNLABELLED) == "unlabelled"
    identity.remember("小王", "annotator")
    window.open_trajectory(UNLABELLED)
    qtbot.waitUntil(lambda: window.annotate.is_showing(UNLABELLED))
    assert window.hub.annotating == UNLABELLED  # the annotation view is on screen with it
    window.annotate.commands.set_verdict("correct")
    settle(qtbot, window)
    finish_labelling(populated, UNLABELLED)
    window.annotate.commands.submit_for_review()
    settle(qtbot, window)
    assert window.annotate.record is not None and window.annotate.record.review_status == "annotated"

    identity.remember("张审核", "reviewer")
    window.review.accept()  # the reviewer decides by keyboard while reading the steps in the annotation view
    settle(qtbot, window)
    qtbot.waitUntil(lambda: window.annotate.record is not None and window.annotate.record.review_status == "accepted")
    assert window.annotate.header.banner.isHidden()  # reloaded: an accept shows no rejection banner

    window.show_view("browser")  # hidden while all this happened: it refreshes when it shows
    wait_loaded(qtbot, window)
    assert browser_review(window, UNLABELLED) == "accepted"
    assert window.hub.annotating is None  # another view shows: decisions act on the review queue's choice


def test_an_edit_waiting_for_a_typing_pause_is_saved_before_a_decision(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    identity.remember("张审核", "reviewer")
    window.open_trajectory(UNLABELLED)
    qtbot.waitUntil(lambda: window.annotate.is_showing(UNLABELLED))
    step_id = window.annotate.step_id
    window.annotate.edit({"think": "先点搜索框"}, now=False)  # typing: saved after a pause
    assert window.annotate.saver.unsaved(step_id, "think")
    window.hub.save_pending()  # what the review view asks before it decides
    assert not window.annotate.saver.unsaved(step_id, "think")
