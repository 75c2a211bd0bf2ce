"""A damaged SQLite file (cut short, or a page overwritten): `annotator stats` and `annotator db check` end with one
line that says so, a non-zero exit status, and the file as it was; SQLite may find the damage only at a later
query, which opened_workspace maps the same way."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from annotator.cli.root import cli
from annotator.storage.workspace import DATABASE_FILE
from tests.factories import add_trajectory
from tests.workspaces import open_new

COMMANDS = [("stats",), ("db", "check"), ("db", "info")]


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> Path:
    data = tmp_path_factory.mktemp("damaged") / "good"
    with open_new(data, migrated_database) as workspace:
        for number in range(12):  # enough rows for the trajectories table to span many pages
            add_trajectory(workspace, "设置", f"打开蓝牙 {number} " + "很长的说明" * 300, 2, seed=number)
    return data / DATABASE_FILE


def one_line_error(result: Result) -> str:
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def copy_to(good: Path, data: Path) -> Path:
    data.mkdir()
    database = data / DATABASE_FILE
    database.write_bytes(good.read_bytes())
    return database


@pytest.mark.parametrize("command", COMMANDS)
def test_a_database_cut_short(good: Path, tmp_path: Path, command: tuple[str, ...]) -> None:
    database = copy_to(good, tmp_path / "data")
    database.write_bytes(good.read_bytes()[: good.stat().st_size // 2])  # a copy that stopped half way
    before = database.read_bytes()
    line = one_line_error(CliRunner().invoke(cli, ["--data-dir", str(database.parent), *command]))
    assert line.startswith(f"Error: the database in {database.parent} is damaged (database disk image is malformed)")
    assert "nothing was changed" in line and "restore it from a backup" in line
    assert database.read_bytes() == before


def test_damage_found_only_by_a_later_query(good: Path, tmp_path: Path) -> None:
    database = copy_to(good, tmp_path / "data")
    with sqlite3.connect(database) as connection:
        (page_size,) = connection.execute("PRAGMA page_size").fetchone()
        (root,) = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'trajectories'").fetchone()
    connection.close()
    with database.open("r+b") as file:  # the table's root page overwritten: opening works, reading it fails
        file.seek((root - 1) * page_size)
        file.write(b"\xff" * page_size)
    before = database.read_bytes()
    line = one_line_error(CliRunner().invoke(cli, ["--data-dir", str(database.parent), "stats"]))
    assert line.startswith(f"Error: the database in {database.parent} is damaged (database disk image is malformed)")
    assert database.read_bytes() == before
