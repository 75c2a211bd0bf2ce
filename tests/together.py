"""Two `annotator` commands that start at the same moment, so that they race: each process imports everything the
command needs, says it is ready and waits for the word; the test gives it to both once both are ready.

Started as ``python -m tests.together ARG...``. Waiting for "ready" instead of a start time fixed in advance costs
what the imports cost, and never starts one process while the other is still importing on a busy machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import annotator.cli.draft
import annotator.services.bundle
import annotator.services.instructions  # noqa: F401  (imported before the moment, not during the race)
from annotator.cli.root import cli

ROOT = Path(__file__).resolve().parents[1]
READY = "ready"


def at_once(data: Path, *args: str, db_url: str | None = None) -> list[subprocess.CompletedProcess[str]]:
    """Run `annotator --data-dir DATA [--db URL] ARGS` in two processes that start the command at the same moment;
    each one's exit status and output (stdout and stderr), after its "ready"."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("ANNOTATOR_")}
    where = ["--data-dir", str(data), *(["--db", db_url] if db_url else [])]
    command = [sys.executable, "-m", "tests.together", *where, *args]
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.STDOUT}
    processes = [subprocess.Popen(command, cwd=ROOT, env=environment, text=True, **pipes) for _ in range(2)]
    for process in processes:
        said = _until_ready(process)
        if said is not None:  # it died importing: its traceback, not a hang
            for each in processes:
                each.kill()
            raise AssertionError(f"{command} did not get ready: {said}")
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    return [_finished(process) for process in processes]


def _until_ready(process: subprocess.Popen[str]) -> str | None:
    """None once the process has said it is ready; what it printed instead if it ended first (a warning printed
    while importing is passed over)."""
    assert process.stdout is not None
    printed = []
    for line in process.stdout:
        if line == READY + "\n":
            return None
        printed.append(line)
    return "".join(printed)


def _finished(process: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    output, _ = process.communicate(timeout=120)
    return subprocess.CompletedProcess(process.args, process.returncode, output)


if __name__ == "__main__":
    print(READY, flush=True)
    sys.stdin.readline()
    cli.main(sys.argv[1:], prog_name="annotator")
