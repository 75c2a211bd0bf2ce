"""A real `annotator collect` killed mid-run (SIGKILL) is recognised as gone: `--resume` finishes it, `--close` closes
it; while its process lives nobody else may take it; SIGTERM stops it after the step, as Ctrl+C does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from annotator.cli.root import cli
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.storage import models
from annotator.storage.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # each test runs and kills a collecting process


def environment(data: Path, port: int) -> dict[str, str]:
    kept = {key: value for key, value in os.environ.items() if not key.startswith("ANNOTATOR_")}
    return kept | {"ANDROID_ADB_SERVER_PORT": str(port), "ANNOTATOR_DATA_DIR": str(data)}


def annotator(data: Path, port: int, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=environment(data, port), input=stdin, catch_exceptions=False)


class Collector:
    """`annotator collect` by teleoperation in a process of its own, driven through its stdin."""

    def __init__(self, data: Path, port: int, instruction: str) -> None:
        command = [sys.executable, "-m", "annotator", "collect", "--app", "设置", "--instruction", instruction]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=environment(data, port),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def step(self, command: str) -> None:
        """Send a command and wait until its step is recorded."""
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        seen = []
        for line in self.process.stdout:
            seen.append(line)
            if line.lstrip().startswith("step "):
                return
        raise AssertionError(f"the collector ended (exit {self.process.wait()}): {''.join(seen)}")

    def stop(self) -> None:
        self.process.kill()
        self.process.communicate(timeout=30)


@pytest.fixture
def collectors(tmp_path: Path, server: VirtualAdbServer) -> Iterator[list[Collector]]:
    started: list[Collector] = []
    yield started
    for collector in started:
        collector.stop()


def only_trajectory(data: Path, instruction: str) -> models.Trajectory:
    with Workspace.open(data) as workspace, workspace.database.session() as session:
        query = select(models.Trajectory).join(models.Instruction).where(models.Instruction.text == instruction)
        query = query.options(selectinload(models.Trajectory.steps))
        return session.scalars(query).one()


def test_a_run_killed_with_sigkill_is_resumed_and_another_is_closed(
    tmp_path: Path, server: VirtualAdbServer, collectors: list[Collector]
) -> None:
    data = tmp_path / "data"
    first = Collector(data, server.port, "看看存储空间")
    collectors.append(first)
    first.step("open 设置")
    running = only_trajectory(data, "看看存储空间")
    assert running.status == "collecting" and running.owner_pid == first.process.pid

    taken = annotator(data, server.port, "collect", "--resume", str(running.id), stdin="done\n")
    assert taken.exit_code == 1 and f"is being collected by pid {first.process.pid}" in taken.output
    closed_live = annotator(data, server.port, "collect", "--close", str(running.id))
    assert closed_live.exit_code == 1 and only_trajectory(data, "看看存储空间").status == "collecting"

    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait(timeout=30)
    resumed = annotator(data, server.port, "collect", "--resume", str(running.id), stdin="back\ndone\n")
    assert resumed.exit_code == 0, resumed.output
    assert f"resuming trajectory {running.id} (process gone: its process (pid {first.process.pid}" in resumed.output
    assert "3 steps, complete (terminate)" in resumed.output
    finished = only_trajectory(data, "看看存储空间")
    assert (finished.status, finished.outcome, finished.ended_at is not None) == ("complete", "success", True)

    second = Collector(data, server.port, "打开蓝牙")
    collectors.append(second)
    second.step("open 设置")
    second.step("back")
    os.kill(second.process.pid, signal.SIGKILL)
    second.process.wait(timeout=30)
    abandoned = only_trajectory(data, "打开蓝牙")
    closed = annotator(data, server.port, "collect", "--close", str(abandoned.id))
    assert closed.exit_code == 0 and f"closed trajectory {abandoned.id} (process gone: its process" in closed.output
    kept = only_trajectory(data, "打开蓝牙")
    assert (kept.status, len(kept.steps), kept.ended_at is not None) == ("interrupted", 2, True)
    assert kept.stop_reason.endswith("is gone; closed")


@pytest.mark.parametrize("stop_signal", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_after_the_step_like_ctrl_c(
    tmp_path: Path, server: VirtualAdbServer, collectors: list[Collector], stop_signal: str
) -> None:
    data = tmp_path / "data"
    collector = Collector(data, server.port, "看看存储空间")
    collectors.append(collector)
    collector.step("open 设置")
    collector.process.send_signal(getattr(signal, stop_signal))
    assert collector.process.stdin
    collector.process.stdin.write("back\n")  # the step it may be waiting for; stdin stays open (its end stops a run)
    collector.process.stdin.flush()
    assert collector.process.wait(timeout=30) == 1  # the run is not done: a script must notice
    assert collector.process.stdout
    said = collector.process.stdout.read()
    assert "stopping after this step" in said and "NOT DONE: interrupted: " in said
    stopped = only_trajectory(data, "看看存储空间")
    assert (stopped.status, stopped.stop_reason) == ("interrupted", "stopped by the user")
    assert len(stopped.steps) in (1, 2)  # the signal came before or while the next step was decided
