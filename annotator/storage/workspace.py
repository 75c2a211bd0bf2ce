"""Where a user's data lives: the data folder, the database URL and the blob store."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir

from annotator.storage.blobs import BlobStore
from annotator.storage.database import Database, open_database, sqlite_url

DATA_DIR_ENV = "ANNOTATOR_DATA_DIR"
DB_URL_ENV = "ANNOTATOR_DB_URL"
DATABASE_FILE = "annotator.sqlite"
BLOBS_FOLDER = "blobs"


def default_data_dir() -> Path:
    configured = os.environ.get(DATA_DIR_ENV)
    return Path(configured).expanduser() if configured else Path(user_data_dir("mobile-annotator", False))


def resolve_db_url(data_dir: Path, db_url: str | None) -> str:
    return db_url or os.environ.get(DB_URL_ENV) or sqlite_url(data_dir / DATABASE_FILE)


@dataclass
class Workspace:
    """An open workspace: the database (migrated to head) and the blobs beside it."""

    data_dir: Path
    database: Database
    blobs: BlobStore

    @classmethod
    def open(cls, data_dir: Path | None = None, db_url: str | None = None, *, migrate: bool = True) -> Workspace:
        folder = Path(data_dir) if data_dir is not None else default_data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        database = open_database(resolve_db_url(folder, db_url), migrate=migrate)
        return cls(data_dir=folder, database=database, blobs=BlobStore(folder / BLOBS_FOLDER))

    def close(self) -> None:
        self.database.dispose()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
