"""Per-person throughput on a real database: active hours from the gaps between label revisions, steps per hour,
the share of steps a reviewer changed later, and the rejection rate."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from annotator.domain.trajectory import ReviewStatus
from annotator.storage import labels, models
from annotator.storage.workspace import Workspace
from annotator.storage.workspace_statistics import load_team_statistics
from tests.factories import add_trajectory, step_ids

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def label_as_a_team(workspace: Workspace) -> None:
    """小王 labels five steps in 7 active minutes; 张审核 (reviewer) changes one of them afterwards, rejects the
    first trajectory once and accepts both."""
    db = workspace.database
    first = add_trajectory(workspace, "设置", "打开蓝牙", 3, label=False)
    second = add_trajectory(workspace, "设置", "关闭WLAN", 2, seed=1, label=False)
    steps = step_ids(workspace)
    labels.update_label(db, steps[0], {"verdict": "correct"}, person="张审核", role="reviewer")  # makes the role
    # 小王 labels the five steps at 0, 2, 4 minutes, then after a break at 60 and 63 minutes: 7 active minutes
    minutes = {}
    for step, at in zip(steps, (0, 2, 4, 60, 63), strict=True):
        labels.update_label(db, step, {"think": f"想 {at}"}, person="小王")
        minutes[step] = at
    labels.update_label(db, steps[1], {"think": "审核改了"}, person="张审核", role="reviewer")  # after 小王: changed
    with db.session() as session, session.begin():
        R = models.LabelRevision
        rows = session.execute(select(R.id, R.step_id).order_by(R.id)).all()
        times = [START + timedelta(minutes=minutes.get(step, 0) if n else -30) for n, (_id, step) in enumerate(rows)]
        times[-1] = START + timedelta(minutes=70)
        for (revision_id, _step), moment in zip(rows, times, strict=True):
            session.execute(update(R).where(R.id == revision_id).values(created_at=moment))
    labels.set_review(db, first, ReviewStatus.REJECTED, reviewer="张审核", comment="第二步")
    labels.set_review(db, first, ReviewStatus.ACCEPTED, reviewer="张审核")
    labels.set_review(db, second, ReviewStatus.ACCEPTED, reviewer="张审核")


@pytest.mark.slow
def test_throughput_of_an_annotator_and_a_reviewer(workspace: Workspace) -> None:
    label_as_a_team(workspace)
    db = workspace.database
    people = load_team_statistics(db).people.set_index("person")
    wang, reviewer = people.loc["小王"], people.loc["张审核"]
    assert wang["active_hours"] == pytest.approx(7 / 60)
    assert wang["steps_per_hour"] == pytest.approx(5 / (7 / 60))
    assert wang["changed_by_review"] == pytest.approx(1 / 5)  # steps[1], changed by the reviewer afterwards
    assert wang["rejection_rate"] == pytest.approx(1 / 2)  # the first was rejected once, the second never
    assert reviewer["active_hours"] == 0.0  # two changes 100 minutes apart: a break, no active time
    assert math.isnan(reviewer["steps_per_hour"])  # no active time: no pace
    assert reviewer["changed_by_review"] == 0.0
