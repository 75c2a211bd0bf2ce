"""Helpers of the fault suite: the app's commands in real processes, killed or starved of disk where a test says,
and what a person runs after a crash (`annotator db check`)."""

from __future__ import annotations

import errno
import functools
import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from click.testing import CliRunner

from annotator.cli.root import cli

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 60.0  # how long a test waits for a process to reach the point where it is killed


def environment() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if not key.startswith("ANNOTATOR_")}


def start(command: Sequence[str], *, file_limit: int | None = None) -> subprocess.Popen[str]:
    """`command` (argv after the Python interpreter) in a process of its own; with `file_limit`, no file it
    writes may grow past that many bytes: the write fails with EFBIG, as on a disk with no room left."""

    def limit_files(limit: int) -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead of the process being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    limited = None if file_limit is None else functools.partial(limit_files, file_limit)
    return subprocess.Popen(
        [sys.executable, *command],
        cwd=ROOT,
        env=environment(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limited,
    )


def annotator(data: Path, *args: str, file_limit: int | None = None) -> subprocess.CompletedProcess[str]:
    """`annotator --data-dir DATA ARGS` run to its end."""
    process = start(["-m", "annotator", "--data-dir", str(data), *args], file_limit=file_limit)
    stdout, stderr = process.communicate(timeout=120)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def wait_until(reached: Callable[[], bool], process: subprocess.Popen[str], what: str) -> None:
    """Poll until `reached`; fail when the process ends first (it never got there)."""
    deadline = time.monotonic() + WAIT_S
    while not reached():
        if process.poll() is not None:
            output = process.communicate()
            raise AssertionError(f"the process ended ({process.returncode}) before {what}: {output}")
        assert time.monotonic() < deadline, f"the process did not get to {what} in {WAIT_S} s"
        time.sleep(0.02)


def kill(process: subprocess.Popen[str]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL


def open_fifo_writer(fifo: Path, process: subprocess.Popen[str]) -> int:
    """Open a named pipe for writing once `process` has opened it for reading: the process is then inside the
    read of that file (a deterministic point to stop it at). Returns the descriptor."""
    descriptor = -1

    def opened() -> bool:
        nonlocal descriptor
        try:
            descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno != errno.ENXIO:  # ENXIO: nobody reads it yet
                raise
            return False
        return True

    wait_until(opened, process, f"reading {fifo.name}")
    os.set_blocking(descriptor, True)
    return descriptor


def db_check(data: Path, *, fix: bool = False) -> dict[str, int]:
    """`annotator db check --json` (with --fix when asked), as a person runs it after a crash (in this process:
    what it checks is on disk)."""
    checked = CliRunner().invoke(cli, ["--data-dir", str(data), "db", "check", "--json", *(["--fix"] if fix else [])])
    assert checked.output.strip(), checked.exception
    return json.loads(checked.output.strip().splitlines()[-1])


def assert_checks_clean(data: Path) -> None:
    """`annotator db check` after a fault: no blob missing, corrupt, unreferenced or half-written, no run left
    as running by a dead process."""
    found = db_check(data)
    counts = (found["unreferenced"], found["missing"], found["corrupt"], found["temporaries"])
    assert counts == (0, 0, 0, 0), found
    assert db_check(data)["reaped"] == 0, "the first check reaped every dead run"


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    """The single line a failed command printed: no traceback, a non-zero exit."""
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert result.returncode == 1 and len(lines) == 1, result.stdout + result.stderr
    assert lines[0].startswith("Error: "), lines[0]
    return lines[0]
