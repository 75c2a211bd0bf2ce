"""Nothing typed is lost: the app is killed (SIGKILL) one second after an edit, and the edit is in the database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from annotator.storage import models
from annotator.storage.workspace import Workspace

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_an_edit_survives_sigkill_one_second_later(populated: Workspace, tmp_path: Path) -> None:
    text = "current page is search results; tap the first item to open it"
    environment = {key: value for key, value in os.environ.items() if not key.startswith("ANNOTATOR_")}
    environment["QT_QPA_PLATFORM"] = "offscreen"
    command = [sys.executable, "-m", "tests.ui.edit_then_wait", str(populated.data_dir), str(tmp_path), text]
    process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert line.strip() == "edited", f"the app did not get to the edit (exit code {process.poll()})"
        time.sleep(1.0)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.kill()
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    with Workspace.open(populated.data_dir) as reopened, reopened.database.session() as session:  # "after restart"
        first = session.scalars(select(models.Step).where(models.Step.trajectory_id == 1).order_by(models.Step.index))
        assert next(iter(first)).think == text
        revision = session.scalars(select(models.LabelRevision).order_by(models.LabelRevision.id.desc())).first()
        assert revision is not None and revision.field == "think" and revision.new_value == text
