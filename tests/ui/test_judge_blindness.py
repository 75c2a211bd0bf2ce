"""Issue 29, item 2: the views that show judge results read who may see them each time they show them. A study
begun while the Judge view is open (here or in another process), a rating, a Refresh, a click on the judge again,
coming back to the view and another person sitting down all hide the open study's scores and reasons from its
raters, in the Judge view's answers and answer detail and in the trajectory list."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from pytestqt.qtbot import QtBot

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import blind_rating, studies
from annotator.storage import judging
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.browser.model import COLUMN_INDEX, ID_ROLE
from annotator.ui.identity_dialog import IdentityDialog
from annotator.ui.judge import JudgeView
from annotator.ui.main_window import MainWindow
from annotator.ui.studies.new_study import NewStudyDialog
from tests.factories import add_people, add_trajectory
from tests.ui.conftest import open_window, wait_loaded

pytestmark = pytest.mark.slow

LEVELS = [0, 1, 2, 3, 4, 4, 2]  # seven scored trajectories: a study of six leaves one out
REASON = "评判理由"
STUDY = "盲评"
LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def judged(workspace: Workspace) -> tuple[Workspace, int]:
    """Seven trajectories the judge scored, with reasons, and no study yet; the judge's id."""
    config = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    for n, level in enumerate(LEVELS):
        trajectory = add_trajectory(workspace, "淘宝", f"任务 {n}", 2, seed=n, label=False)
        record = ScoreRecord(level, f"{REASON} {n}", "{}", None, None, 5.0, 2)
        judging.save_score(workspace.database, config, None, trajectory, record)
    return workspace, config


def settle(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.jobs.busy() and not window.judge.is_loading(), timeout=20_000)


def judge_view_as(qtbot: QtBot, qapp: AnnotatorApp, workspace: Workspace, person: str) -> MainWindow:
    """The window as `person`, on the Judge view with the judge's answers listed."""
    identity.remember(person, "annotator")
    window = open_window(qtbot, qapp, workspace.data_dir)
    wait_loaded(qtbot, window)
    window.show_view("judge")
    qtbot.waitUntil(lambda: len(window.judge.answers.cells()) == len(LEVELS), timeout=20_000)
    settle(qtbot, window)
    return window


def in_study(workspace: Workspace, rater: str) -> set[int]:
    return {entry.trajectory_id for entry in blind_rating.rater_queue(workspace.database, STUDY, rater)}


def hidden_answers(view: JudgeView) -> set[int]:
    return {int(cells[0]) for cells in view.answers.cells() if cells[1] == "hidden"}


def answer_texts(view: JudgeView) -> str:
    """What the answer list and the answer detail show, tooltips included."""
    table = view.answers
    items = [table.item(row, column) for row in range(table.rowCount()) for column in range(table.columnCount())]
    parts = [text for item in items for text in (item.text(), item.toolTip())]
    return "\n".join([*parts, view.detail.title.text(), view.detail.reason.toPlainText()])


def assert_blind(view: JudgeView, hidden: set[int]) -> None:
    """The study's answers say "hidden", with no reason anywhere; the others show theirs."""
    assert hidden_answers(view) == hidden
    for cells in view.answers.cells():
        shown = int(cells[0]) not in hidden
        assert (REASON in cells[4]) == shown
    texts = answer_texts(view)
    for trajectory in hidden:
        assert f"{REASON} {trajectory - 1}" not in texts  # trajectory n+1 has reason n
    current = view.answers.current()
    assert current is not None and ("score hidden" in view.detail.title.text()) == current.hidden


def click_refresh(qtbot: QtBot, view: JudgeView) -> None:
    qtbot.mouseClick(view.refresh_button, LEFT)


def click_the_judge(qtbot: QtBot, view: JudgeView) -> None:
    """A click on the judge already chosen: its answers are read again."""
    rect = view.table.visualRect(view.table.model().index(0, 0))
    qtbot.mouseClick(view.table.viewport(), LEFT, pos=rect.center())


AGAIN: dict[str, Callable[[QtBot, JudgeView], None]] = {"refresh": click_refresh, "click": click_the_judge}


@pytest.mark.parametrize("again", sorted(AGAIN))
def test_a_study_begun_while_the_judge_view_shows_hides_its_answers_on_refresh(
    qtbot: QtBot, qapp: AnnotatorApp, judged: tuple[Workspace, int], again: str
) -> None:
    """The defect: Refresh (or a click on the judge) updated the mean but left the scores and reasons listed."""
    workspace, config = judged
    window = judge_view_as(qtbot, qapp, workspace, "alice")
    view = window.judge
    assert_blind(view, set())
    assert REASON in answer_texts(view)
    add_people(workspace.database, "alice", "bob")  # raters are people the workspace knows
    studies.create_study(workspace.database, STUDY, config, 6, ["alice", "bob"])  # as another process would
    first = blind_rating.rater_queue(workspace.database, STUDY, "alice")[0]
    blind_rating.rate(workspace.database, STUDY, "alice", first.item_id, 2)
    AGAIN[again](qtbot, view)
    settle(qtbot, window)
    hidden = in_study(workspace, "alice")
    assert len(hidden) == 6 and view.selected_judge() == config
    assert_blind(view, hidden)
    assert "6 hidden from you" in view.answers_heading.text()
    (left_out,) = set(range(1, len(LEVELS) + 1)) - hidden
    assert view.table.cells()[0][7] == f"{LEVELS[left_out - 1]:.2f}"  # the mean of what alice may see
    assert view.answers.select_trajectory(min(hidden))
    qtbot.waitUntil(lambda: view.detail.drilldown is not None, timeout=20_000)
    assert "score hidden" in view.detail.title.text() and STUDY in view.detail.reason.toPlainText()


def new_study_in_the_studies_view(qtbot: QtBot, window: MainWindow) -> None:
    """New Study… in the Studies view, its dialog filled in and accepted as a person would."""

    def fill_in() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, NewStudyDialog):
            return  # the judges are still being read
        poll.stop()
        dialog.name.setText(STUDY)
        dialog.sample_size.setValue(6)
        dialog.raters.setText("alice, bob")
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    window.show_view("studies")
    settle(qtbot, window)
    poll = QTimer(window)  # the dialog runs its own event loop: a timer reaches it there
    poll.timeout.connect(fill_in)
    poll.start(10)
    window.studies.new_study()
    qtbot.waitUntil(lambda: any(info.name == STUDY for info in window.studies.infos), timeout=20_000)
    settle(qtbot, window)


def browser_judge_column(window: MainWindow) -> dict[int, str]:
    model, column = window.browser.model, COLUMN_INDEX["judge_score"]
    return {
        model.data(model.index(row, 0), ID_ROLE): str(model.data(model.index(row, column)))
        for row in range(model.rowCount())
    }


def test_a_study_created_in_the_window_is_hidden_when_the_judge_view_and_the_list_show_again(
    qtbot: QtBot, qapp: AnnotatorApp, judged: tuple[Workspace, int]
) -> None:
    workspace, _config = judged
    add_people(workspace.database, "alice", "bob")  # the dialog offers, and takes, only people the workspace knows
    window = judge_view_as(qtbot, qapp, workspace, "alice")
    new_study_in_the_studies_view(qtbot, window)
    hidden = in_study(workspace, "alice")
    window.show_view("judge")
    settle(qtbot, window)
    assert_blind(window.judge, hidden)
    window.show_view("browser")
    wait_loaded(qtbot, window)
    column = browser_judge_column(window)
    assert {trajectory for trajectory, shown in column.items() if shown == "hidden"} == hidden


def test_another_person_sitting_down_at_the_judge_view_sees_what_they_may(
    qtbot: QtBot, qapp: AnnotatorApp, judged: tuple[Workspace, int]
) -> None:
    workspace, config = judged
    add_people(workspace.database, "alice", "bob")
    studies.create_study(workspace.database, STUDY, config, 6, ["alice", "bob"])
    window = judge_view_as(qtbot, qapp, workspace, "carol")  # not rating: sees everything
    view = window.judge
    assert_blind(view, set())
    for person, hidden in (("alice", in_study(workspace, "alice")), ("carol", set())):
        window.menu_actions.actions["person.change"].trigger()
        dialog = next(shown for shown in window.findChildren(IdentityDialog) if shown.isVisible())
        dialog.name.setText(person)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        settle(qtbot, window)
        assert_blind(view, hidden)


def test_a_study_begun_in_another_process_is_hidden_when_the_list_shows_again(
    qtbot: QtBot, qapp: AnnotatorApp, judged: tuple[Workspace, int]
) -> None:
    """Nothing in the window announced it: the list reads who may see what each time it shows."""
    workspace, config = judged
    window = judge_view_as(qtbot, qapp, workspace, "alice")
    add_people(workspace.database, "alice", "bob")
    studies.create_study(workspace.database, STUDY, config, 6, ["alice", "bob"])
    window.show_view("browser")
    wait_loaded(qtbot, window)
    column = browser_judge_column(window)
    assert {trajectory for trajectory, shown in column.items() if shown == "hidden"} == in_study(workspace, "alice")
