"""A blob folder that several machines share: two processes store the same blobs into it at the same moment.

Each process is a machine of a team (README, "A team on one server"): the same data folder, on a shared mount,
and the same database (PostgreSQL where the tests have one, else the folder's SQLite file). Content addressing
and write-to-a-temporary-then-rename make the race harmless: both succeed, each blob is stored once, intact.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from annotator.storage import models
from annotator.storage.workspace import Workspace

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BLOBS = 120
# One machine: opens the workspace, says it is ready, waits for the word, then stores every blob, each in the
# write transaction collection uses (its row first, then its file).
MACHINE = """
import sys
from pathlib import Path
from annotator.storage.collection import store_blob
from annotator.storage.workspace import Workspace
from annotator.storage.writing import writing
from tests.storage.test_shared_blobs import blob_content

with Workspace.open(Path(sys.argv[1]), sys.argv[2] or None) as workspace:
    print("ready", flush=True)
    sys.stdin.readline()
    for index in range(int(sys.argv[3])):
        with writing(workspace.database) as session:
            store_blob(session, workspace.blobs, blob_content(index), "application/octet-stream")
print("stored", flush=True)
"""


def blob_content(index: int) -> bytes:
    return hashlib.sha256(str(index).encode()).digest() * 2048  # 64 KiB, distinct per index


def test_two_machines_store_the_same_blobs_at_once_once_and_intact(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("postgres_url") if backend == "postgresql" else ""
    shared = tmp_path / "shared-mount"
    Workspace.open(shared, url or None).close()  # the team's workspace, made once before the machines start
    machines = [
        subprocess.Popen(
            [sys.executable, "-c", MACHINE, str(shared), url, str(BLOBS)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for machine in machines:  # both have imported everything and opened the workspace
        assert machine.stdout is not None and machine.stdout.readline() == "ready\n"
    for machine in machines:
        assert machine.stdin is not None
        machine.stdin.write("go\n")
        machine.stdin.flush()
    outputs = [machine.communicate(timeout=120)[0] for machine in machines]
    assert [machine.returncode for machine in machines] == [0, 0] and outputs == ["stored\n", "stored\n"]

    expected = {hashlib.sha256(blob_content(index)).hexdigest(): blob_content(index) for index in range(BLOBS)}
    with Workspace.open(shared, url or None) as workspace:
        with workspace.database.session() as session:
            assert session.scalar(select(func.count()).select_from(models.Blob)) == BLOBS
        assert set(workspace.blobs.all_hashes()) == set(expected)
        for sha256, content in expected.items():
            assert workspace.blobs.read_bytes(sha256, size=len(content)) == content
    blob_root = shared / "blobs"
    files = [path for path in blob_root.rglob("*") if path.is_file()]
    assert len(files) == BLOBS  # no temporary left beside them, in the fan-out folders or in blobs/tmp
