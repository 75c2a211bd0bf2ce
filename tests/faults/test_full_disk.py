"""A full disk while writing a blob, the database and an export: one line that names what could not be written,
and nothing damaged (the database opens, `annotator db check` is clean, no half file under a final name).

Two ways to run out of room, both real: a 2 MB tmpfs (mounted as root; skipped where that is refused), and a
process whose files may not grow past LIMIT (RLIMIT_FSIZE: a write beyond it fails with EFBIG, "File too large").
A full disk during a bundle import on a tmpfs: tests/cli/test_workspace_errors.py."""

from __future__ import annotations

import io
import os
from contextlib import ExitStack
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from annotator.cli.root import cli as annotator_cli
from annotator.domain.trajectory import CollectorKind, Outcome, ReviewStatus, TrajectoryStatus
from annotator.services.bundle import export_bundle
from annotator.storage import collection, labels
from annotator.storage.workspace import Workspace
from tests.cli.test_workspace_errors import files_under, tmpfs
from tests.factories import add_trajectory, database_snapshot, finish_labelling
from tests.faults.processes import annotator, db_check, one_line_error, start
from tests.workspaces import NewWorkspace
from trainer_bridge.cli.root import cli as trainer_bridge_cli

pytestmark = pytest.mark.slow

LIMIT = 512 * 1024  # bytes a file may hold in the limited processes: more than the database, less than the noise
NO_ROOM = "; nothing was changed: free some space and try again"


def noise_png(width: int, height: int) -> bytes:
    """A screenshot PNG cannot shrink: 1.3 MB at 700x600."""
    image = Image.frombytes("RGB", (width, height), os.urandom(width * height * 3))
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


@pytest.fixture
def noisy(workspace: Workspace) -> Workspace:
    """An accepted trajectory of two small screenshots, and one whose screenshot (1.3 MB) is larger than LIMIT."""
    add_trajectory(workspace, "淘宝", "打开淘宝，查看我关注的店铺", 2, seed=3)
    db = workspace.database
    instruction = collection.add_instruction(db, "设置", "打开蓝牙")
    trajectory_id = collection.start_trajectory(db, instruction, collection.Collector(CollectorKind.HUMAN))
    terminate = {"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}
    observation = collection.Observation(noise_png(700, 600), terminate)
    collection.record_step(db, workspace.blobs, trajectory_id, observation)
    collection.finish_trajectory(db, trajectory_id, TrajectoryStatus.COMPLETE, Outcome.SUCCESS)
    finish_labelling(workspace, trajectory_id)
    labels.set_review(db, trajectory_id, ReviewStatus.ACCEPTED, reviewer="李审核")
    return workspace


def assert_intact(data: Path, before: dict[str, list[tuple]]) -> None:
    with Workspace.open(data) as workspace:
        assert database_snapshot(workspace) == before
    found = db_check(data)
    assert (found["unreferenced"], found["missing"], found["corrupt"], found["temporaries"]) == (0, 0, 0, 0), found


def test_a_blob_too_large_to_write_stops_an_import_with_one_line(
    noisy: Workspace, tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    bundle = export_bundle(noisy, tmp_path / "bundle").path
    big = max(noisy.blobs.all_hashes(), key=lambda sha256: noisy.blobs.path(sha256).stat().st_size)
    target = tmp_path / "target"
    with new_workspace(target) as workspace:
        add_trajectory(workspace, "设置", "看看存储空间", 2, seed=7)
        before, files = database_snapshot(workspace), files_under(target / "blobs")
    line = one_line_error(annotator(target, "import", "bundle", str(bundle), file_limit=LIMIT))
    assert line == f"Error: could not write {target / 'blobs' / big[:2] / big[2:]}: File too large{NO_ROOM}"
    assert_intact(target, before)
    assert files_under(target / "blobs") == files  # the blobs it copied before are gone again


def fill(folder: Path) -> Path:
    """Take every byte left on the filesystem holding `folder`."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 4096)
        except OSError:
            pass
    return filler


@pytest.mark.parametrize("room", ["tmpfs", "file limit"])
def test_a_database_that_cannot_grow_refuses_the_write_with_one_line(tmp_path: Path, room: str) -> None:
    instructions = tmp_path / "instructions.csv"
    rows = (f"设置,打开第 {number} 个开关，然后{'再看一遍' * 40}\n" for number in range(1200))  # about 1 MB
    instructions.write_text("app,text\n" + "".join(rows), encoding="utf-8")
    with ExitStack() as stack:
        data = stack.enter_context(tmpfs(tmp_path / "small", "2m")) if room == "tmpfs" else tmp_path / "data"
        with Workspace.open(data) as workspace:
            add_trajectory(workspace, "设置", "看看存储空间", 2, seed=7)
            before = database_snapshot(workspace)
        filler = fill(data) if room == "tmpfs" else None
        limit = LIMIT if filler is None else None
        line = one_line_error(annotator(data, "instructions", "import", str(instructions), file_limit=limit))
        # SQLite's own words: "database or disk is full", or "disk I/O error" when a write fails otherwise.
        assert line.startswith(f"Error: could not write the database in {data}: ") and line.endswith(NO_ROOM)
        if filler is not None:
            filler.unlink()
        assert_intact(data, before)


def export(tool: str, data: Path, out: Path, file_limit: int | None) -> str:
    """What the export command printed: in a process of its own where its files are limited, else in this one."""
    if tool == "bundle":
        command, args = ["-m", "annotator"], ["--data-dir", str(data), "export", "bundle", str(out)]
    else:
        command = ["-m", "trainer_bridge"]
        args = [
            "export",
            "--stage",
            "sft",
            "--format",
            "jsonl",
            "--image-scale",
            "1",
            "--data-dir",
            str(data),
            "--out",
            str(out),
        ]
    if file_limit is None:
        return CliRunner().invoke(annotator_cli if tool == "bundle" else trainer_bridge_cli, args).output
    stdout, stderr = start([*command, *args], file_limit=file_limit).communicate(timeout=120)
    return stdout + stderr


@pytest.mark.parametrize("tool", ["bundle", "training"])
@pytest.mark.parametrize("room", ["tmpfs", "file limit"])
def test_an_export_that_does_not_fit_leaves_nothing_and_says_where(
    noisy: Workspace, tmp_path: Path, tool: str, room: str
) -> None:
    name = "team.zip" if tool == "bundle" else "sft"
    size = "2m" if tool == "bundle" else "1m"  # a bundle's files fit, its zip does not: the disk fills as it zips
    with ExitStack() as stack:
        folder = stack.enter_context(tmpfs(tmp_path / "small", size)) if room == "tmpfs" else tmp_path / "exports"
        out = folder / name
        output = export(tool, noisy.data_dir, out, LIMIT if room == "file limit" else None)
        detail = "File too large" if room == "file limit" else "No space left on device"
        tail = NO_ROOM if tool == "bundle" else "; nothing was written"
        assert f"Error: could not write {out}: {detail}{tail}" in output.splitlines(), output
        assert "Traceback" not in output
        assert list(folder.iterdir()) == []  # neither the export nor its staging folder
    assert db_check(noisy.data_dir)["corrupt"] == 0
