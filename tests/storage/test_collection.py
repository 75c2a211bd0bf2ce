import threading

import pytest
from sqlalchemy import select

from annotator.domain.trajectory import CollectorKind, Outcome, ReviewStatus, TrajectoryStatus, Verdict
from annotator.storage import collection, models
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, click, database_snapshot, make_png
from tests.postgres import database_url


def test_steps_are_stored_as_they_happen_with_their_blobs(workspace: Workspace) -> None:
    db = workspace.database
    instruction_id = collection.add_instruction(db, "设置", "打开设置，开启深色模式", package="com.android.settings")
    trajectory_id = collection.start_trajectory(db, instruction_id, collection.Collector(CollectorKind.HUMAN, "小王"))
    png = make_png(720, 1600, seed=4)
    collection.record_step(db, workspace.blobs, trajectory_id, collection.Observation(png, click(10, 20)))
    # a second session sees the step at once: nothing waits for the end of the trajectory
    with db.session() as session:
        step = session.scalars(select(models.Step)).one()
        blob = session.get(models.Blob, step.screenshot_sha256)
        assert (step.screen_width, step.screen_height, step.raw_action) == (720, 1600, "click")
        assert (blob.width, blob.height, blob.size, blob.media_type) == (720, 1600, len(png), "image/png")
    assert workspace.blobs.read_bytes(step.screenshot_sha256) == png


def test_runs_of_one_instruction_are_numbered(workspace: Workspace) -> None:
    db = workspace.database
    instruction_id = collection.add_instruction(db, "淘宝", "打开淘宝")
    collector = collection.Collector(CollectorKind.AGENT, agent_model="qwen2.5-vl-3b")
    ids = [collection.start_trajectory(db, instruction_id, collector) for _ in range(3)]
    with db.session() as session:
        assert [session.get(models.Trajectory, i).run_number for i in ids] == [1, 2, 3]


def test_a_corrupt_screenshot_is_refused_and_nothing_is_recorded(workspace: Workspace) -> None:
    db = workspace.database
    trajectory_id = collection.start_trajectory(
        db, collection.add_instruction(db, "淘宝", "打开淘宝"), collection.Collector(CollectorKind.HUMAN)
    )
    before = database_snapshot(workspace)
    truncated = make_png(seed=5)[:200]
    with pytest.raises(ValueError, match="not a readable image"):
        collection.record_step(db, workspace.blobs, trajectory_id, collection.Observation(truncated, click(1, 1)))
    assert database_snapshot(workspace) == before


@pytest.mark.slow
def test_a_stored_trajectory_reads_back_as_domain_types(workspace: Workspace) -> None:
    trajectory_id = add_trajectory(workspace, "抖音", "打开抖音，点赞第一个视频", 2, seed=6)
    loaded = load_trajectory(workspace.database, trajectory_id)
    assert (loaded.app, loaded.instruction) == ("抖音", "打开抖音，点赞第一个视频")
    assert (loaded.status, loaded.outcome, loaded.review_status) == (
        TrajectoryStatus.COMPLETE,
        Outcome.SUCCESS,
        ReviewStatus.ACCEPTED,
    )
    first, last = loaded.steps
    assert first.raw.tool_call == click(100, 200) and first.raw.screen.width == 1080
    assert first.label.think == "当前在第 0 步" and first.label.verdict is Verdict.CORRECT
    assert last.raw.tool_call["arguments"]["action"] == "terminate"
    with pytest.raises(LookupError):
        load_trajectory(workspace.database, 999)


def test_runs_started_at_once_from_two_connections_get_distinct_run_numbers(workspace: Workspace) -> None:
    """Two phones starting runs of one instruction at the same moment (two connections; on PostgreSQL writers run
    side by side): each run gets a number of its own."""
    instruction = collection.add_instruction(workspace.database, "设置", "打开设置")
    collector = collection.Collector(CollectorKind.AGENT, agent_model="m", agent_endpoint="http://h/v1")
    with Workspace.open(workspace.data_dir, database_url(workspace)) as other:
        start = threading.Barrier(2)

        def start_runs(opened: Workspace) -> None:
            start.wait()
            for _ in range(15):
                collection.start_trajectory(opened.database, instruction, collector)

        threads = [threading.Thread(target=start_runs, args=(opened,)) for opened in (workspace, other)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    with workspace.database.session() as session:
        numbers = session.scalars(select(models.Trajectory.run_number)).all()
    assert sorted(numbers) == list(range(1, 31))
