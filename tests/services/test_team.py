"""People, roles and assignments through the services: roles are free until the workspace has an admin, then they
come from its list; assignments move work between queues and are done when the work is."""

from __future__ import annotations

import pytest

from annotator.services import review, team
from annotator.services.roles import NotAllowed
from annotator.storage import assignments, labels, people
from annotator.storage.assignments import Target
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, step_ids


def labelled(workspace: Workspace, person: str, instruction: str, app: str = "设置", submit: bool = True) -> int:
    """A trajectory with one step labelled by `person`, handed on for review unless `submit` is False."""
    before = set(step_ids(workspace))
    trajectory_id = add_trajectory(workspace, app, instruction, 2, label=False)
    first = min(set(step_ids(workspace)) - before)
    labels.update_label(workspace.database, first, {"verdict": "correct"}, person=person)
    if submit:
        labels.submit_for_review(workspace.database, trajectory_id)
    return trajectory_id


def test_roles_are_self_declared_until_an_admin_then_come_from_the_list(workspace: Workspace) -> None:
    first = labelled(workspace, "小王", "打开蓝牙")
    review.accept(workspace, first, "小王")  # no admin yet: a one-person workspace works as before
    second = labelled(workspace, "小王", "关闭WLAN")
    team.add_person(workspace, "主管", "admin", by=None)  # the first admin is named by anyone
    with pytest.raises(NotAllowed, match=r"^小王 is an annotator: only reviewers and admins accept trajectories$"):
        review.accept(workspace, second, "小王")
    with pytest.raises(NotAllowed, match="only reviewers and admins reject"):
        review.reject(workspace, second, "小王", "自己驳回")
    with pytest.raises(NotAllowed, match="not on this workspace's list"):
        review.accept(workspace, second, "路人")
    with pytest.raises(NotAllowed, match="only admins add people"):
        team.add_person(workspace, "小李", "reviewer", by="小王")
    team.add_person(workspace, "小李", "reviewer", by="主管")
    review.reject(workspace, second, "小李", "第二步错了")
    # a newcomer who claims a role while writing a label is added as an annotator: only an admin gives roles now
    labels.update_label(workspace.database, step_ids(workspace)[0], {"think": "改"}, person="新人", role="admin")
    assert people.role_of(workspace.database, "新人") == "annotator"
    with pytest.raises(ValueError, match="only admin"):
        team.set_role(workspace, "主管", "reviewer", by="主管")
    assert team.set_role(workspace, "小王", "reviewer", by="主管") == "annotator"
    review.accept(workspace, second, "小王")


@pytest.mark.slow
def test_assignments_move_work_between_queues_and_finish_with_it(workspace: Workspace) -> None:
    mine, theirs = labelled(workspace, "小王", "打开蓝牙"), labelled(workspace, "小王", "关闭WLAN")
    fresh = add_trajectory(workspace, "淘宝", "搜索耳机", 2, label=False)
    other = add_trajectory(workspace, "设置", "调高亮度", 2, label=False)
    for name, role in (("主管", "admin"), ("小王", "annotator"), ("小李", "annotator"), ("张审核", "reviewer")):
        if people.role_of(workspace.database, name) is None:
            team.add_person(workspace, name, role, by="主管")
    with pytest.raises(NotAllowed, match="only admins assign work"):
        team.assign(workspace, "小李", Target(trajectory_ids=(fresh,)), by="张审核")
    with pytest.raises(NotAllowed, match="小李 is an annotator: only reviewers and admins review"):
        team.assign(workspace, "小李", Target(trajectory_ids=(mine,)), by="主管", task="review")
    team.assign(workspace, "小王", Target(app="淘宝"), by="主管")  # an instruction set: the app's trajectories
    moved = team.assign(workspace, "小李", Target(trajectory_ids=(fresh,)), by="主管")  # its own assignment wins
    assert (moved.added, moved.moved_from) == (1, {})
    assert [i.trajectory_id for i in team.work_queue(workspace, "小王").items] == [other]
    lis = team.work_queue(workspace, "小李")
    assert ([i.trajectory_id for i in lis.items], lis.assigned) == ([fresh, other], {fresh: "主管"})
    team.assign(workspace, "张审核", Target(trajectory_ids=(mine,)), by="主管")
    assert [i.trajectory_id for i in team.review_queue(workspace, "张审核").items] == [mine, theirs]
    assert [i.trajectory_id for i in team.review_queue(workspace, "审核二").items] == [theirs]
    review.accept(workspace, mine, "张审核")
    assert assignments.records(workspace.database, "张审核") == []
    done = assignments.records(workspace.database, "张审核", open_only=False)
    finished = [(r.kind, r.target, r.task, r.done_at is not None) for r in done]
    assert finished == [("trajectory", str(mine), "review", True)]
    queue = team.person_queue(workspace, "小王")
    assert ([r.target for r in queue.instruction_sets], queue.review, queue.rate) == (["淘宝"], None, [])
    assert team.unassign(workspace, "小李", Target(trajectory_ids=(fresh,)), by="主管") == 1
    assert team.work_queue(workspace, "小李").assigned == {}


@pytest.mark.slow
def test_a_long_queue_lists_its_first_part_in_order_and_counts_all(workspace: Workspace) -> None:
    """The database chooses, orders, cuts and counts a queue: rejected work, then work in progress, then what
    nobody submitted; what is assigned to the person first within each."""
    started = labelled(workspace, "小王", "打开蓝牙", submit=False)  # still unlabelled: one verdict only
    rejected = labelled(workspace, "小王", "关闭WLAN")
    fresh = [add_trajectory(workspace, "淘宝", f"搜索 {n}", 1, label=False) for n in range(4)]
    team.add_person(workspace, "主管", "admin", by=None)
    team.add_person(workspace, "李审核", "reviewer", by="主管")
    review.reject(workspace, rejected, "李审核", "第一步错了")
    team.assign(workspace, "小王", Target(trajectory_ids=(fresh[2],)), by="主管")
    whole = team.work_queue(workspace, "小王")
    assert [i.trajectory_id for i in whole.items] == [rejected, fresh[2], started, fresh[0], fresh[1], fresh[3]]
    assert (whole.total, whole.assigned) == (6, {fresh[2]: "主管"})
    first = team.work_queue(workspace, "小王", limit=3)
    assert ([i.trajectory_id for i in first.items], first.total) == ([rejected, fresh[2], started], 6)
    assert team.work_queue(workspace, "小李", limit=2).total == 4  # others' rejected work and assignments left out
