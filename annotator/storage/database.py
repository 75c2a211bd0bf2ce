"""Open a database: connect, check the schema version, back up, migrate.

Every open runs the packaged Alembic migrations up to head. A SQLite file that
holds data is copied (with SQLite's online backup) before any upgrade; a schema
newer than this program is refused, never touched. A database already at
HEAD_REVISION opens without loading Alembic (half a second of every start).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.orm import Session, sessionmaker

from annotator.storage import guards  # noqa: F401  (registers the raw-step guard)
from annotator.storage.failures import NotPermitted, WorkspaceError

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = "annotator.storage:migrations"
# The newest migration's revision; tests/storage/test_migrations.py holds it equal to the packaged migrations'.
HEAD_REVISION = "0015"
VERSION_TABLE = "alembic_version"
# How long SQLite waits for another writer's lock before "database is locked"; a write that still meets it is
# tried again by storage.writing.retrying.
BUSY_TIMEOUT_S = 30.0
INSUFFICIENT_PRIVILEGE = "42501"
# Two processes making one workspace at once take turns: the second finds the schema made. Any fixed number does.
MIGRATION_LOCK = 0x616E6E6F


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer version of the program."""


class MigrationError(RuntimeError):
    """An upgrade failed; the backup named in the message holds the data as it was."""


class ReadOnlyDatabaseError(WorkspaceError):
    """A write to a database opened read-only (its folder cannot be written): refused, nothing changed."""


@dataclass(frozen=True)
class SchemaState:
    current: str | None
    head: str
    backup: Path | None = None
    notes: tuple[str, ...] = ()  # what an upgrade did to the data, one line each (e.g. merged duplicates)


def alembic_config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    return config


def head_revision() -> str:
    """The head of the packaged migrations, as Alembic reads them (HEAD_REVISION says the same without it)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, "packaged migrations have no head"
    return head


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def create_db_engine(url: str, busy_timeout_s: float = BUSY_TIMEOUT_S) -> Engine:
    """An engine with SQLite set up for a desktop app: WAL, foreign keys, a busy timeout."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        engine = create_engine(url, pool_pre_ping=True)
        event.listen(engine, "handle_error", _refusal_in_one_line)
        return engine
    engine = create_engine(url, connect_args={"timeout": busy_timeout_s})
    if parsed.query.get("mode") == "ro":
        event.listen(engine, "handle_error", _refuse_writes)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection, _record):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if parsed.database not in (None, "", ":memory:") and parsed.query.get("mode") != "ro":
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return engine


def _refuse_writes(context: ExceptionContext) -> None:
    """SQLite's "attempt to write a readonly database" (with the statement and its parameters) becomes one line
    that says why: the workspace was opened for reading only."""
    if "readonly database" in str(context.original_exception):
        raise ReadOnlyDatabaseError(
            "the workspace is open read-only (its folder cannot be written), so nothing was changed: it can be "
            "browsed and exported, not edited"
        ) from context.original_exception


def _refusal_in_one_line(context: ExceptionContext) -> None:
    """PostgreSQL refusing a login what it may not do (a team database's checks, or a missing privilege) is the
    one line it gave, not a traceback with the statement."""
    original = context.original_exception
    if getattr(original, "sqlstate", None) == INSUFFICIENT_PRIVILEGE:
        diag = getattr(original, "diag", None)
        message = getattr(diag, "message_primary", None) or str(original).splitlines()[0]
        raise NotPermitted(f"refused by the database, nothing was changed: {message}") from original


def current_revision(engine: Engine) -> str | None:
    """The schema's revision as Alembic records it (its one-row version table), None for an empty database."""
    with engine.connect() as connection:
        if not inspect(connection).has_table(VERSION_TABLE):
            return None
        return connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


def known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    return {rev.revision for rev in script.walk_revisions()}


def check_not_newer(current: str | None) -> None:
    if current is not None and current != HEAD_REVISION and current not in known_revisions():
        raise SchemaTooNewError(
            f"the database schema is at revision {current!r}, which this version of annotator does not "
            f"know (it knows up to {head_revision()!r}); it was written by a newer version. "
            "Upgrade annotator to open it; the database was not changed."
        )


def backup_sqlite(engine: Engine, revision: str | None) -> Path | None:
    """Copy a SQLite database that holds data next to itself; None for other backends or empty files."""
    database = engine.url.database
    if engine.url.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    source_path = Path(database)
    if not source_path.exists() or not inspect(engine).get_table_names():
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    backup_path = source_path.with_name(f"{source_path.stem}.backup-{revision or 'none'}-{stamp}.sqlite")
    with sqlite3.connect(source_path) as source, sqlite3.connect(backup_path) as target:
        source.backup(target)
    source.close()
    target.close()
    return backup_path


def upgrade(engine: Engine, target: str = "head") -> SchemaState:
    """Bring the schema to `target`, backing up first when there is data to lose."""
    current = current_revision(engine)
    if current == HEAD_REVISION and target == "head":
        return SchemaState(current=current, head=HEAD_REVISION)
    from alembic import command

    check_not_newer(current)
    head = head_revision()
    backup = backup_sqlite(engine, current)
    config = alembic_config()
    try:
        with engine.begin() as connection:
            _take_migration_lock(connection)  # Alembic reads the revision after this: the other's upgrade is seen
            config.attributes["connection"] = connection
            command.upgrade(config, target)
    except Exception as error:
        where = f"; the data before the upgrade is in {backup}" if backup else ""
        raise MigrationError(f"upgrading the database from {current} to {target} failed: {error}{where}") from error
    notes = tuple(config.attributes.get("notes", ()))
    return SchemaState(current=current_revision(engine), head=head, backup=backup, notes=notes)


def _take_migration_lock(connection: Connection) -> None:
    """Wait for any other process upgrading this database: PostgreSQL's advisory lock, SQLite's write lock (taken
    at once, so that even the first CREATE TABLE waits for it). Both end with the transaction."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    elif connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE")


@dataclass
class Database:
    """An open, up-to-date database and its session factory."""

    url: str
    engine: Engine
    sessions: sessionmaker[Session]
    schema: SchemaState

    def session(self) -> Session:
        return self.sessions()

    @property
    def safe_url(self) -> str:
        """The URL without its password: what may be shown or written into a file."""
        return make_url(self.url).render_as_string(hide_password=True)

    def dispose(self) -> None:
        self.engine.dispose()


def open_database(url: str, *, migrate: bool = True, busy_timeout_s: float = BUSY_TIMEOUT_S) -> Database:
    """Open `url`, refusing newer schemas and upgrading older ones (unless migrate=False)."""
    engine = create_db_engine(url, busy_timeout_s)
    try:
        if migrate:
            schema = upgrade(engine)
        else:
            current = current_revision(engine)
            check_not_newer(current)
            schema = SchemaState(current=current, head=HEAD_REVISION)
    except Exception:
        engine.dispose()
        raise
    sessions = sessionmaker(bind=engine, expire_on_commit=False)
    return Database(url=url, engine=engine, sessions=sessions, schema=schema)
