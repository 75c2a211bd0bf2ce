"""The tests' new workspaces are copies of one migrated database (tests/workspaces.py): a copy must be what a first
open of an empty folder makes, in another folder, at another time."""

import sqlite3
from pathlib import Path

from annotator.storage.workspace import DATABASE_FILE, Workspace
from tests.workspaces import NewWorkspace

# Settings SQLite keeps in the file itself, which a copy carries along.
PRAGMAS = ("application_id", "user_version", "journal_mode", "auto_vacuum", "page_size", "encoding", "freelist_count")


def foreign_keys(connection: sqlite3.Connection, table: str) -> list[tuple]:
    """The table's foreign keys, each its columns in order, in no order of their own."""
    keys: dict[int, list[tuple]] = {}
    for key, _seq, *rest in connection.execute(f'PRAGMA foreign_key_list("{table}")'):
        keys.setdefault(key, []).append(tuple(rest))
    return sorted(keys.values())


def described(path: Path) -> dict[str, object]:
    """Everything a database file holds: its settings, every schema object, every row.

    Tables are described by SQLite's own reading of their columns, keys and indexes, not their CREATE text: two
    first opens write a table's constraints in different orders (Alembic's batch mode rebuilds tables from a set).
    """
    assert sorted(item.name for item in path.parent.iterdir()) == [DATABASE_FILE]  # closed: no WAL to fold in
    connection = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)  # reading it leaves nothing beside it
    try:
        found: dict[str, object] = {name: connection.execute(f"PRAGMA {name}").fetchall() for name in PRAGMAS}
        objects = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        for kind, name, table, sql in objects.fetchall():
            if kind == "table":
                indexes = connection.execute(f'PRAGMA index_list("{name}")').fetchall()
                found[f"table {name}"] = (
                    connection.execute(f'PRAGMA table_xinfo("{name}")').fetchall(),
                    foreign_keys(connection, name),
                    sorted(
                        (row[1:], connection.execute(f'PRAGMA index_xinfo("{row[1]}")').fetchall()) for row in indexes
                    ),
                    sorted(connection.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr),
                )
            else:  # indexes (their columns read with their tables above), triggers, views
                found[f"{kind} {name}"] = (table, sql)
        return found
    finally:
        connection.close()


def test_a_copy_of_the_migrated_template_is_a_new_workspace(
    tmp_path: Path, migrated_database: Path, new_workspace: NewWorkspace
) -> None:
    with Workspace.open(tmp_path / "first") as first:  # a real first open: every migration, from nothing
        assert first.created
    with new_workspace(tmp_path / "copied") as copied:
        assert copied.created and not copied.read_only and copied.reaped == ()
        assert copied.database.schema == first.database.schema
    assert described(tmp_path / "copied" / DATABASE_FILE) == described(tmp_path / "first" / DATABASE_FILE)
    assert described(migrated_database) == described(tmp_path / "first" / DATABASE_FILE)  # no test wrote to it
