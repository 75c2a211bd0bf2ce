"""Transactions that write, and inserts that skip what is there: the same on SQLite and PostgreSQL.

`writing` opens a transaction that holds its lock from the start. On SQLite that is BEGIN IMMEDIATE: a
transaction that reads and then writes would otherwise fail ("database is locked") when another process
committed between its read and its write; now it waits for that one and reads what it wrote. On PostgreSQL
it takes the blob store's advisory lock: shared by the writers that add rows pointing at blob files, exclusive
for the clean-up that removes files no row points at (`exclusive=True`). So a file is only ever removed while no
writer is between checking that it is there and committing its row.

`retrying` runs a whole write transaction again, with backoff, when the database says it is busy: SQLite's
"database is locked" (the busy timeout ran out behind a long writer, or a lock upgrade SQLite refuses at once
rather than deadlock) and PostgreSQL's deadlock and serialization failures. It gives up after `patience_s` with
DatabaseBusyError, so an edit is either saved or reported to whoever made it, never dropped in between.

`insert_skipping` is the dialect's INSERT ... ON CONFLICT DO NOTHING, so that two writers adding the same
content-addressed blob, app or instruction at once both succeed and store it once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, cast

from sqlalchemy import CursorResult, Executable, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from annotator.storage.database import Database
from annotator.storage.failures import WorkspaceError

if TYPE_CHECKING:
    from sqlalchemy.dialects import postgresql, sqlite

BLOB_LOCK = 0x626C6F62  # "blob": the advisory lock key of the blob store on PostgreSQL
RUN_NUMBER_LOCK = 0x72756E  # "run": with an instruction's id, the key of numbering its runs on PostgreSQL
Upsert: TypeAlias = "sqlite.Insert | postgresql.Insert"
PATIENCE_S = 120.0  # how long `retrying` tries again before it reports the database as busy
FIRST_WAIT_S, LONGEST_WAIT_S = 0.02, 1.0  # the backoff between tries doubles from the first to the longest
BUSY_SQLSTATES = {"40001", "40P01"}  # PostgreSQL: serialization failure, deadlock detected
T = TypeVar("T")


class DatabaseBusyError(WorkspaceError):
    """Another program kept the database busy for longer than we wait: nothing of this write was saved."""


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


def retrying(db: Database, work: Callable[[Session], T], *, patience_s: float = PATIENCE_S) -> T:
    """`work(session)` in a `writing` transaction, run again with backoff while the database is busy (see the module's
    docstring); `work` must do all its reading and writing in the session it is given, as each try starts afresh."""
    deadline = time.monotonic() + patience_s
    wait = FIRST_WAIT_S
    while True:
        try:
            with writing(db) as session:
                return work(session)
        except OperationalError as error:
            if not is_busy(error):
                raise
            if time.monotonic() + wait > deadline:
                raise DatabaseBusyError(
                    f"the database stayed busy (another program is writing) for {patience_s:.0f} s: "
                    "this change was not saved; try again"
                ) from error
        time.sleep(wait * random.uniform(0.5, 1.5))  # jitter: two waiting writers do not retry in step
        wait = min(wait * 2, LONGEST_WAIT_S)


def take_turn(session: Session, space: int, key: int) -> None:
    """Wait until no other transaction holds (`space`, `key`), and hold it until this one ends: on PostgreSQL, where
    writers run side by side, so that a read-then-insert (the next run number) cannot interleave with another. On
    SQLite a `writing` transaction already holds the only write lock."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:space, :key)"), {"space": space, "key": key})


def is_busy(error: OperationalError) -> bool:
    """SQLite's locked or busy database, PostgreSQL's deadlock or serialization failure: passing, worth a retry."""
    message = str(error.orig).lower()
    sqlstate = getattr(error.orig, "sqlstate", None)
    return "database is locked" in message or "database is busy" in message or sqlstate in BUSY_SQLSTATES


def insert_skipping(session: Session, model: type[Any]) -> Upsert:
    """INSERT into `model`'s table that skips rows whose unique key is stored already."""
    return upsert_into(session, model).on_conflict_do_nothing()


def upsert_into(session: Session, table: Any) -> Upsert:
    """The INSERT of the session's database that takes ON CONFLICT. Its dialect module loads here, at the first
    such write: PostgreSQL's costs ~60 ms that the app's start on a SQLite workspace need not pay."""
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table)
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        return postgresql_insert(table)
    raise NotImplementedError(f"the {dialect} database is not supported (SQLite and PostgreSQL are)")


def rows_changed(session: Session, statement: Executable) -> int:
    """Run an UPDATE or DELETE; how many rows it changed (0: another writer got there first)."""
    return cast(CursorResult[Any], session.execute(statement)).rowcount
