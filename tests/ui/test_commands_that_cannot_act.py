"""Issue 29, 9: commands that can do nothing look it. The Annotate view's commands are greyed (menu, toolbar and
keys) without a trajectory, its header's buttons too; a workspace that is not open says how to open one."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.main_window import MainWindow
from tests.ui.conftest import open_window
from tests.ui.test_annotate_view import UNLABELLED

EDITING = (
    "annotate.accept_step",
    "annotate.verdict_correct",
    "annotate.privacy_tool",
    "annotate.submit",
    "annotate.draft",
    "annotate.take_box",
)
VIEWING = ("annotate.next_step", "annotate.previous_step", "annotate.zoom_in")


def enabled(window: MainWindow, *ids: str) -> list[bool]:
    return [window.menu_actions.actions[action_id].isEnabled() for action_id in ids]


def test_without_a_trajectory_the_annotate_commands_are_greyed(qtbot: QtBot, window: MainWindow) -> None:
    identity.remember("小王", "annotator")
    window.show_view("annotate")
    header = window.annotate.header
    assert not any(enabled(window, *EDITING, *VIEWING))
    assert not header.submit.isEnabled() and not header.draft.isEnabled()
    assert enabled(window, "annotate.next_trajectory") == [True]  # the queue needs a workspace only
    window.open_trajectory(UNLABELLED)
    qtbot.waitUntil(lambda: window.annotate.is_showing(UNLABELLED))
    assert all(enabled(window, *EDITING, *VIEWING))
    assert header.submit.isEnabled() and header.draft.isEnabled()
    window.show_view("browser")  # another view: its keys must not reach Annotate either
    assert not any(enabled(window, *EDITING))


def test_without_a_workspace_every_view_says_how_to_open_one(qtbot: QtBot, qapp: AnnotatorApp, tmp_path: Path) -> None:
    window = open_window(qtbot, qapp, tmp_path / "typo")  # asked whether to create one: cancelled
    qtbot.waitUntil(lambda: window.question is not None and window.question.isVisible())
    assert window.question is not None
    window.question.reject()
    window.show_view("annotate")
    assert "File › Open Workspace Folder" in window.annotate.header.details.text()
    assert not any(enabled(window, *EDITING, *VIEWING, "annotate.next_trajectory"))
    window.show_view("review")
    qtbot.waitUntil(lambda: "File › Open Workspace Folder" in window.review.preview.placeholder)
