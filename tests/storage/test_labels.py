import re

import pytest
from sqlalchemy import select

from annotator.domain.geometry import Box
from annotator.domain.trajectory import ReviewStatus
from annotator.storage import labels, models, trajectories
from annotator.storage.guards import RawStepChangedError
from annotator.storage.labels import LabelError
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, click, database_snapshot, step_ids


def revisions(workspace: Workspace, step_id: int) -> list[tuple]:
    with workspace.database.session() as session:
        rows = session.scalars(
            select(models.LabelRevision)
            .where(models.LabelRevision.step_id == step_id)
            .order_by(models.LabelRevision.id)
        )
        return [(r.field, r.old_value, r.new_value, r.person.name if r.person else None) for r in rows]


def test_every_label_change_writes_a_revision(workspace: Workspace) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝", 1, label=False)
    (step_id,) = step_ids(workspace)
    written = labels.update_label(
        workspace.database,
        step_id,
        {"think": "当前在首页", "tool_call": click(5, 6), "target_box": [0, 0, 10, 10]},
        person="小王",
    )
    assert written == 3
    labels.update_label(workspace.database, step_id, {"think": "当前在首页，下一步点击搜索"}, person="小李")
    assert revisions(workspace, step_id) == [
        ("think", None, "当前在首页", "小王"),
        ("tool_call", None, click(5, 6), "小王"),
        ("target_box", None, [0.0, 0.0, 10.0, 10.0], "小王"),
        ("think", "当前在首页", "当前在首页，下一步点击搜索", "小李"),
    ]
    with workspace.database.session() as session:
        step = session.get(models.Step, step_id)
        assert step.label_action == "click"
        assert step.label_updated_at is not None


def test_an_unchanged_value_writes_no_revision(workspace: Workspace) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝", 1, label=False)
    (step_id,) = step_ids(workspace)
    labels.update_label(workspace.database, step_id, {"verdict": "wrong"})
    assert labels.update_label(workspace.database, step_id, {"verdict": "wrong"}) == 0
    assert len(revisions(workspace, step_id)) == 1


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"verdict": "maybe"}, "verdict: 'maybe' is not one of correct, wrong, redundant"),
        ({"target_box": [10, 10, 0, 0]}, "target_box: box corners out of order"),
        ({"target_box": [1, 2, 3]}, "target_box: a box needs 4 numbers"),
        ({"tool_call": "click(1,2)"}, "tool_call: expected a JSON object"),
        ({"screenshot_sha256": "x"}, "'screenshot_sha256' is not a label field"),
    ],
)
def test_a_bad_label_is_refused_and_nothing_is_written(workspace: Workspace, changes: dict, message: str) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝", 1, label=False)
    (step_id,) = step_ids(workspace)
    before = database_snapshot(workspace)
    with pytest.raises(LabelError, match=message.replace("[", r"\[").replace("(", r"\(")):
        labels.update_label(workspace.database, step_id, {"think": "先写了这个", **changes}, person="小王")
    assert database_snapshot(workspace) == before


def test_the_collected_part_of_a_step_cannot_be_changed(workspace: Workspace) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝", 1, label=False)
    (step_id,) = step_ids(workspace)
    with workspace.database.session() as session, pytest.raises(RawStepChangedError, match="raw_tool_call"):
        step = session.get(models.Step, step_id)
        step.raw_tool_call = click(1, 1)
        session.flush()
    with workspace.database.session() as session, pytest.raises(RawStepChangedError, match="never deleted"):
        session.delete(session.get(models.Step, step_id))
        session.flush()


def test_review_history_is_kept_and_the_latest_is_current(workspace: Workspace) -> None:
    trajectory_id = add_trajectory(workspace, "淘宝", "打开淘宝", 1, label=False)
    labels.set_review(workspace.database, trajectory_id, ReviewStatus.REJECTED, reviewer="李", comment="点错了")
    labels.set_review(workspace.database, trajectory_id, ReviewStatus.ACCEPTED, reviewer="李", comment="已修正")
    with workspace.database.session() as session:
        trajectory = session.get(models.Trajectory, trajectory_id)
        assert trajectory.review_status == "accepted"
        assert [(r.status, r.comment) for r in trajectory.reviews] == [
            ("rejected", "点错了"),
            ("accepted", "已修正"),
        ]


def test_privacy_regions_are_stored_per_step_with_revisions_and_read_as_boxes(workspace: Workspace) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝", 2, label=False)
    first, second = step_ids(workspace)
    regions = [[0, 100, 1080, 260.5], (40, 2000, 500, 2400)]
    assert labels.update_label(workspace.database, first, {"privacy_regions": regions}, person="小王") == 1
    assert revisions(workspace, first) == [
        ("privacy_regions", None, [[0.0, 100.0, 1080.0, 260.5], [40.0, 2000.0, 500.0, 2400.0]], "小王")
    ]
    labels.update_label(workspace.database, first, {"privacy_regions": []}, person="小李")  # none: stored as null
    assert revisions(workspace, first)[-1][1:] == (
        [[0.0, 100.0, 1080.0, 260.5], [40.0, 2000.0, 500.0, 2400.0]],
        None,
        "小李",
    )
    labels.update_label(workspace.database, second, {"privacy_regions": [[10, 20, 30, 40]]})
    with workspace.database.session() as session:
        rows = [session.get(models.Step, step_id) for step_id in (first, second)]
        steps = [trajectories.labelled_step(row) for row in rows]
        assert [step.label.privacy_regions for step in steps] == [(), (Box(10.0, 20.0, 30.0, 40.0),)]
        assert steps[0].label.is_empty()  # no regions, no labels


@pytest.mark.slow
@pytest.mark.parametrize(
    ("regions", "message"),
    [
        ([[0, 0, 1081, 10]], "region 1: [0.0, 0.0, 1081.0, 10.0] is not within the 1080x2400 screen"),
        ([[0, 0, 10, 10], [-1, 0, 10, 10]], "region 2: [-1.0, 0.0, 10.0, 10.0] is not within"),
        ([[10, 10, 0, 20]], "region 1: box corners out of order"),
        ([[10, 10, 10, 20]], "region 1: [10.0, 10.0, 10.0, 20.0] covers no pixel"),
        ([[0, 0, 10]], "region 1: a box needs 4 numbers"),
        ([[0, 0, float("nan"), 10]], "region 1: nan is not a finite number"),
        ([[0, 0, "10", 10]], "region 1: '10' is not a finite number"),
        ([[True, 0, 10, 10]], "region 1: True is not a finite number"),
        ([5], "region 1: expected [x1, y1, x2, y2], got 5"),
        ({"x1": 0}, "privacy_regions: expected a list of boxes, got dict"),
    ],
)
def test_a_privacy_region_off_the_screen_or_malformed_is_refused(
    workspace: Workspace, regions: object, message: str
) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝", 1, label=False)
    (step_id,) = step_ids(workspace)
    before = database_snapshot(workspace)
    with pytest.raises(LabelError, match=re.escape(message)):
        labels.update_label(workspace.database, step_id, {"privacy_regions": regions}, person="小王")
    assert database_snapshot(workspace) == before
