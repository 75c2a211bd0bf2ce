"""Whether a process recorded by its pid and start time still runs: a run's owner (owners) and a training
process group's leader (trainer_bridge.launch.process) are told apart from a process that reused the pid.

Here, in storage, because storage is where runs record their processes and decide they are gone, and the trainer
bridge already reads those records through it; the domain stays free of the operating system's state.
"""

from __future__ import annotations

SAME_START_S = 1.0  # psutil's start times of one process agree far closer than this


def process_alive(pid: int, started: float | None) -> bool:
    """Whether `pid` still runs and, when `started` is given, is the process that started then: an ended
    process not yet waited for (a zombie) has ended, a reused pid is another process; another user's process
    that may not be looked at is taken to be alive."""
    import psutil  # here, not at the top: a start with no run left running has no use for it (~20 ms)

    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return False
        return started is None or _same_start(process.create_time(), started)
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:
        return True


def pid_reused(pid: int, started: float | None) -> bool:
    """Whether `pid` is now held by another process than the one that started at `started` (False when no
    process has it, when `started` is unknown, or when it may not be looked at)."""
    if started is None:
        return False
    import psutil

    try:
        return not _same_start(psutil.Process(pid).create_time(), started)
    except psutil.Error:
        return False


def _same_start(created: float, started: float) -> bool:
    return abs(created - started) < SAME_START_S


def this_process_start() -> tuple[int, float]:
    """This process's pid and start time, as `process_alive` compares them."""
    import psutil

    process = psutil.Process()
    return process.pid, process.create_time()
