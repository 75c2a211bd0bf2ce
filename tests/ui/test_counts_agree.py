"""The counts a person watches during work agree with the database at once: the status bar while labelling and
submitting in the Annotate view, the Review view's tabs when another view writes, a study's raters column while
rating. Each listens to the hub's change notifications; nothing is refreshed by hand."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import studies
from annotator.services.changes import Changes
from annotator.storage import judging, labels
from annotator.storage.browse import BrowseFilter, summarize
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.main_window import MainWindow
from tests.factories import add_people, add_trajectory, finish_labelling
from tests.ui.conftest import open_window, wait_loaded

pytestmark = pytest.mark.slow
UNLABELLED = 3  # the populated workspace's third trajectory


def counts_text(workspace: Workspace) -> str:
    summary = summarize(workspace.database, BrowseFilter())
    return f"{summary.total} trajectories · {summary.unlabelled} unlabelled · {summary.awaiting_review} awaiting review"


def test_the_status_bar_counts_follow_labelling_and_submitting_in_the_annotate_view(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    before = window.status.counts.text()
    assert before == counts_text(populated) and "1 unlabelled · 0 awaiting review" in before
    identity.remember("小王", "annotator")
    window.open_trajectory(UNLABELLED)
    qtbot.waitUntil(lambda: window.annotate.is_showing(UNLABELLED))
    window.annotate.commands.set_verdict("correct")  # the first label: no longer unlabelled
    qtbot.waitUntil(lambda: "0 unlabelled · 0 awaiting review" in window.status.counts.text())
    recounts: list[None] = []
    window.counts.recount = lambda: recounts.append(None)  # type: ignore[method-assign]
    window.annotate.commands.set_verdict("wrong")  # a later edit moves no trajectory between review states
    qtbot.waitUntil(lambda: window.annotate.saver.idle() and not window.jobs.busy())
    assert recounts == []  # so the whole workspace is not counted again for it
    del window.counts.recount
    finish_labelling(populated, UNLABELLED)
    window.annotate.open_trajectory(UNLABELLED)
    qtbot.waitUntil(lambda: window.annotate.is_showing(UNLABELLED) and not window.jobs.busy())
    window.annotate.commands.submit_for_review()
    qtbot.waitUntil(lambda: "0 unlabelled · 1 awaiting review" in window.status.counts.text())
    assert window.status.counts.text() == counts_text(populated)
    assert window.current_view() == "annotate"  # the browser, hidden all along, did not count for it


def test_the_review_tabs_follow_a_submission_made_in_another_view(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    identity.remember("张审核", "reviewer")
    window.show_view("review")
    qtbot.waitUntil(lambda: not window.jobs.busy())
    assert window.review.tabs.tabText(0) == "Waiting for review (0)"
    finish_labelling(populated, UNLABELLED)
    labels.submit_for_review(populated.database, UNLABELLED)  # what the Annotate view writes and announces
    window.hub.announce(Changes.of([UNLABELLED], review=True))
    qtbot.waitUntil(lambda: window.review.tabs.tabText(0) == "Waiting for review (1)")
    qtbot.waitUntil(lambda: "1 awaiting review" in window.status.counts.text())


@pytest.fixture
def study(workspace: Workspace) -> Workspace:
    config = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    for n, level in enumerate([0, 2, 4]):
        trajectory = add_trajectory(workspace, "淘宝", f"任务 {n}", 2, seed=n, label=False)
        judging.save_score(
            workspace.database, config, None, trajectory, ScoreRecord(level, "理由", "{}", None, None, 5.0, 2)
        )
    add_people(workspace.database, "小王", "小李")  # raters are people the workspace knows
    studies.create_study(workspace.database, "试点", config, 3, ["小王", "小李"])
    return workspace


def test_the_raters_column_follows_each_score(qtbot: QtBot, qapp: AnnotatorApp, study: Workspace) -> None:
    identity.remember("小王", "annotator")
    window = open_window(qtbot, qapp, study.data_dir)
    wait_loaded(qtbot, window)
    window.show_view("studies")
    view, page = window.studies, window.studies.rating
    qtbot.waitUntil(lambda: page.trajectory is not None)
    assert view.table.item(0, 3).text() == "小王 0/3, 小李 0/3"
    page.score(3)
    qtbot.waitUntil(lambda: view.table.item(0, 3).text() == "小王 1/3, 小李 0/3")
    qtbot.waitUntil(lambda: page.trajectory is not None and page.index == 1)
    page.score(1)
    qtbot.waitUntil(lambda: view.table.item(0, 3).text() == "小王 2/3, 小李 0/3")
    assert page.index == 2 and "item 3 of 3" in page.header.text()  # still rating, where the rater was
