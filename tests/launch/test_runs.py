"""Real `accelerate launch --cpu` runs of the tiny SFT recipe, recorded and followed in a real SQLite workspace:
a run's events land in the database and it ends complete with its checkpoint; a cancelled run leaves no process
of its group behind; a run killed with SIGKILL is failed with its log's tail; a run whose follower and process
are both gone is reaped as failed."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from annotator.storage import training_runs
from annotator.storage.owners import Owner, reap_abandoned
from annotator.storage.training_runs import NewRun
from annotator.storage.workspace import Workspace
from trainer_bridge.cli.runs import runs_command
from trainer_bridge.cli.train import train_command
from trainer_bridge.launch.command import Topology
from trainer_bridge.launch.process import group_members
from trainer_bridge.launch.run import Plan, cancel, follow, launch, sync
from trainer_bridge.launch.settings import parse_sets, resolve


def plan(exports: dict[str, Path], out: Path, **sets: object) -> Plan:
    config = resolve("tiny-sft", {"report_to": ["none"]} | sets)
    return Plan("tiny-sft", config, exports["sft"], out, Topology(gpus=0))


def running(process: psutil.Process) -> bool:
    """Alive and not a zombie (an ended child that a container's pid 1 may never reap)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def wait_for_training(workspace: Workspace, run_id: int) -> None:
    """Until the run has logged a step (the model is built and the group has its workers); not a timing check."""
    deadline = time.monotonic() + 300
    while not training_runs.run_events(workspace.database, run_id, ("log",)):
        assert time.monotonic() < deadline, "the run logged no step in five minutes"
        sync(workspace.database, run_id)
        time.sleep(0.5)


@pytest.mark.slow
@pytest.mark.train
def test_a_cpu_run_is_followed_into_the_database(exports: dict[str, Path], tmp_path: Path) -> None:
    out, data_dir = tmp_path / "run", tmp_path / "ws"
    arguments = [
        "tiny-sft",
        "--data",
        str(exports["sft"]),
        "--output",
        str(out),
        "--data-dir",
        str(data_dir),
        "--set",
        "max_steps=2",
        "--set",
        "save_steps=2",
        "--set",
        "report_to=[none]",
    ]
    result = CliRunner().invoke(train_command, arguments)
    assert result.exit_code == 0, result.output
    assert "step 2/2  loss" in result.output and "Training run 1: complete" in result.output
    with Workspace.open(data_dir) as workspace:
        run = training_runs.get_run(workspace.database, 1)
        events = training_runs.run_events(workspace.database, 1)
    assert run.status == "complete" and run.exit_code == 0 and run.last_step == 2 and run.last_loss is not None
    assert events[0].event == "start" and events[-1].event == "end"
    assert [e.step for e in events if e.event == "checkpoint"] == [2] and (out / "checkpoint-2").is_dir()
    assert run.command[-6:] == [
        "--config",
        str(out / "recipe.yaml"),
        "--data",
        str(exports["sft"]),
        "--output_dir",
        str(out),
    ]
    assert "--cpu" in run.command and run.config["max_steps"] == 2 and len(run.manifest_sha256 or "") == 64
    shown = CliRunner().invoke(runs_command, ["show", "1", "--json", "--data-dir", str(data_dir)])
    assert json.loads(shown.output)["status"] == "complete"


@pytest.mark.slow
@pytest.mark.train
def test_cancel_leaves_no_process_of_the_group(exports: dict[str, Path], tmp_path: Path) -> None:
    with Workspace.open(tmp_path / "ws") as workspace:
        run_id, process = launch(workspace.database, plan(exports, tmp_path / "run", max_steps=500))
        wait_for_training(workspace, run_id)
        members = group_members(process.pid)
        assert process.pid in [member.pid for member in members] and len(members) >= 2  # accelerate and python
        run = cancel(workspace.database, run_id, grace_s=10, process=process)
        assert run.status == "cancelled" and run.ended_at is not None
        assert not group_members(process.pid)
        assert not [member for member in members if running(member)]


@pytest.mark.slow
@pytest.mark.train
def test_a_killed_run_is_failed_with_its_log_tail(exports: dict[str, Path], tmp_path: Path) -> None:
    with Workspace.open(tmp_path / "ws") as workspace:
        run_id, process = launch(workspace.database, plan(exports, tmp_path / "run", max_steps=500))
        wait_for_training(workspace, run_id)
        os.killpg(process.pid, signal.SIGKILL)
        run = follow(workspace.database, run_id, process)
    assert run.status == "failed" and run.exit_code == -signal.SIGKILL
    assert "killed by signal 9" in (run.message or "")
    tail = (run.log_tail or "").splitlines()
    log = (tmp_path / "run" / "train.log").read_text("utf-8").splitlines()
    assert 0 < len(tail) <= 40 and tail == log[-len(tail) :]


def test_a_run_whose_follower_and_process_are_gone_is_reaped_as_failed(tmp_path: Path) -> None:
    gone = psutil.Popen(["true"])
    gone.wait()
    new = NewRun(
        recipe="tiny-sft",
        script="sft",
        stage="sft",
        config={},
        data_dir="d",
        manifest_sha256=None,
        model=None,
        output_dir=str(tmp_path),
        command=["accelerate"],
        launch={},
    )
    with Workspace.open(tmp_path / "ws") as workspace:
        live = training_runs.start_run(workspace.database, new, os.getpid(), psutil.Process().create_time())
        dead = training_runs.start_run(workspace.database, new, gone.pid, gone.create_time())
        for run_id in (live, dead):
            training_runs.take_over(workspace.database, run_id, Owner(os.uname().nodename, gone.pid, 1.0))
        notes = reap_abandoned(workspace.database)
        assert training_runs.get_run(workspace.database, dead).status == "failed"
        assert training_runs.get_run(workspace.database, live).status == "running"  # its training process lives
    assert len(notes) == 1 and f"training run {dead}" in notes[0]


def test_events_are_copied_once(tmp_path: Path) -> None:
    new = NewRun(
        recipe="tiny-sft",
        script="sft",
        stage="sft",
        config={},
        data_dir="d",
        manifest_sha256=None,
        model=None,
        output_dir=str(tmp_path),
        command=["accelerate"],
        launch={},
    )
    (tmp_path / "events.jsonl").write_text(
        '{"event": "start", "time": "2026-01-01T00:00:00+00:00", "max_steps": 4}\n'
        '{"event": "log", "time": "2026-01-01T00:00:01+00:00", "step": 1, "loss": 2.5}\n{"event": "lo',
        "utf-8",
    )  # the last line is still being written
    with Workspace.open(tmp_path / "ws") as workspace:
        run_id = training_runs.start_run(workspace.database, new, os.getpid(), psutil.Process().create_time())
        assert [e.event for e in sync(workspace.database, run_id)] == ["start", "log"]
        assert sync(workspace.database, run_id) == []  # a second follower finds nothing new
        run = training_runs.get_run(workspace.database, run_id)
    assert (run.max_steps, run.last_step, run.last_loss) == (4, 1, 2.5)


def test_unknown_set_is_refused_before_launching() -> None:
    with pytest.raises(ValueError, match="key=value"):
        parse_sets(("max_steps",))
