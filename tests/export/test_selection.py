"""Which trajectories an export takes: review state, app, annotator, judge score and collection date."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest
from sqlalchemy import select, update

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.storage import judging, labels, models
from annotator.storage.judging import ScoreRecord
from annotator.storage.selection import selected_keys
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from trainer_bridge.export.run import EXPORT_DEFAULT

pytestmark = pytest.mark.slow


@pytest.fixture
def three(workspace: Workspace) -> list[int]:
    """Taobao (labelled by 小王, judge 4, March), Douyin (小王, then 小李; judge 1, May), Settings (unlabelled)."""
    ids = [
        add_trajectory(workspace, "淘宝", "搜索耳机", 2, seed=1),
        add_trajectory(workspace, "抖音", "关注作者", 2, seed=2),
        add_trajectory(workspace, "设置", "打开蓝牙", 2, seed=3, label=False),
    ]
    with workspace.database.session() as session:
        douyin_step = session.scalars(select(models.Step.id).where(models.Step.trajectory_id == ids[1])).first()
    labels.update_label(workspace.database, douyin_step, {"think": "换个说法"}, person="小李")
    with workspace.database.session() as session, session.begin():
        for trajectory_id, month in zip(ids, (3, 5, 7), strict=True):
            session.execute(
                update(models.Trajectory)
                .where(models.Trajectory.id == trajectory_id)
                .values(started_at=datetime(2026, month, 1))
            )
    config = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "judge"))
    for trajectory_id, reward in zip(ids, (4, 1, None), strict=True):
        record = ScoreRecord(reward, "ok", "{}", None if reward is not None else "no JSON", None, None, 0)
        judging.save_score(workspace.database, config, None, trajectory_id, record)
    return ids


def chosen(workspace: Workspace, **selection: object) -> list[int]:
    return [key.trajectory_id for key in selected_keys(workspace.database, replace(EXPORT_DEFAULT, **selection))[1]]


def test_each_filter_narrows_the_selection(workspace: Workspace, three: list[int]) -> None:
    taobao, douyin, settings = three
    everything = ("unlabelled", "in_progress", "annotated", "accepted", "rejected")
    assert chosen(workspace) == [taobao, douyin]  # accepted only, by default
    assert chosen(workspace, review_states=everything) == three
    assert chosen(workspace, review_states=everything, apps=("设置",)) == [settings]
    assert chosen(workspace, annotators=("小李",)) == [douyin]
    assert chosen(workspace, annotators=("小王",)) == [taobao, douyin]
    assert chosen(workspace, min_judge_score=3) == [taobao]
    assert chosen(workspace, review_states=everything, since=datetime(2026, 4, 1)) == [douyin, settings]
    assert chosen(workspace, review_states=everything, until=datetime(2026, 5, 1)) == [taobao]
    assert chosen(workspace, trajectory_ids=(douyin,)) == [douyin]
