"""A team database on the test PostgreSQL server: one workspace, its owner, and a login per person made with the
app's own command (`annotator people add NAME --role ROLE --login LOGIN`), each with its own password.

The server checks people's passwords with SCRAM (.ci/run); only the tests' superuser is trusted. Logins are the
server's, not the database's: the fixture drops them after the test.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import click.testing
import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from annotator.cli.root import cli
from annotator.storage.workspace import Workspace
from tests.factories import database_snapshot
from tests.postgres import ADMIN_URL

TEAM = (("主管", "admin"), ("小王", "annotator"), ("张审核", "reviewer"), ("小李", "annotator"))


@dataclass
class TeamDatabase:
    owner_url: str
    data_dir: Path
    suffix: str
    logins: dict[str, str] = field(default_factory=dict)  # person -> login
    passwords: dict[str, str] = field(default_factory=dict)  # person -> password

    def url(self, person: str, password: str | None = None) -> str:
        """The database as `person`'s login, with their password (or the one given)."""
        login = self.logins[person]
        chosen = self.passwords[person] if password is None else password
        return make_url(self.owner_url).set(username=login, password=chosen).render_as_string(hide_password=False)

    def run(self, person: str | None, *args: str, env: dict[str, str] | None = None, input: str | None = None):
        """The `annotator` command as `person`'s login (None: the owner)."""
        url = self.owner_url if person is None else self.url(person)
        runner = CliRunner()
        return runner.invoke(cli, ["--data-dir", str(self.data_dir), "--db", url, *args], env=env or {}, input=input)

    def open(self, person: str | None = None) -> Workspace:
        return Workspace.open(self.data_dir, self.owner_url if person is None else self.url(person))

    def snapshot(self) -> dict[str, list[tuple]]:
        with self.open() as workspace:
            return database_snapshot(workspace)

    def add(self, person: str, role: str, *, by: str | None = None) -> click.testing.Result:
        login = f"t{self.suffix}_{len(self.logins)}"
        password = f"pw-{uuid.uuid4().hex}"
        done = self.run(
            by, "people", "add", person, "--role", role, "--login", login, "--password-stdin", input=password + "\n"
        )
        if done.exit_code == 0:
            self.logins[person], self.passwords[person] = login, password
        return done


def one_line_error(result: click.testing.Result) -> str:
    """The refusal's one line (exit code 1, no traceback)."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


def drop_logins(owner_url: str, team: TeamDatabase) -> None:
    """What the logins hold in the test's database, then the logins (and the workspace's group) on the server."""
    names = [*team.logins.values(), f"{make_url(owner_url).database}_people"]
    for url, statement in ((owner_url, "DROP OWNED BY {}"), (ADMIN_URL or "", "DROP ROLE {}")):
        engine = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        with engine.connect() as connection:
            existing = {row[0] for row in connection.exec_driver_sql("SELECT rolname FROM pg_roles")}
            present = ", ".join(f'"{name}"' for name in names if name in existing)
            if present:
                connection.exec_driver_sql(statement.format(present))
        engine.dispose()


@pytest.fixture
def team(postgres_url: str, tmp_path: Path) -> Iterator[TeamDatabase]:
    """A workspace on its own database whose people (TEAM) each have a login, made by the owner."""
    made = TeamDatabase(postgres_url, tmp_path / "team", uuid.uuid4().hex[:8])
    try:
        for person, role in TEAM:
            added = made.add(person, role)
            assert added.exit_code == 0, added.output
        yield made
    finally:
        drop_logins(postgres_url, made)
