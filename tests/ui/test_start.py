"""`annotator` with no arguments opens the desktop app on the user's workspace (a real process)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from annotator.storage.workspace import DATABASE_FILE, Workspace
from tests.ui.conftest import known_person

pytestmark = pytest.mark.slow


def app_environment(home: Path, name: str = "小王") -> dict[str, str]:
    """A home of its own: settings that already know who is working (no first-start dialog), logs apart."""
    known_person(home / ".config", name)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("ANNOTATOR_")}
    environment.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), QT_QPA_PLATFORM="offscreen")
    return environment


def test_plain_annotator_opens_the_window_on_the_workspace(tmp_path: Path) -> None:
    data_dir = tmp_path / "work"
    Workspace.open(data_dir).close()  # a folder without one is asked about first (tests/ui/test_open_errors.py)
    wal = data_dir / f"{DATABASE_FILE}-wal"  # SQLite's log, there while a connection is open
    assert not wal.exists()
    command = [str(Path(sys.executable).parent / "annotator"), "--data-dir", str(data_dir)]
    process = subprocess.Popen(command, env=app_environment(tmp_path / "home"), stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not wal.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        assert process.poll() is None, f"the app ended: {process.stderr.read() if process.stderr else ''}"
        assert wal.exists()  # the window opened the workspace
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
    assert "Mobile Annotator" in errors and "Traceback" not in errors
