"""Transactions that write, and inserts that skip what is there: the same on SQLite and PostgreSQL.

`writing` opens a transaction that holds its lock from the start. On SQLite that is BEGIN IMMEDIATE: a
transaction that reads and then writes would otherwise fail ("database is locked") when another process
committed between its read and its write; now it waits for that one and reads what it wrote. On PostgreSQL
it takes the blob store's advisory lock: shared by the writers that add rows pointing at blob files, exclusive
for the clean-up that removes files no row points at (`exclusive=True`). So a file is only ever removed while no
writer is between checking that it is there and committing its row.

`insert_skipping` is the dialect's INSERT ... ON CONFLICT DO NOTHING, so that two writers adding the same
content-addressed blob, app or instruction at once both succeed and store it once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from sqlalchemy import CursorResult, Executable, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from annotator.storage.database import Database

BLOB_LOCK = 0x626C6F62  # "blob": the advisory lock key of the blob store on PostgreSQL
Upsert = sqlite.Insert | postgresql.Insert
INSERTS: dict[str, Callable[[Any], Upsert]] = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}


@contextmanager
def writing(db: Database, *, exclusive: bool = False) -> Iterator[Session]:
    """A session in a write transaction that holds its lock from the start (see the module's docstring)."""
    with db.session() as session, session.begin():
        connection = session.connection()
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        elif connection.dialect.name == "postgresql":
            lock = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
            connection.execute(text(f"SELECT {lock}(:key)"), {"key": BLOB_LOCK})
        yield session


def insert_skipping(session: Session, model: type[Any]) -> Upsert:
    """INSERT into `model`'s table that skips rows whose unique key is stored already."""
    dialect = session.get_bind().dialect.name
    if dialect not in INSERTS:
        raise NotImplementedError(f"the {dialect} database is not supported (SQLite and PostgreSQL are)")
    return INSERTS[dialect](model).on_conflict_do_nothing()


def rows_changed(session: Session, statement: Executable) -> int:
    """Run an UPDATE or DELETE; how many rows it changed (0: another writer got there first)."""
    return cast(CursorResult[Any], session.execute(statement)).rowcount
