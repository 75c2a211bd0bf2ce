"""Issue 30: on a team database who you are is your PostgreSQL login, and the database itself refuses what your
role may not do. Every route is tried for an annotator, a reviewer and a rater: the CLI's --as, ANNOTATOR_PERSON,
the services, connecting as another login without its password, and plain SQL on their own connection. Each is
refused in one line, with nothing changed (the owner's snapshot of every table, before and after)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from annotator.cli.root import cli
from annotator.services import review
from annotator.services import team as team_service
from annotator.services.annotation import Editor, IncompleteWork
from annotator.services.roles import NotAllowed
from annotator.storage import labels
from annotator.storage.failures import WorkspaceError
from annotator.storage.logins import connected
from annotator.storage.people import list_people
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from tests.postgres import needs_postgres
from tests.team_database import TeamDatabase, one_line_error

pytestmark = [needs_postgres, pytest.mark.slow]


@pytest.fixture
def work(team: TeamDatabase) -> TeamDatabase:
    """Two trajectories, collected by the owner: #1 labelled and annotated (waiting for review), #2 not labelled."""
    with team.open() as workspace:
        first = add_trajectory(workspace, "淘宝", "打开淘宝", 2, seed=1, label=False)
        add_trajectory(workspace, "抖音", "打开抖音", 2, seed=2, label=False)
        labels.submit_for_review(workspace.database, first)
    return team


def test_each_login_is_its_person_and_the_owner_is_trusted(work: TeamDatabase) -> None:
    with work.open("小王") as workspace:
        found = connected(workspace.database)
        assert found is not None and (found.person, found.role, found.owner) == ("小王", "annotator", False)
    with work.open() as workspace:
        owner = connected(workspace.database)
        assert owner is not None and owner.owner and not owner.verified
        assert {p.name: p.login for p in list_people(workspace.database)} == work.logins
    assert "小王 (annotator), checked by the database" in work.run("小王", "people", "whoami").output


@pytest.mark.parametrize("person", ["小王", "张审核", "小李"])
def test_nobody_but_an_admin_changes_roles_by_any_name(work: TeamDatabase, person: str) -> None:
    before = work.snapshot()
    as_admin = one_line_error(work.run(person, "people", "role", person, "admin", "--as", "主管"))
    assert f"you are connected as {work.logins[person]}" in as_admin and "主管" in as_admin
    by_variable = work.run(person, "people", "add", "黑客", "--role", "admin", env={"ANNOTATOR_PERSON": "主管"})
    assert "you are connected as" in one_line_error(by_variable)
    as_self = one_line_error(work.run(person, "people", "role", person, "admin"))
    assert "only admins" in as_self
    assert work.snapshot() == before


def test_the_services_refuse_a_typed_name(work: TeamDatabase) -> None:
    before = work.snapshot()
    with work.open("小王") as workspace:
        with pytest.raises(NotAllowed, match="you are connected as"):
            review.accept(workspace, 1, "主管")
        with pytest.raises(NotAllowed, match="you are connected as"):
            review.reject(workspace, 1, "张审核", "重做")
        with pytest.raises(NotAllowed, match="only reviewers and admins"):
            review.accept(workspace, 1, "小王")
        with pytest.raises(NotAllowed, match="you are connected as"):
            team_service.set_role(workspace, "小王", "admin", by="主管")
        with pytest.raises(IncompleteWork):  # "submit anyway" is a reviewer's: the claimed role counts no more
            Editor(workspace, 2, "小王", role="admin").submit(anyway=True)
    assert work.snapshot() == before


def test_a_reviewer_decides_under_their_own_name_only(work: TeamDatabase) -> None:
    with work.open("张审核") as workspace:
        with pytest.raises(NotAllowed, match="only admins"):
            team_service.set_role(workspace, "小王", "reviewer", by="张审核")
        review.accept(workspace, 1, "张审核", "好")
    assert review_status(work, 1) == "accepted"


def review_status(work: TeamDatabase, trajectory_id: int) -> str:
    with work.open() as workspace, workspace.database.engine.connect() as connection:
        found = connection.execute(text("SELECT review_status FROM trajectories WHERE id = :id"), {"id": trajectory_id})
        return found.scalar_one()


def test_connecting_as_another_login_needs_its_password(work: TeamDatabase) -> None:
    before = work.snapshot()
    with pytest.raises(WorkspaceError) as refused:
        Workspace.open(work.data_dir, work.url("主管", password="小王的密码"))
    assert "password authentication failed" in str(refused.value) and "\n" not in str(refused.value)
    cli_refused = one_line_error(work.run(None, "--db", work.url("主管", password="猜"), "people", "list"))
    assert "password authentication failed" in cli_refused
    assert work.snapshot() == before


PLAIN_SQL = {
    "make oneself admin": "UPDATE people SET role = 'admin' WHERE name = '{me}'",
    "add an admin": "INSERT INTO people (name, role, created_at) VALUES ('黑客', 'admin', now())",
    "take another's login": "UPDATE people SET login = '{me_login}x' WHERE name = '主管'",
    "accept": "UPDATE trajectories SET review_status = 'accepted' WHERE id = 1",
    "reject": "UPDATE trajectories SET review_status = 'rejected' WHERE id = 1",
    "a decision row": "INSERT INTO reviews (trajectory_id, status, reviewer_id, created_at) "
    "VALUES (1, 'accepted', (SELECT id FROM people WHERE name = '主管'), now())",
    "give oneself work": "INSERT INTO assignments (person_id, task, trajectory_id, assigned_at) "
    "VALUES ((SELECT id FROM people WHERE name = '{me}'), 'label', 2, now())",
    "label as another": "INSERT INTO label_revisions (trajectory_id, step_id, person_id, field, old_value, "
    "new_value, created_at) VALUES (2, (SELECT min(id) FROM steps WHERE trajectory_id = 2), "
    "(SELECT id FROM people WHERE name = '主管'), 'think', NULL, '\"x\"', now())",
    "empty the people": "TRUNCATE people CASCADE",
    "switch the checks off": "ALTER TABLE people DISABLE TRIGGER annotator_guard",
    "become the owner": "SET ROLE postgres",
}


@pytest.mark.parametrize("person", ["小王", "张审核", "小李"])
def test_plain_sql_on_ones_own_connection_is_refused(work: TeamDatabase, person: str) -> None:
    before = work.snapshot()
    engine = create_engine(work.url(person), poolclass=NullPool)
    refused = {}
    for what, statement in PLAIN_SQL.items():
        if person == "张审核" and what in ("accept", "reject"):
            continue  # a reviewer's own work (by SQL too)
        sql = statement.format(me=person, me_login=work.logins[person])
        with engine.connect() as connection, pytest.raises(Exception) as caught:
            connection.execute(text(sql))
            connection.commit()
        refused[what] = caught.value
    engine.dispose()
    assert {what: getattr(e, "orig", e).sqlstate for what, e in refused.items()} == dict.fromkeys(refused, "42501")
    for what in ("make oneself admin", "add an admin", "give oneself work", "label as another"):
        assert "checked by the database" in str(refused[what]), (what, refused[what])
    assert work.snapshot() == before


def test_an_admins_login_makes_logins_that_connect(work: TeamDatabase) -> None:
    added = work.add("小赵", "annotator", by="主管")
    assert added.exit_code == 0, added.output
    with work.open("小赵") as workspace:
        found = connected(workspace.database)
        assert found is not None and found.person == "小赵"
    promoted = work.run("主管", "people", "role", "小赵", "reviewer")
    assert promoted.exit_code == 0, promoted.output
    with work.open("小赵") as workspace:
        review.accept(workspace, 1, "小赵")


def test_logins_belong_to_team_databases(tmp_path: Path) -> None:
    Workspace.open(tmp_path).close()
    result = CliRunner().invoke(
        cli, ["--data-dir", str(tmp_path), "people", "add", "小王", "--role", "admin", "--login", "xiaowang"]
    )
    assert "on SQLite whoever can write the file can do anything" in one_line_error(result)
