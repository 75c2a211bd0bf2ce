"""Issue 30, item 5: two processes making one workspace at once both succeed. The first migration takes a lock
both databases honour (PostgreSQL's advisory lock, SQLite's write lock) before Alembic reads the revision, so
the second finds the schema made instead of failing on `table apps already exists` (one time in three before)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from annotator.storage.database import HEAD_REVISION, current_revision, open_database
from tests.postgres import TestDatabases, needs_postgres

pytestmark = pytest.mark.slow
ROUNDS = 4


def both_make(data_dir: Path, db_url: str | None) -> list[subprocess.CompletedProcess[str]]:
    where = ["--data-dir", str(data_dir)] + (["--db", db_url] if db_url else [])
    command = [sys.executable, "-m", "annotator", *where, "people", "list"]
    started = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in "ab"]
    outputs = [p.communicate(timeout=120) for p in started]
    return [subprocess.CompletedProcess(p.args, p.returncode, *out) for p, out in zip(started, outputs, strict=True)]


def check(results: list[subprocess.CompletedProcess[str]], url: str) -> None:
    for result in results:
        assert result.returncode == 0, result.stderr
    database = open_database(url, migrate=False)
    try:
        assert current_revision(database.engine) == HEAD_REVISION
    finally:
        database.dispose()


def test_two_processes_make_one_sqlite_workspace(tmp_path: Path) -> None:
    for round_ in range(ROUNDS):
        folder = tmp_path / f"ws{round_}"
        check(both_make(folder, None), f"sqlite:///{folder / 'annotator.sqlite'}")


@needs_postgres
def test_two_processes_make_one_postgres_workspace(tmp_path: Path, postgres_databases: TestDatabases) -> None:
    for round_ in range(ROUNDS):
        url = postgres_databases.create()
        try:
            check(both_make(tmp_path / f"ws{round_}", url), url)
        finally:
            postgres_databases.drop(url)
