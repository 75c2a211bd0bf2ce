"""The same models, migrations, bundles and stats on a real PostgreSQL server.

Runs when ANNOTATOR_TEST_POSTGRES_URL names a server where we may create databases
(.ci/run starts one); a developer without PostgreSQL sees these tests skipped.
"""

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.stats import dataset_stats
from annotator.storage import labels
from annotator.storage.workspace import Workspace
from tests.factories import step_ids

ADMIN_URL = os.environ.get("ANNOTATOR_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not ADMIN_URL, reason="set ANNOTATOR_TEST_POSTGRES_URL to test on PostgreSQL")


@pytest.fixture
def postgres_url() -> Iterator[str]:
    assert ADMIN_URL
    name = f"annotator_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    yield make_url(ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
    admin.dispose()


def test_bundle_labels_and_stats_on_postgres(populated: Workspace, postgres_url: str, tmp_path: Path) -> None:
    bundle = export_bundle(populated, tmp_path / "bundle.zip").path
    with Workspace.open(tmp_path / "team", postgres_url) as team:
        assert team.database.engine.url.get_backend_name() == "postgresql"
        result = import_bundle(team, bundle)
        assert (result.trajectories_added, result.steps_added) == (3, 7)
        assert import_bundle(team, bundle).trajectories_added == 0
        assert dataset_stats(team.database) == dataset_stats(populated.database)
        first_step = step_ids(team)[0]
        assert labels.update_label(team.database, first_step, {"verdict": "wrong", "think": "改"}, person="小王") == 2
        again = export_bundle(team, tmp_path / "again")
        assert again.steps == 7
