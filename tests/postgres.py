"""Databases on the PostgreSQL server named by ANNOTATOR_TEST_POSTGRES_URL, for the tests that run there too.

The storage and service tests get a `workspace` on SQLite and one on PostgreSQL (tests/conftest.py). Making and
migrating a database per test costs ~0.3 s, so each test process (an xdist worker) migrates one database once and
empties its tables before each test: the schema is the models' (tests/storage/test_migrations.py checks that) and
no migration seeds rows, so an emptied database is a new one. Tests that need a database of their own (migrations,
a second team database) ask for `postgres_url`: a new, empty one, dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from annotator.storage.database import open_database
from annotator.storage.models import Base
from annotator.storage.workspace import Workspace

ADMIN_URL = os.environ.get("ANNOTATOR_TEST_POSTGRES_URL")
SKIP_REASON = "set ANNOTATOR_TEST_POSTGRES_URL to test on PostgreSQL"
needs_postgres = pytest.mark.skipif(not ADMIN_URL, reason=SKIP_REASON)


def database_url(workspace: Workspace) -> str:
    """The URL the workspace's database was opened at (with its password), to open it again."""
    return workspace.database.url


class TestDatabases:
    """Creates and drops databases on the test server; one admin connection in autocommit (CREATE DATABASE)."""

    __test__ = False  # not a test class

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self.admin: Engine = create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)

    def create(self) -> str:
        name = f"annotator_test_{uuid.uuid4().hex[:12]}"
        with self.admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        return make_url(self.admin_url).set(database=name).render_as_string(hide_password=False)

    def drop(self, url: str) -> None:
        with self.admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE "{make_url(url).database}" WITH (FORCE)')


def empty_tables(url: str) -> None:
    """Every model's table emptied and its ids restarted, in one statement. A test that left a connection in a
    transaction would hold its locks: the lock timeout makes that an error instead of a hang."""
    tables = ", ".join(f'"{table.name}"' for table in Base.metadata.sorted_tables)
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql("SET LOCAL lock_timeout = '10s'")
            connection.exec_driver_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def postgres_databases() -> TestDatabases:
    if not ADMIN_URL:
        pytest.skip(SKIP_REASON)
    return TestDatabases(ADMIN_URL)


@pytest.fixture
def postgres_url(postgres_databases: TestDatabases) -> Iterator[str]:
    """A new, empty database of this test's own."""
    url = postgres_databases.create()
    yield url
    postgres_databases.drop(url)


@pytest.fixture(scope="session")
def shared_postgres_url(postgres_databases: TestDatabases) -> Iterator[str]:
    """This test process's database, migrated to head once."""
    url = postgres_databases.create()
    open_database(url).dispose()
    yield url
    postgres_databases.drop(url)


@pytest.fixture
def emptied_postgres_url(shared_postgres_url: str) -> str:
    """The process's database with every table emptied: as good as a new one, at a tenth of the cost."""
    empty_tables(shared_postgres_url)
    return shared_postgres_url
