"""One step of the demo's loop as a child process: started in a session of its own, waited for while its progress
is read, and stopped on request the way a person at the terminal would stop it.

Stopping sends SIGINT to the child alone: every step is a `trainer-bridge` command, which treats it as Ctrl+C
(an export removes its half-written folder; `train` cancels its run through the launcher, so the run's own process
group is stopped and the run ends "cancelled" in the database). Only a child that has not ended after
`CANCEL_GRACE_S` has its whole group killed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

POLL_S = 0.5
# `train` gives its run's processes 20 s after SIGTERM (the launcher's GRACE_S) before it kills them; then it exits.
CANCEL_GRACE_S = 40.0


class Cancelled(Exception):
    """The loop was cancelled; the step that was running ended without its result."""


class Child:
    """The running step's process, shared between the thread that waits for it and the one that cancels."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._cancel = threading.Event()
        self._cancelled_at: float | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Ask the running step to stop (returns at once; `run` waits for the step to end)."""
        self._cancel.set()
        with self._lock:
            if self._process is not None and self._process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self._process.pid, signal.SIGINT)

    def run(self, argv: Sequence[str], log: Path, on_tick: Callable[[], None], env: dict[str, str]) -> int:
        """Run `argv` to its end, output appended to `log`, `on_tick()` every POLL_S; its exit status.
        Cancelled (raised once the child and its group are gone) when the loop is cancelled before or meanwhile."""
        if self.cancelled:
            raise Cancelled
        with self._lock, open(log, "ab") as out:
            self._process = subprocess.Popen(
                list(argv),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env=env,
            )
        process = self._process
        if self.cancelled:  # cancelled while it was starting: it missed the signal
            self.cancel()
        try:
            try:
                code = self._wait(process, on_tick)
            except KeyboardInterrupt:  # Ctrl+C in a terminal: the child, in a session of its own, did not get it
                self.cancel()
                code = self._wait(process, on_tick)  # a second Ctrl+C kills the group (below)
        finally:
            _kill_group(process.pid)  # whatever it left behind (normally nothing)
            with self._lock:
                self._process = None
        if self.cancelled:
            raise Cancelled
        return code

    def _wait(self, process: subprocess.Popen[bytes], on_tick: Callable[[], None]) -> int:
        while True:
            try:
                return process.wait(timeout=POLL_S)
            except subprocess.TimeoutExpired:
                pass
            if self.cancelled:
                self._cancelled_at = self._cancelled_at or time.monotonic()
                if time.monotonic() - self._cancelled_at > CANCEL_GRACE_S:
                    _kill_group(process.pid)
                continue
            on_tick()


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
