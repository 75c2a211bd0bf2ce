"""A training process in a process group of its own: started, looked for, and stopped with every process it
started (accelerate's workers, data loaders, compile workers), the way Vorta stops a job: terminate the group,
wait, kill what is left.

The group's id is the leader's pid (`start_new_session=True`). A leader is told from a process that reused its
pid by its start time; a group outlives its leader while any member lives, and Linux hands out no pid that is
still a group's id, so signalling the group is safe while it has members.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import psutil

from annotator.storage.processes import pid_reused, process_alive

GRACE_S = 20.0  # a trainer saving a checkpoint on SIGTERM gets this long before SIGKILL


def start_group(argv: Sequence[str], log: Path, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, float]:
    """Start `argv` as the leader of a new session and process group, stdout and stderr appended to `log`;
    the process and its start time."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as out:  # the child holds its own copy of the descriptor
        process = subprocess.Popen(
            list(argv), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env
        )
    try:
        started = psutil.Process(process.pid).create_time()
    except psutil.NoSuchProcess:  # ended already (a bad interpreter path): its exit status says why
        started = time.time()
    return process, started


def leader_alive(pid: int, started: float | None) -> bool:
    """Whether the group's leader still runs (a zombie has ended; a reused pid is another process)."""
    return process_alive(pid, started)


def group_members(pgid: int) -> list[psutil.Process]:
    """The live (not zombie) processes of group `pgid`."""
    members = []
    for process in psutil.process_iter():
        try:
            if os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE:
                members.append(process)
        except (ProcessLookupError, psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return members


def _wait_empty(pgid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while group_members(pgid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


def stop_group(pid: int, started: float | None, grace_s: float = GRACE_S) -> bool:
    """SIGTERM to the group led by `pid`, up to `grace_s` for it to end, then SIGKILL; True once none is left."""
    if pid_reused(pid, started) or not group_members(pid):  # a reused pid: the group is not the run's
        return True
    _signal(pid, signal.SIGTERM)
    if _wait_empty(pid, grace_s):
        return True
    _signal(pid, signal.SIGKILL)
    return _wait_empty(pid, 10.0)


def _signal(pgid: int, number: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):  # the group ended meanwhile
        os.killpg(pgid, number)
