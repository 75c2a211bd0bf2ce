"""Runs whose process is gone (killed, a reused pid, another host silent past the lease) are told from live ones:
collection runs become interrupted, judge runs stopped; live ones are left alone and cannot be taken."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import psutil
import pytest
from sqlalchemy import update

from annotator.domain.judge_settings import ImagePolicy, JudgeSettings
from annotator.domain.trajectory import CollectorKind
from annotator.storage import collection, judging, models, owners
from annotator.storage.models import utcnow
from annotator.storage.workspace import Workspace
from tests.postgres import database_url


def ended_process() -> tuple[int, float]:
    """The pid and start time of a process that has ended (and been waited for)."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5)"])
    started = psutil.Process(process.pid).create_time()
    process.wait()
    return process.pid, started


def collecting_run(workspace: Workspace) -> int:
    instruction = collection.add_instruction(workspace.database, "设置", "打开蓝牙")
    return collection.start_trajectory(workspace.database, instruction, collection.Collector(CollectorKind.HUMAN))


def set_owner(workspace: Workspace, model: type[models.OwnedRun], run_id: int, **values: object) -> None:
    with workspace.database.session() as session, session.begin():
        session.execute(update(model).where(model.id == run_id).values(**values))


def reopened_status(workspace: Workspace, model: type[models.OwnedRun], run_id: int) -> tuple[str, str | None]:
    with (
        Workspace.open(workspace.data_dir, database_url(workspace)) as reopened,
        reopened.database.session() as session,
    ):
        run = session.get(model, run_id)
        assert run is not None
        return run.status, run.stop_reason if model is models.Trajectory else run.message


def test_a_live_run_is_left_collecting_and_cannot_be_taken(workspace: Workspace) -> None:
    run = collecting_run(workspace)
    assert reopened_status(workspace, models.Trajectory, run) == ("collecting", None)
    with pytest.raises(ValueError, match=r"is being collected by pid \d+ on .*once that process has stopped"):
        collection.resume_trajectory(workspace.database, run)
    with pytest.raises(ValueError, match="is being collected by pid"):
        collection.close_trajectory(workspace.database, run)


@pytest.mark.slow
@pytest.mark.parametrize("owner", ["ended", "pid reused", "none recorded"])
def test_a_run_whose_process_is_gone_becomes_interrupted_and_resumable(workspace: Workspace, owner: str) -> None:
    run = collecting_run(workspace)
    if owner == "ended":
        pid, started = ended_process()
        set_owner(workspace, models.Trajectory, run, owner_pid=pid, owner_started=started)
    elif owner == "pid reused":  # this process's pid, but the run's owner started an hour earlier
        set_owner(workspace, models.Trajectory, run, owner_started=psutil.Process().create_time() - 3600)
    else:  # a run left collecting before owners were recorded
        set_owner(workspace, models.Trajectory, run, owner_host=None, owner_pid=None, owner_started=None)
    status, reason = reopened_status(workspace, models.Trajectory, run)
    assert status == "interrupted" and reason is not None and reason.startswith("process gone: ")
    assert collection.resume_trajectory(workspace.database, run).stopped == reason
    assert reopened_status(workspace, models.Trajectory, run)[0] == "collecting"  # this process owns it now


def test_another_hosts_run_is_given_up_only_when_its_lease_expired(workspace: Workspace) -> None:
    recent, silent = collecting_run(workspace), collecting_run(workspace)
    elsewhere = {"owner_host": "collector-2.lab", "owner_pid": 4242, "owner_started": 1.0}
    set_owner(workspace, models.Trajectory, recent, **elsewhere, heartbeat_at=utcnow() - timedelta(minutes=5))
    set_owner(workspace, models.Trajectory, silent, **elsewhere, heartbeat_at=utcnow() - owners.LEASE * 2)
    assert reopened_status(workspace, models.Trajectory, recent)[0] == "collecting"
    status, reason = reopened_status(workspace, models.Trajectory, silent)
    assert status == "interrupted" and "(pid 4242 on collector-2.lab) has not been heard from since" in str(reason)


def test_a_judge_run_left_running_by_a_dead_process_is_stopped(workspace: Workspace) -> None:
    settings = JudgeSettings("mobile-r1", "rubric", "judge-model", 0.0, 0, ImagePolicy())
    config = judging.ensure_config(workspace.database, settings)
    live = judging.start_run(workspace.database, config, "http://127.0.0.1:9/v1", 4, {}, 10)
    dead = judging.start_run(workspace.database, config, "http://127.0.0.1:9/v1", 4, {}, 10)
    pid, started = ended_process()
    set_owner(workspace, models.JudgeRun, dead, owner_pid=pid, owner_started=started)
    assert reopened_status(workspace, models.JudgeRun, live) == ("running", None)
    status, message = reopened_status(workspace, models.JudgeRun, dead)
    assert (
        status == "stopped"
        and message == f"process gone: its process (pid {pid} on {owners.this_process().host}) is gone"
    )


def test_each_recorded_step_and_judge_answer_is_a_heartbeat(workspace: Workspace, tmp_path: Path) -> None:
    from tests.factories import make_png

    run = collecting_run(workspace)
    set_owner(workspace, models.Trajectory, run, heartbeat_at=None)
    collection.record_step(workspace.database, workspace.blobs, run, collection.Observation(make_png(), None))
    with workspace.database.session() as session:
        trajectory = session.get(models.Trajectory, run)
        assert trajectory is not None and trajectory.heartbeat_at is not None
    settings = JudgeSettings("mobile-r1", "rubric", "judge-model", 0.0, 0, ImagePolicy())
    config = judging.ensure_config(workspace.database, settings)
    judge_run = judging.start_run(workspace.database, config, "http://127.0.0.1:9/v1", 4, {}, 1)
    set_owner(workspace, models.JudgeRun, judge_run, heartbeat_at=None)
    judging.save_score(
        workspace.database, config, judge_run, run, judging.ScoreRecord(3, "ok", "{}", None, None, 1.0, 1)
    )
    with workspace.database.session() as session:
        stored = session.get(models.JudgeRun, judge_run)
        assert stored is not None and stored.heartbeat_at is not None
