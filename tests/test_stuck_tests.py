"""A stuck test ends the run's wait on it with its name and where it was stuck, instead of holding the run until
something outside kills it (CI once sat on one until its own time limit, naming nothing).

Each case runs pytest with xdist in a fresh process, on a folder of its own whose conftest installs this suite's
handlers and whose settings are the project's (pyproject.toml), with the time limits made short.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

CONFTEST = """
    from tests.conftest import print_stacks_when_stopped

    def pytest_configure(config):
        print_stacks_when_stopped(config)
"""

STUCK_IN_QT = """
    import threading
    from PySide6.QtCore import QCoreApplication, QThread

    class Forever(QThread):
        def run(self):
            threading.Event().wait()

    def test_before():
        pass

    def test_stuck_in_a_qt_wait():
        app = QCoreApplication.instance() or QCoreApplication([])
        thread = Forever()
        thread.start()
        thread.wait()  # in C++: Python's alarm signal handler never gets to run here

    def test_after():
        pass
"""

SLEEPING = """
    import time
    from pathlib import Path

    def test_one(worker_id):
        Path(worker_id).touch()
        time.sleep(120)

    def test_two(worker_id):
        Path(worker_id).touch()
        time.sleep(120)
"""


def folder_with(tmp_path: Path, tests: str) -> Path:
    (tmp_path / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    (tmp_path / "test_case.py").write_text(textwrap.dedent(tests))
    return tmp_path


def pytest_command(*options: str, workers: str = "2") -> list[str]:
    settings = ("-c", str(ROOT / "pyproject.toml"), "--rootdir", ".", "-p", "no:cacheprovider")
    return [sys.executable, "-m", "pytest", "-n", workers, *settings, *options, "test_case.py"]


def environment() -> dict[str, str]:
    return {"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}


def test_a_test_stuck_in_c_fails_by_name_with_its_stack_and_the_others_run(tmp_path: Path) -> None:
    command = pytest_command("--timeout", "6", "-o", "faulthandler_timeout=3")
    cwd = folder_with(tmp_path, STUCK_IN_QT)
    run = subprocess.run(command, cwd=cwd, env=environment(), capture_output=True, text=True, timeout=90)
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert "crashed while running 'test_case.py::test_stuck_in_a_qt_wait'" in output
    assert 'test_case.py", line 16 in test_stuck_in_a_qt_wait' in output  # the stack, printed before the end
    assert "1 failed, 2 passed" in output


@pytest.mark.parametrize(("workers", "started"), [("2", ("gw0", "gw1")), ("0", ("master",))], ids=["xdist", "one"])
def test_a_run_stopped_from_outside_prints_what_each_test_process_was_doing(
    workers: str, started: tuple[str, ...], tmp_path: Path
) -> None:
    cwd = folder_with(tmp_path, SLEEPING)
    command = pytest_command(workers=workers)
    with subprocess.Popen(
        command, cwd=cwd, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as run:
        deadline = time.monotonic() + 120
        while not all((cwd / name).exists() for name in started):
            assert time.monotonic() < deadline and run.poll() is None, "the tests did not start"
            time.sleep(0.1)
        run.send_signal(signal.SIGTERM)
        output, _ = run.communicate(timeout=60)
    assert run.returncode == -signal.SIGTERM
    assert 'test_case.py", line 7 in test_one' in output
    if workers == "2":  # each worker was in its own test
        assert 'test_case.py", line 11 in test_two' in output
