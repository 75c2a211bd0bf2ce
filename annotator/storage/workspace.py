"""Where a user's data lives: the data folder, the database URL and the blob store."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir

from annotator.storage.blobs import BlobStore
from annotator.storage.database import Database, open_database, sqlite_url
from annotator.storage.failures import WorkspaceError, plain_reason, read_only
from annotator.storage.owners import reap_abandoned

DATA_DIR_ENV = "ANNOTATOR_DATA_DIR"
DB_URL_ENV = "ANNOTATOR_DB_URL"
DATABASE_FILE = "annotator.sqlite"
BLOBS_FOLDER = "blobs"


def default_data_dir() -> Path:
    configured = os.environ.get(DATA_DIR_ENV)
    return Path(configured).expanduser() if configured else Path(user_data_dir("mobile-annotator", False))


def resolve_db_url(data_dir: Path, db_url: str | None) -> str:
    return db_url or os.environ.get(DB_URL_ENV) or sqlite_url(data_dir / DATABASE_FILE)


class ReadOnlyFolderError(WorkspaceError):
    """The data folder cannot be written; opened with writes=False it can still be read."""


def is_new(data_dir: Path, db_url: str | None = None) -> bool:
    """Whether opening `data_dir` would make a new workspace: its database is the folder's SQLite file, and there
    is none yet (a mistyped folder, or the first start)."""
    folder = Path(data_dir)
    database = folder / DATABASE_FILE
    return resolve_db_url(folder, db_url) == sqlite_url(database) and not database.exists()


def folder_is_read_only(folder: Path) -> bool:
    """An existing folder this process cannot write (permissions, or a read-only file system)."""
    return folder.is_dir() and not os.access(folder, os.W_OK)


def read_only_url(data_dir: Path) -> str:
    """The workspace's SQLite file opened for reading only, as it is on disk (it cannot change: nobody can write
    the folder). Refused when its last commits are still in the -wal file, which SQLite reads only by writing."""
    database = data_dir / DATABASE_FILE
    wal = database.with_name(database.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise WorkspaceError(
            f"the data folder {data_dir} is read-only and the database's last changes are still in {wal.name}, "
            "which SQLite reads only by writing; make the folder writable once (any command folds them in)"
        )
    return f"sqlite:///file:{database}?mode=ro&immutable=1&uri=true"


def _reap(database: Database) -> tuple[str, ...]:
    """Runs whose process is gone show as what they are (interrupted, stopped) in every listing from now on; one
    line for each."""
    try:
        return tuple(reap_abandoned(database))
    except BaseException:
        database.dispose()
        raise


@dataclass
class Workspace:
    """An open workspace: the database (migrated to head) and the blobs beside it."""

    data_dir: Path
    database: Database
    blobs: BlobStore
    read_only: bool = False
    created: bool = False  # this open made the workspace: its folder had no database
    reaped: tuple[str, ...] = ()  # runs this open found abandoned and marked (storage.owners), one line each

    @classmethod
    def open(
        cls, data_dir: Path | None = None, db_url: str | None = None, *, migrate: bool = True, writes: bool = True
    ) -> Workspace:
        """Open the workspace; WorkspaceError says in one line why it cannot be. `writes=False` (a command that
        only reads) opens a read-only folder for reading instead of refusing it."""
        folder = Path(data_dir) if data_dir is not None else default_data_dir()
        url = resolve_db_url(folder, db_url)
        read_only_folder = folder_is_read_only(folder) and url == sqlite_url(folder / DATABASE_FILE)
        if read_only_folder and writes:
            raise ReadOnlyFolderError(read_only(folder))
        created = not read_only_folder and is_new(folder, db_url)
        reaped: tuple[str, ...] = ()
        try:
            if read_only_folder:
                database = open_database(read_only_url(folder), migrate=False)
            else:
                folder.mkdir(parents=True, exist_ok=True)
                database = open_database(url, migrate=migrate)
                if migrate:
                    reaped = _reap(database)
        except Exception as error:  # the known failures of a data folder become one line; anything else is a bug
            reason = plain_reason(error, folder)
            if reason is None:
                raise
            raise WorkspaceError(reason) from error
        blobs = BlobStore(folder / BLOBS_FOLDER)
        return cls(folder, database, blobs, read_only=read_only_folder, created=created, reaped=reaped)

    def close(self) -> None:
        self.database.dispose()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
