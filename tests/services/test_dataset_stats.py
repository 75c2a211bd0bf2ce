"""The statistics service on a small dataset whose every number is known, built through the real write paths."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import select

from annotator.domain.counting import Counting
from annotator.domain.trajectory import CollectorKind, Outcome, ReviewStatus, TrajectoryStatus
from annotator.services import dataset_stats, stats
from annotator.services.annotation import Editor
from annotator.storage import collection, labels, models
from annotator.storage.throughput import THROUGHPUT_COLUMNS
from annotator.storage.workspace import Workspace
from tests.factories import click, make_png

pytestmark = pytest.mark.slow

SWIPE = {"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [500, 1600], "coordinate2": [500, 600]}}
TERMINATE = {"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}


def step_id(workspace: Workspace, trajectory_id: int, index: int) -> int:
    with workspace.database.session() as session:
        trajectory = session.get(models.Trajectory, trajectory_id)
        assert trajectory is not None
        return next(step.id for step in trajectory.steps if step.index == index)


def trajectory_ids(workspace: Workspace) -> list[int]:
    with workspace.database.session() as session:
        return list(session.scalars(select(models.Trajectory.id).order_by(models.Trajectory.id)))


def second_run(workspace: Workspace, instruction_id: int) -> int:
    """Another agent run of an instruction: click, a reply without a tool call, click, terminate; no labels."""
    db = workspace.database
    trajectory_id = collection.start_trajectory(db, instruction_id, collection.Collector(CollectorKind.AGENT))
    for index, tool_call in enumerate([click(10, 20), None, click(30, 40), TERMINATE]):
        observation = collection.Observation(make_png(seed=900 + index), tool_call, model_reply="……")
        collection.record_step(db, workspace.blobs, trajectory_id, observation)
    collection.finish_trajectory(db, trajectory_id, TrajectoryStatus.COMPLETE, Outcome.SUCCESS)
    return trajectory_id


@pytest.fixture
def known(populated: Workspace) -> Workspace:
    """`populated` (淘宝 3 and 2 steps, 抖音 2 steps; 小王 labelled two, 李审核 accepted them) plus:

    a second 抖音 run of 4 steps; 小李 relabels the unlabelled 淘宝 run's first step as a swipe, submits it and
    李审核 rejects it; 小李 sets the new run's outcome; a label written without a name.
    """
    _first, second, unlabelled = trajectory_ids(populated)
    with populated.database.session() as session:
        douyin_instruction = session.get(models.Trajectory, second).instruction_id  # type: ignore[union-attr]
    fourth = second_run(populated, douyin_instruction)
    editor = Editor(populated, unlabelled, "小李")
    editor.change(step_id(populated, unlabelled, 0), {"tool_call": SWIPE, "think": "向上滑动找到店铺"})
    labels.submit_for_review(populated.database, unlabelled)  # handed on unfinished, as older versions allowed
    labels.set_review(populated.database, unlabelled, ReviewStatus.REJECTED, reviewer="李审核", comment="不对")
    Editor(populated, fourth, "小李").set_outcome("failure")
    labels.update_label(populated.database, step_id(populated, fourth, 2), {"verdict": "wrong"})
    return populated


def records(table: pd.DataFrame) -> list[tuple]:
    return [tuple(None if pd.isna(v) else v for v in row) for row in table.itertuples(index=False)]


def test_per_app_table_and_totals_are_mobile_r1_table_2_and_6(known: Workspace) -> None:
    stats = dataset_stats.compute(known.database)
    assert list(stats.per_app.columns) == dataset_stats.PER_APP_COLUMNS
    # 抖音: one instruction run twice (2 + 4 steps); 淘宝: two instructions (3 + 2 steps); most steps first
    assert records(stats.per_app) == [("抖音", 1, 2, 6, 3.0), ("淘宝", 2, 2, 5, 2.5)]
    assert stats.totals == dataset_stats.Totals(apps=2, instructions=3, trajectories=4, steps=11)
    assert stats.totals.mean_steps == pytest.approx(2.75)
    assert not stats.is_empty()


def test_trajectory_length_histogram_has_a_row_for_every_length(known: Workspace) -> None:
    stats = dataset_stats.compute(known.database)
    assert records(stats.lengths) == [(1, 0), (2, 2), (3, 1), (4, 1)]  # lengths 2, 2, 3, 4


def test_action_types_count_the_labelled_action_before_the_collected_one(known: Workspace) -> None:
    stats = dataset_stats.compute(known.database)
    # click: 3 labelled (小王's two trajectories) + 2 collected (the new run); the swipe is 小李's relabelled
    # click; terminate: 2 labelled + 2 collected; one reply had no tool call at all
    assert records(stats.actions) == [
        ("click", 5, 3, 2),
        ("terminate", 4, 2, 2),
        ("swipe", 1, 1, 0),
        (None, 1, 0, 1),
    ]
    assert int(stats.actions["steps"].sum()) == stats.totals.steps
    assert "label_action" in stats.action_source and "raw_action" in stats.action_source


def test_people_show_labelling_reviews_and_how_their_work_was_judged(known: Workspace) -> None:
    stats = dataset_stats.compute(known.database)
    assert list(stats.people.columns) == dataset_stats.PEOPLE_COLUMNS
    assert records(stats.people.drop(columns=THROUGHPUT_COLUMNS)) == [
        # person, trajectories, steps, revisions, reviews, accepted, rejected, awaiting review
        ("小李", 2, 1, 3, 0, 0, 1, 0),  # a step of the rejected run + the outcome of the run in progress
        ("小王", 2, 5, 20, 0, 2, 0, 0),  # four fields on each of five steps, both runs accepted
        (None, 1, 1, 1, 0, 0, 0, 0),  # the label written without a name
        ("李审核", 0, 0, 0, 3, 0, 0, 0),
    ]


def test_review_progress_lists_every_state_in_workflow_order(known: Workspace) -> None:
    stats = dataset_stats.compute(known.database)
    assert records(stats.review) == [
        ("unlabelled", 0),
        ("in_progress", 1),
        ("annotated", 0),
        ("accepted", 2),
        ("rejected", 1),
    ]


def test_an_empty_database_gives_empty_tables_with_their_columns(workspace: Workspace) -> None:
    stats = dataset_stats.compute(workspace.database)
    assert stats.is_empty()
    assert stats.totals == dataset_stats.Totals()
    assert stats.totals.mean_steps == 0.0
    for name in ("per_app", "trajectory_lengths", "action_types", "people"):
        assert stats.tables()[name].empty, name
    assert records(stats.review) == [(str(status), 0) for status in ReviewStatus]


def test_csv_files_read_back_as_the_tables(known: Workspace, tmp_path: Path) -> None:
    stats = dataset_stats.compute(known.database)
    written = dataset_stats.write_csvs(stats, tmp_path / "out")
    assert [path.name for path in written] == [f"dataset_{name}.csv" for name in dataset_stats.TABLE_NAMES]
    for path, (name, table) in zip(written, stats.tables().items(), strict=True):
        read = pd.read_csv(path, encoding="utf-8")
        assert list(read.columns) == list(table.columns), name
        assert records(read) == records(table), name


def test_a_submission_for_review_is_not_counted_as_a_review(known: Workspace) -> None:
    before = dataset_stats.compute(known.database).people.set_index("person")["reviews"].to_dict()
    with known.database.session() as session:
        trajectory = session.scalars(select(models.Trajectory.id)).first()
    assert trajectory is not None and "小王" in before
    labels.set_review(known.database, trajectory, ReviewStatus.ANNOTATED, reviewer="小王", comment="提交审核")
    after = dataset_stats.compute(known.database).people.set_index("person")["reviews"].to_dict()
    assert after == before


def test_annotator_stats_counts_as_the_view_does_and_adds_the_instructions_not_run_yet(known: Workspace) -> None:
    collection.add_instruction(known.database, "淘宝", "打开淘宝，查看订单")  # in the pool, never run
    collection.add_instruction(known.database, "美团", "打开美团，点一杯咖啡")  # an app with no trajectory at all
    view, counts = dataset_stats.compute(known.database), stats.dataset_stats(known.database, Counting.ROWS)
    assert (counts["trajectories"], counts["steps"]) == (view.totals.trajectories, view.totals.steps) == (4, 11)
    assert counts["steps_per_action"] == {"click": 5, "terminate": 4, "swipe": 1, stats.NO_ACTION: 1}
    assert counts["steps_per_action"] == {
        action or stats.NO_ACTION: steps for action, steps, *_ in records(view.actions)
    }
    run = {app: (trajectories, steps) for app, _, trajectories, steps, _ in records(view.per_app)}
    every_app = {app: (row["trajectories"], row["steps"]) for app, row in counts["per_app"].items()}
    assert every_app == run | {"美团": (0, 0)}
    assert run == {"抖音": (2, 6), "淘宝": (2, 5)}
    # The pool: every stored instruction and app, where Table 2 counts those with a trajectory.
    assert (counts["apps"], counts["instructions"]) == (3, 5) and (view.totals.apps, view.totals.instructions) == (2, 3)
    assert {app: row["instructions"] for app, row in counts["per_app"].items()} == {"抖音": 1, "淘宝": 3, "美团": 1}
    assert counts["trajectories_per_review_status"] == dict(records(view.review))
    assert json.loads(json.dumps(counts)) == counts  # plain numbers: `annotator stats --json` prints them
