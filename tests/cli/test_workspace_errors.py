"""A file that is not a database, a read-only data folder and a full disk: one clear line, a non-zero exit status,
nothing changed; reading works in a read-only folder. The last two need a small tmpfs (mounted as root)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from annotator.cli.root import cli
from annotator.services.bundle import export_bundle
from annotator.storage.workspace import DATABASE_FILE, Workspace
from tests.factories import add_trajectory, database_snapshot


def annotator(data: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data), *args])


def one_line_error(result: Result) -> str:
    assert (result.exit_code == 1 and result.exception is None) or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in result.output, result.output
    return lines[0]


@contextmanager
def tmpfs(folder: Path, size: str) -> Iterator[Path]:
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def files_under(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("command", [("db", "info"), ("stats",), ("import", "bundle", "."), ("db", "check")])
def test_a_file_that_is_not_a_database(tmp_path: Path, command: tuple[str, ...]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / DATABASE_FILE).write_text("meeting notes, not a database\n", encoding="utf-8")
    line = one_line_error(annotator(data, *command))
    assert (
        line
        == f"Error: {data} holds a file that is not an annotator database (file is not a database); nothing was changed"
    )
    assert files_under(data) == {DATABASE_FILE: b"meeting notes, not a database\n"}


def test_a_read_only_data_folder_is_read_and_never_written(populated: Workspace, tmp_path: Path) -> None:
    bundle = export_bundle(populated, tmp_path / "bundle").path
    with tmpfs(tmp_path / "ro", "16m") as data:
        with Workspace.open(data) as workspace:
            add_trajectory(workspace, "设置", "打开蓝牙", 2)
        subprocess.run(["mount", "-o", "remount,ro", str(data)], check=True)
        before = files_under(data)
        info = annotator(data, "db", "info", "--json")
        assert info.exit_code == 0 and '"trajectories": 1' in info.output
        assert annotator(data, "stats").exit_code == 0 and annotator(data, "db", "check").exit_code == 0
        for command in (("import", "bundle", str(bundle)), ("db", "check", "--fix"), ("collect", "--close", "1")):
            line = one_line_error(annotator(data, *command))
            assert (
                line == f"Error: the data folder {data} is read-only; this command writes to it, so nothing was changed"
            )
        assert files_under(data) == before


def test_a_full_disk_stops_an_import_with_a_message_and_leaves_nothing(populated: Workspace, tmp_path: Path) -> None:
    bundle = export_bundle(populated, tmp_path / "bundle").path  # 8 blobs, about 120 kB
    with tmpfs(tmp_path / "small", "2m") as data:
        Workspace.open(data).close()
        filler = data / "filler"
        with filler.open("wb", buffering=0) as out:  # the disk is full but for about 100 kB
            try:
                while True:
                    out.write(b"\0" * 4096)
            except OSError:
                pass
        filler.write_bytes(filler.read_bytes()[: -100 * 1024])
        with Workspace.open(data) as workspace:
            before = database_snapshot(workspace)
        files = files_under(data / "blobs") if (data / "blobs").exists() else {}
        line = one_line_error(annotator(data, "import", "bundle", str(bundle)))
        assert line.startswith(f"Error: could not write {data / 'blobs'}/")  # the blob it was writing
        assert line.endswith(": No space left on device; nothing was changed: free some space and try again")
        with Workspace.open(data) as workspace:
            assert database_snapshot(workspace) == before
        assert (files_under(data / "blobs") if (data / "blobs").exists() else {}) == files
