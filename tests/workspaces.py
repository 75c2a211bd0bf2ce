"""New SQLite workspaces for tests, copied from one migrated database instead of migrated each time.

Replaying every Alembic migration on a new SQLite file takes 0.2-0.7 s; copying a file that has been through them
takes about 0.01 s. A new workspace's database holds nothing tied to its folder or to when it was made (the schema
and Alembic's one version row: tests/storage/test_workspace_template.py checks that a copy reads exactly as a new
one), so each test process migrates one template and every new workspace starts as a copy of it. Tests of
migrations and of a first open keep opening empty folders with Workspace.open.
"""

from __future__ import annotations

import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from annotator.storage.workspace import DATABASE_FILE, Workspace

# The `new_workspace` fixture (tests/conftest.py): opens a new workspace in the folder given.
NewWorkspace = Callable[[Path], Workspace]


def migrated_template(folder: Path) -> Path:
    """A new workspace's database file made in `folder` by the app's own first open, closed and read-only."""
    Workspace.open(folder).close()
    template = folder / DATABASE_FILE
    # SQLite folds the WAL back into the file when its last connection closes; a -wal left behind would hold part of
    # the schema, and a copy of the file alone would lack it.
    leftovers = [path.name for path in folder.iterdir() if path.name != DATABASE_FILE]
    assert not leftovers, f"the template's first open left {leftovers} beside it"
    template.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # a test that wrote to it would change every other
    return template


def open_new(data_dir: Path, template: Path) -> Workspace:
    """Open a new workspace in `data_dir` (which must not hold one yet) from a copy of `template`."""
    data_dir.mkdir(parents=True, exist_ok=True)
    database = data_dir / DATABASE_FILE
    assert not database.exists(), f"{data_dir} already holds a workspace"
    shutil.copyfile(template, database)  # contents only: the copy is writable, as the app's own file would be
    opened = Workspace.open(data_dir)
    opened.created = True  # what Workspace.open says of a folder that had no database
    return opened
