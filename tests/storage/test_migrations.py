from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from annotator.storage import labels
from annotator.storage.database import (
    SchemaTooNewError,
    alembic_config,
    backup_sqlite,
    create_db_engine,
    head_revision,
    open_database,
    sqlite_url,
    upgrade,
)
from annotator.storage.models import Base
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, database_snapshot, step_ids

FIRST_REVISION = "0001"


@pytest.mark.slow
def test_empty_database_is_created_at_head(tmp_path: Path) -> None:
    database = open_database(sqlite_url(tmp_path / "new.sqlite"))
    assert database.schema.current == head_revision()
    assert database.schema.backup is None  # nothing to back up in a new file
    with database.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    database.dispose()


@pytest.mark.slow
def test_migrations_build_exactly_the_models(tmp_path: Path) -> None:
    database = open_database(sqlite_url(tmp_path / "db.sqlite"))
    with database.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    database.dispose()
    assert differences == []


def test_first_schema_with_data_upgrades_to_head_keeping_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    engine = create_db_engine(sqlite_url(path))
    upgrade(engine, FIRST_REVISION)
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO apps (id, name, created_at) VALUES (1, '淘宝', '2025-01-01')"))
        connection.execute(
            text(
                "INSERT INTO instructions (id, uid, app_id, text, source, status, created_at) "
                "VALUES (1, 'u-1', 1, '打开淘宝', 'manual', 'active', '2025-01-01')"
            )
        )
    engine.dispose()
    database = open_database(sqlite_url(path))
    assert database.schema.current == head_revision()
    with database.engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT text FROM instructions").scalar() == "打开淘宝"
    database.dispose()


def test_backup_copies_a_database_that_holds_data(tmp_path: Path) -> None:
    with Workspace.open(tmp_path / "data") as workspace:
        add_trajectory(workspace, "淘宝", "打开淘宝", 2)
        engine = workspace.database.engine
        backup = backup_sqlite(engine, head_revision())
        assert backup is not None and backup.exists()
        backup_engine = create_db_engine(sqlite_url(backup))
        with backup_engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT count(*) FROM steps").scalar() == 2
        backup_engine.dispose()


def test_newer_schema_is_refused_and_left_untouched(tmp_path: Path) -> None:
    with Workspace.open(tmp_path / "data") as workspace:
        add_trajectory(workspace, "淘宝", "打开淘宝", 1)
        with workspace.database.engine.begin() as connection:
            connection.exec_driver_sql("UPDATE alembic_version SET version_num = '9999_from_the_future'")
        before = database_snapshot(workspace)
    with pytest.raises(SchemaTooNewError, match=r"9999_from_the_future.*newer version"):
        Workspace.open(tmp_path / "data")
    with pytest.raises(SchemaTooNewError):
        Workspace.open(tmp_path / "data", migrate=False)
    engine = create_db_engine(sqlite_url(tmp_path / "data" / "annotator.sqlite"))
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == "9999_from_the_future"
        assert connection.exec_driver_sql("SELECT count(*) FROM steps").scalar() == len(before["steps"])
    engine.dispose()
    assert not list((tmp_path / "data").glob("*.backup-*"))


def test_privacy_regions_come_with_0005_and_labelled_steps_keep_everything_across_it(tmp_path: Path) -> None:
    with Workspace.open(tmp_path / "data") as workspace:
        add_trajectory(workspace, "淘宝", "打开淘宝", 2)
        first, _ = step_ids(workspace)
        labels.update_label(workspace.database, first, {"privacy_regions": [[0, 100, 1080, 260]]}, person="小王")
        engine = workspace.database.engine
        with engine.begin() as connection:  # back to the schema before privacy regions
            config = alembic_config()
            config.attributes["connection"] = connection
            command.downgrade(config, "0004")
        with engine.connect() as connection:
            columns = [row[1] for row in connection.exec_driver_sql("PRAGMA table_info(steps)")]
            older = connection.exec_driver_sql("SELECT id, think, tool_call, verdict FROM steps ORDER BY id").all()
        assert "privacy_regions" not in columns and len(older) == 2 and older[0][1] == "当前在第 0 步"
    database = open_database(sqlite_url(tmp_path / "data" / "annotator.sqlite"))
    assert database.schema.current == head_revision() and database.schema.backup is not None
    with database.engine.connect() as connection:
        newer = connection.exec_driver_sql("SELECT id, think, tool_call, verdict FROM steps ORDER BY id").all()
        regions = connection.exec_driver_sql("SELECT privacy_regions FROM steps").scalars().all()
    assert newer == older and regions == [None, None]
    assert labels.update_label(database, first, {"privacy_regions": [[0, 0, 10, 10]]}) == 1
    database.dispose()


def test_0006_merges_duplicate_instructions_into_the_oldest_and_says_so(tmp_path: Path) -> None:
    with Workspace.open(tmp_path / "data") as workspace:
        first = add_trajectory(workspace, "淘宝", "打开淘宝", 1)
        engine = workspace.database.engine
        with engine.begin() as connection:  # back to before the constraint, when duplicates could be stored
            config = alembic_config()
            config.attributes["connection"] = connection
            command.downgrade(config, "0005")
        with engine.begin() as connection:
            connection.exec_driver_sql(
                "INSERT INTO instructions (id, uid, app_id, text, source, status, created_at) VALUES "
                "(7, 'dup-7', 1, '打开淘宝', 'imported', 'active', '2026-01-02'), "
                "(8, 'dup-8', 1, '打开淘宝', 'generated', 'rejected', '2026-01-03')"
            )
            connection.exec_driver_sql(
                "INSERT INTO trajectories (id, uid, instruction_id, collector_kind, run_number, status, review_status,"
                " started_at) VALUES (20, 't-20', 7, 'human', 1, 'complete', 'unlabelled', '2026-01-02'),"
                " (21, 't-21', 8, 'human', 1, 'complete', 'unlabelled', '2026-01-03')"
            )
    database = open_database(sqlite_url(tmp_path / "data" / "annotator.sqlite"))
    assert database.schema.current == head_revision()
    assert database.schema.notes == (
        "instruction 1 of 淘宝 ('打开淘宝') absorbed its duplicates 7 (active, uid dup-7), 8 (rejected, uid dup-8) "
        "with 2 trajectories",
    )
    with database.engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT id FROM instructions").scalars().all() == [1]
        runs = connection.exec_driver_sql("SELECT id, instruction_id, run_number FROM trajectories ORDER BY id").all()
    assert runs == [(first, 1, 1), (20, 1, 2), (21, 1, 3)]
    with pytest.raises(IntegrityError), database.engine.begin() as connection:  # one per app and text from now on
        connection.exec_driver_sql(
            "INSERT INTO instructions (uid, app_id, text, source, status, created_at) "
            "VALUES ('again', 1, '打开淘宝', 'manual', 'active', '2026-01-04')"
        )
    database.dispose()


@pytest.mark.slow
def test_every_migration_goes_up_from_empty_and_back_down(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """On SQLite and PostgreSQL: empty to head builds exactly the models, down to base leaves no table, and the way
    up again works (a downgrade leaves nothing behind that the upgrades trip over)."""
    url = sqlite_url(tmp_path / "db.sqlite") if backend == "sqlite" else request.getfixturevalue("postgres_url")
    engine = create_db_engine(url)
    assert upgrade(engine).current == head_revision()
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    with engine.begin() as connection:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    assert upgrade(engine).current == head_revision()
    engine.dispose()


def test_the_head_revision_named_in_code_is_the_packaged_migrations_head() -> None:
    """An up-to-date database opens without Alembic by comparing with HEAD_REVISION: a new migration updates it."""
    from annotator.storage.database import HEAD_REVISION

    assert head_revision() == HEAD_REVISION
