"""Review decisions and the two queues."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from annotator.services import review
from annotator.services.annotation import Editor, load_trajectory
from annotator.storage import labels, models
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory


def annotated_by(workspace: Workspace, person: str, instruction: str) -> int:
    trajectory_id = add_trajectory(workspace, "设置", instruction, 2, label=False)
    editor = Editor(workspace, trajectory_id, person)
    editor.change(load_trajectory(workspace.database, trajectory_id).steps[0].id, {"verdict": "correct"})
    labels.submit_for_review(workspace.database, trajectory_id)  # handed on as it is: these tests are the review's
    return trajectory_id


def test_queue_accept_reject_and_the_annotators_queue(workspace: Workspace) -> None:
    first = annotated_by(workspace, "小王", "打开蓝牙")
    second = annotated_by(workspace, "小李", "关闭WLAN")
    untouched = add_trajectory(workspace, "设置", "调高亮度", 2, label=False)
    queue = review.review_queue(workspace)
    assert [(i.trajectory_id, i.annotators, i.steps) for i in queue] == [(first, ("小王",), 2), (second, ("小李",), 2)]
    review.accept(workspace, first, "审核员")
    with pytest.raises(ValueError, match="comment"):
        review.reject(workspace, second, "审核员", "  ")
    review.reject(workspace, second, "审核员", "第二步的坐标不对")
    assert review.review_queue(workspace) == []
    mine = review.work_queue(workspace, "小李")
    assert [(i.trajectory_id, i.review_status, i.comment, i.reviewer) for i in mine] == [
        (second, "rejected", "第二步的坐标不对", "审核员"),
        (untouched, "unlabelled", None, None),
    ]
    assert [i.trajectory_id for i in review.work_queue(workspace, "小王")] == [untouched]


def test_fix_and_accept_keeps_the_reviewers_edits_as_revisions(workspace: Workspace) -> None:
    trajectory_id = annotated_by(workspace, "小王", "打开蓝牙")
    fixer = Editor(workspace, trajectory_id, "审核员", role="reviewer")
    fixer.change(load_trajectory(workspace.database, trajectory_id).steps[1].id, {"verdict": "wrong"})
    review.accept(workspace, trajectory_id, "审核员", fixed=True)
    with workspace.database.session() as session:
        decision = session.scalars(select(models.Review).where(models.Review.trajectory_id == trajectory_id)).one()
        assert (decision.status, decision.comment) == ("accepted", review.FIXED_NOTE)
    assert [r.person for r in fixer.history()] == ["审核员", "小王"]
    with pytest.raises(ValueError, match="who you are"):
        review.accept(workspace, trajectory_id, "")


def test_own_steps_counts_the_steps_a_person_labelled_and_can_leave_out_a_fix(workspace: Workspace) -> None:
    """Accepting steps one labelled oneself is a self-review the app asks about; a fix's edits are the review's."""
    trajectory_id = annotated_by(workspace, "小王", "打开蓝牙")  # 小王 set the verdict of step 1 of 2
    assert review.own_steps(workspace, trajectory_id, "小王") == 1
    assert review.own_steps(workspace, trajectory_id, "审核员") == 0
    fixing_since = datetime.now(UTC)
    fixer = Editor(workspace, trajectory_id, "小王", role="reviewer")
    first, second = load_trajectory(workspace.database, trajectory_id).steps
    fixer.change(first.id, {"think": "先打开设置"})
    fixer.change(second.id, {"verdict": "wrong"})
    assert review.own_steps(workspace, trajectory_id, "小王") == 2  # steps, not revisions
    assert review.own_steps(workspace, trajectory_id, "小王", before=fixing_since) == 1
