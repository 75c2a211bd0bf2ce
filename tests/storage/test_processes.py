"""Process liveness with real processes: a live one, one that ended, a zombie not yet waited for, and a pid whose
recorded start time is another process's."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import psutil
import pytest

from annotator.storage.processes import SAME_START_S, pid_reused, process_alive


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    yield process
    process.kill()
    process.wait()


def started(pid: int) -> float:
    return psutil.Process(pid).create_time()


def test_a_live_process_is_alive_with_its_start_time_or_none(sleeper: subprocess.Popen[bytes]) -> None:
    assert process_alive(sleeper.pid, started(sleeper.pid)) and process_alive(sleeper.pid, None)
    assert process_alive(os.getpid(), started(os.getpid()))
    assert not pid_reused(sleeper.pid, started(sleeper.pid))


def test_another_start_time_is_another_process_that_reused_the_pid(sleeper: subprocess.Popen[bytes]) -> None:
    earlier = started(sleeper.pid) - 10 * SAME_START_S
    assert not process_alive(sleeper.pid, earlier) and pid_reused(sleeper.pid, earlier)
    assert not pid_reused(sleeper.pid, None)  # nothing recorded to compare with


def test_an_ended_process_is_gone_and_its_pid_not_reused() -> None:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    when = started(process.pid)
    process.wait()
    assert not process_alive(process.pid, when) and not process_alive(process.pid, None)
    assert not pid_reused(process.pid, when)


def test_a_zombie_has_ended() -> None:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    when = started(process.pid)
    try:
        deadline = time.monotonic() + 10
        while psutil.Process(process.pid).status() != psutil.STATUS_ZOMBIE:  # ended, not yet waited for
            assert time.monotonic() < deadline, "the child did not end"
            time.sleep(0.02)
        assert not process_alive(process.pid, when)
    finally:
        process.wait()
