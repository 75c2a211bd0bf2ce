"""The review view on a real workspace: the queue, accept, reject with a comment, fix-and-accept, My work."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot
from sqlalchemy import select

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.domain.trajectory import ReviewStatus
from annotator.services.changes import Changes
from annotator.services.review import FIXED_NOTE
from annotator.storage import judging, labels, models
from annotator.storage.collection import ensure_person
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.review import ReviewView
from annotator.ui.review.queue_model import ID_ROLE, QueueModel
from annotator.ui.review.view import MINE
from annotator.ui.workers import Jobs
from tests.factories import database_snapshot

pytestmark = pytest.mark.slow

TAOBAO = "打开淘宝，搜索 iPhone 16 Pro Max 并加入购物车"  # trajectory 1 of `populated`, 3 steps
DOUYIN = "打开抖音，关注第一个视频的作者"  # trajectory 2, 2 steps; both labelled by 小王


@pytest.fixture
def submitted(populated: Workspace) -> Workspace:
    """Trajectories 1 and 2 handed to review by their annotator; 3 is unlabelled."""
    for trajectory_id in (1, 2):
        labels.set_review(populated.database, trajectory_id, ReviewStatus.ANNOTATED)
    return populated


@pytest.fixture
def jobs() -> Iterator[Jobs]:
    running = Jobs()
    yield running
    running.wait(10_000)


@pytest.fixture
def view(qtbot: QtBot, jobs: Jobs, submitted: Workspace) -> ReviewView:
    shown = ReviewView(jobs)
    qtbot.addWidget(shown)
    shown.resize(1150, 700)
    shown.show()
    shown.set_workspace(submitted)
    settle(qtbot, jobs)
    return shown


def settle(qtbot: QtBot, jobs: Jobs) -> None:
    qtbot.waitUntil(lambda: not jobs.busy())


def ids(model: QueueModel) -> list[int]:
    return [model.data(model.index(row, 0), ID_ROLE) for row in range(model.rowCount())]


def choose(view: ReviewView, trajectory_id: int) -> None:
    table = view.mine_table if view.tabs.currentIndex() == MINE else view.waiting_table
    model = table.model()
    assert isinstance(model, QueueModel)
    row = model.row_of(trajectory_id)
    assert row is not None, f"trajectory {trajectory_id} is not in the queue"
    table.selectRow(row)


def newest_review(workspace: Workspace, trajectory_id: int) -> tuple[str, str | None, str | None, str]:
    """(status, comment, reviewer, the trajectory's review_status) of the newest Review row."""
    with workspace.database.session() as session:
        review = session.scalars(
            select(models.Review).where(models.Review.trajectory_id == trajectory_id).order_by(models.Review.id.desc())
        ).first()
        assert review is not None
        trajectory = session.get(models.Trajectory, trajectory_id)
        assert trajectory is not None
        reviewer = review.reviewer.name if review.reviewer else None
        return review.status, review.comment, reviewer, trajectory.review_status


def messages(view: ReviewView) -> list[str]:
    said: list[str] = []
    view.status_message.connect(said.append)
    return said


def test_the_queue_lists_the_annotated_trajectories_and_previews_the_first(qtbot: QtBot, view: ReviewView) -> None:
    assert ids(view.waiting_model) == [1, 2]  # not the accepted or unlabelled ones
    assert view.tabs.tabText(0) == "Waiting for review (2)"
    preview = view.preview
    assert preview.instruction.text() == TAOBAO
    assert preview.steps.rowCount() == 3
    assert [preview.cell(0, key) for key in ("verdict", "think", "action", "tool_call")] == [
        "correct",
        "当前在第 0 步",
        "点击搜索框",
        "click (100, 200)",
    ]
    assert preview.cell(2, "tool_call") == "terminate success"
    thumbnail = preview.thumbnail(0)
    assert thumbnail is not None and thumbnail.height() == 120 and thumbnail.width() == 54  # 1080x2400, scaled


def test_accept_writes_a_review_under_the_reviewer_and_selects_the_next(
    qtbot: QtBot, view: ReviewView, jobs: Jobs, submitted: Workspace
) -> None:
    identity.remember("李审核", "reviewer")
    said = messages(view)
    choose(view, 1)
    with qtbot.waitSignal(view.hub.changed) as decided:
        view.accept()
    settle(qtbot, jobs)
    assert decided.args == [Changes.of([1], review=True)]
    assert newest_review(submitted, 1) == ("accepted", None, "李审核", "accepted")
    assert ids(view.waiting_model) == [2]
    assert view.waiting_table.selected_row() == 0 and view.preview.instruction.text() == DOUYIN
    assert said == [f"Accepted: {TAOBAO}"]
    assert newest_review(submitted, 2)[3] == "annotated"  # only the chosen one was decided


def test_reject_needs_a_comment_and_puts_the_work_on_top_of_its_annotators_queue(
    qtbot: QtBot, view: ReviewView, jobs: Jobs, submitted: Workspace
) -> None:
    identity.remember("李审核", "reviewer")
    choose(view, 2)
    view.reject()
    dialog = view.reject_dialog
    assert dialog is not None and dialog.isVisible() and DOUYIN in dialog.prompt.text()
    before = database_snapshot(submitted)
    dialog.comment_edit.setPlainText("   ")
    assert not dialog.ok_button.isEnabled()
    dialog.accept()  # Enter with an empty comment: refused, the dialog stays
    assert dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted
    assert database_snapshot(submitted) == before
    dialog.comment_edit.setPlainText("第2步关注的不是第一个视频的作者。")
    qtbot.mouseClick(dialog.reason_buttons[1], Qt.MouseButton.LeftButton)  # "Wrong tool call coordinates"
    comment = "第2步关注的不是第一个视频的作者。\nWrong tool call coordinates: the point is not on the target element."
    assert dialog.comment() == comment
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    settle(qtbot, jobs)
    assert newest_review(submitted, 2) == ("rejected", comment, "李审核", "rejected")
    assert ids(view.waiting_model) == [1]

    identity.remember("小王", "annotator")  # the annotator of trajectory 2 comes to their queue
    view.tabs.setCurrentIndex(MINE)
    view.reload()
    settle(qtbot, jobs)
    model = view.mine_model
    assert ids(model) == [2, 3]  # the rejected work first, then what nobody has labelled
    assert model.data(model.index(0, model.column("state"))) == "rejected"
    assert model.data(model.index(0, model.column("comment"))) == comment.replace("\n", " ")
    assert model.data(model.index(0, 0), Qt.ItemDataRole.BackgroundRole) is not None  # coloured
    assert model.data(model.index(1, 0), Qt.ItemDataRole.BackgroundRole) is None
    assert view.mine_table.selected_row() == 0
    banner = view.preview.banner
    assert banner.isVisible() and "Rejected by 李审核" in banner.text() and "第2步关注的不是" in banner.text()


def test_fix_opens_the_trajectory_and_the_accept_that_follows_is_recorded_as_fixed(
    qtbot: QtBot, view: ReviewView, jobs: Jobs, submitted: Workspace
) -> None:
    identity.remember("李审核", "reviewer")
    choose(view, 1)
    with qtbot.waitSignal(view.edit_requested) as opened:
        qtbot.keyClick(view.waiting_table, Qt.Key.Key_Return)  # Enter on a queue row opens it to fix
    assert opened.args == [1]
    assert view.fixing == 1 and "#1" in view.fixing_note.text()
    # The annotation view, on screen with trajectory 1, says so through the hub; the queue's selection has moved on.
    view.hub.annotating = 1
    choose(view, 2)
    said = messages(view)
    view.accept()
    settle(qtbot, jobs)
    assert newest_review(submitted, 1) == ("accepted", FIXED_NOTE, "李审核", "accepted")
    assert newest_review(submitted, 2)[3] == "annotated"
    assert said == [f"Fixed and accepted: {TAOBAO}"]
    assert view.fixing is None and view.fixing_note.text() == ""


def test_the_fix_action_emits_the_selected_trajectory(qtbot: QtBot, view: ReviewView, jobs: Jobs) -> None:
    choose(view, 2)
    settle(qtbot, jobs)  # its preview is in (pytest-qt closes the view before fixtures are torn down)
    with qtbot.waitSignal(view.edit_requested) as opened:
        view.fix()
    assert opened.args == [2] and view.fixing == 2
    assert view.preview.instruction.text() == DOUYIN


def test_without_a_name_a_decision_is_refused_and_nothing_is_written(
    qtbot: QtBot, view: ReviewView, jobs: Jobs, submitted: Workspace
) -> None:
    assert identity.current_person() == ("", "")
    assert "Say who you are" in view.person.text()
    before = database_snapshot(submitted)
    said = messages(view)
    choose(view, 1)
    view.accept()
    view.reject()
    settle(qtbot, jobs)
    assert view.reject_dialog is None
    assert len(said) == 2 and all("Say who you are first" in message for message in said)
    assert database_snapshot(submitted) == before
    assert ids(view.waiting_model) == [1, 2]


def test_work_that_was_never_submitted_cannot_be_accepted_from_my_work(
    qtbot: QtBot, view: ReviewView, jobs: Jobs, submitted: Workspace
) -> None:
    identity.remember("小王", "annotator")
    view.tabs.setCurrentIndex(MINE)
    view.reload()
    settle(qtbot, jobs)
    before = database_snapshot(submitted)
    said = messages(view)
    choose(view, 3)
    view.accept()
    settle(qtbot, jobs)
    assert said == ["Trajectory 3 is not waiting for review (it is unlabelled): only submitted work is decided."]
    assert database_snapshot(submitted) == before
    assert not view.accept_button.isVisible() and view.open_button.isVisible()
    with qtbot.waitSignal(view.edit_requested) as opened:
        qtbot.keyClick(view.mine_table, Qt.Key.Key_Return)  # in My work, Enter opens it to annotate
    assert opened.args == [3] and view.fixing is None


def test_switching_the_language_keeps_the_queue_and_the_screenshots(
    qtbot: QtBot, qapp: AnnotatorApp, view: ReviewView, jobs: Jobs
) -> None:
    qapp.languages.install("zh_CN")
    assert not jobs.busy()  # retranslating reads nothing again: no query, no screenshot decoded twice
    assert ids(view.waiting_model) == [1, 2] and view.preview.instruction.text() == TAOBAO
    assert view.preview.thumbnail(0) is not None and view.preview.cell(0, "think") == "当前在第 0 步"


def test_a_hidden_view_reads_its_queues_when_first_shown(qtbot: QtBot, jobs: Jobs, submitted: Workspace) -> None:
    """At start the review view is hidden behind the browser: reading the queues then costs seconds and
    hundreds of MiB over a large workspace, and showing the view reads them again anyway."""
    hidden = ReviewView(jobs)
    qtbot.addWidget(hidden)
    hidden.set_workspace(submitted)
    settle(qtbot, jobs)
    assert ids(hidden.waiting_model) == []
    hidden.show()
    settle(qtbot, jobs)
    assert ids(hidden.waiting_model) == [1, 2]


def test_the_preview_says_how_many_privacy_regions_a_step_has(qtbot: QtBot, jobs: Jobs, submitted: Workspace) -> None:
    with submitted.database.session() as session:
        first = session.scalars(select(models.Step.id).where(models.Step.trajectory_id == 1)).first()
    labels.update_label(submitted.database, first, {"privacy_regions": [[0, 0, 500, 300], [10, 900, 600, 1200]]})
    shown = ReviewView(jobs)
    qtbot.addWidget(shown)
    shown.show()
    shown.set_workspace(submitted)
    settle(qtbot, jobs)
    assert shown.preview.cell(0, "tool_call") == "click (100, 200)\nprivacy regions: 2"
    assert "privacy" not in shown.preview.cell(1, "tool_call")  # an unmarked step says nothing


def test_the_preview_shows_the_judges_score_or_why_it_is_hidden(qtbot: QtBot, jobs: Jobs, submitted: Workspace) -> None:
    """Issue 16, defect 7: Review said "not judged" after judging (it meant the outcome) and showed no score."""
    db = submitted.database
    config = judging.ensure_config(db, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    judging.save_score(db, config, None, 1, ScoreRecord(3, "第三步多点了一次", "{}", None, None, 1.0, 2))
    identity.remember("李审核", "reviewer")
    shown = ReviewView(jobs)
    qtbot.addWidget(shown)
    shown.show()
    shown.set_workspace(submitted)
    settle(qtbot, jobs)
    preview = shown.preview
    assert "not judged" not in preview.details.text() and "outcome: not set" in preview.details.text()
    assert preview.judge.isVisible() and "Judge: <b>3</b> of 4" in preview.judge.text()
    assert "第三步多点了一次" in preview.judge.text() and f"judge {config}" in preview.judge.text()
    choose(shown, 2)
    settle(qtbot, jobs)
    assert preview.judge.text() == "Judge: not judged yet"

    with db.session() as session:  # 李审核 rates trajectory 1 in a study 小王 has not finished
        study = models.Study(name="试点", config_id=config, seed=0, sample_size=1, rubric="…")
        study.items = [models.StudyItem(trajectory_id=1, position=0, judge_reward=3, app="淘宝")]
        study.raters = [
            models.StudyRater(person_id=ensure_person(session, name, "annotator").id, order_seed=n)
            for n, name in enumerate(("李审核", "小王"))
        ]
        session.add(study)
        session.commit()
    choose(shown, 1)
    settle(qtbot, jobs)
    assert "hidden" in preview.judge.text() and "第三步" not in preview.judge.text() + preview.judge.toolTip()
    assert "试点" in preview.judge.toolTip()


def test_the_chosen_step_shows_large_with_its_labelled_click_point(qtbot: QtBot, view: ReviewView, jobs: Jobs) -> None:
    """Issue 16, defect 10: the step thumbnails (~45 px wide) were too small to check a click point."""
    preview = view.preview
    qtbot.waitUntil(lambda: preview.step_screen.image is not None)
    assert preview.current_step() == 0 and preview.step_screen.step is preview.record.steps[0]
    assert preview.step_screen.width() > 4 * preview.thumbnail(0).width()
    preview.steps.selectRow(1)
    qtbot.waitUntil(
        lambda: preview.step_screen.step is preview.record.steps[1] and preview.step_screen.image is not None
    )
    settle(qtbot, jobs)
    screen = preview.step_screen.screen_rect()
    scale = screen.width() / 1080  # the step's click (101, 200) in device pixels, on the large view
    x, y = round(screen.left() + 101 * scale), round(screen.top() + 200 * scale)
    shot = preview.step_screen.grab().toImage()
    ring = shot.pixelColor(x + 5, y)  # inside the labelled point's disc, beside its exact spot
    assert ring.red() > 200 and ring.green() < 90 and ring.blue() < 140, ring.name()
