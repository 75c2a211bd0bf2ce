"""Who is connected, as the database knows it, and the logins an admin makes for people on a team server.

On PostgreSQL each person connects with their own login; the `people` entry that names the login says who they
are, and the database's own checks (migration 0013: triggers, row security on judge scores) refuse what their role
may not do, whatever the app is told. The tables' owner (and a superuser) is the workspace's DBA and passes every
check. SQLite has no logins: whoever can write the file can do anything (docs/adr/0011-identity-is-the-database-
login.md).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from sqlalchemy import Connection, select, text

from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.writing import writing

LOGIN_PATTERN = re.compile(r"[a-z_][a-z0-9_]{0,62}")
# study_items.judge_reward is the judge's score: people read it through the study_item_strata view, which hides it
# from the raters of an open study.
HIDDEN_COLUMNS = {"study_items": {"judge_reward"}}


@dataclass(frozen=True)
class Connected:
    """The login this connection is, and whose it is."""

    login: str
    owner: bool  # the tables' owner or a superuser: the DBA, trusted by every check
    person: str | None  # the person whose entry names this login
    role: str | None

    @property
    def verified(self) -> bool:
        """Whether the database says who is acting (a person's own login), so no name typed may say otherwise."""
        return not self.owner


def pgpass_address(db: Database) -> str:
    """host:port:database, as a ~/.pgpass line starts."""
    url = db.engine.url
    return f"{url.host or 'localhost'}:{url.port or 5432}:{url.database}"


def is_team_database(db: Database) -> bool:
    return db.engine.dialect.name == "postgresql"


def connected(db: Database) -> Connected | None:
    """Who this connection is; None on SQLite, which has no logins."""
    if not is_team_database(db):
        return None
    with db.engine.connect() as connection:
        login = connection.execute(text("SELECT session_user")).scalar_one()
        owner = connection.execute(text("SELECT annotator_caller_is_owner()")).scalar_one()
        found = connection.execute(
            select(models.Person.name, models.Person.role).where(models.Person.login == login)
        ).first()
    return Connected(login, bool(owner), found[0] if found else None, found[1] if found else None)


def verified(db: Database) -> Connected | None:
    """The connection's identity when the database vouches for it (a person's own login on PostgreSQL)."""
    found = connected(db)
    return found if found is not None and found.verified else None


def check_login_name(login: str) -> str:
    if not LOGIN_PATTERN.fullmatch(login):
        raise ValueError(
            f"login {login!r} is not a plain PostgreSQL login name: lower-case letters, digits and _, "
            "starting with a letter or _, at most 63"
        )
    return login


def group_of(connection: Connection) -> str:
    """The role every person's login of this workspace belongs to: it holds their table privileges."""
    database = connection.execute(text("SELECT current_database()")).scalar_one()
    return f"{database}_people"[:63]


def _role_exists(connection: Connection, name: str) -> bool:
    found = connection.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :name"), {"name": name}).first()
    return found is not None


def ensure_group(connection: Connection) -> str:
    """Make the workspace's people group and give it what a person's work needs: read and write rows, never the
    schema (no TRUNCATE, no DDL, no triggers: those stay the owner's); the judge's score of a study's sample only
    through its view. Needs the tables' owner; an admin's login finds it made."""
    group = group_of(connection)
    if not _role_exists(connection, group):
        connection.exec_driver_sql(f'CREATE ROLE "{group}" NOLOGIN')
    database = connection.execute(text("SELECT current_database()")).scalar_one()
    owner_only = connection.execute(text("SELECT annotator_caller_is_owner()")).scalar_one()
    if not owner_only:
        return group  # an admin's login: the owner set the privileges up when making the first login
    schema = connection.execute(text("SELECT current_schema()")).scalar_one()
    for statement in (
        f'GRANT CONNECT ON DATABASE "{database}" TO "{group}"',
        f'GRANT USAGE ON SCHEMA "{schema}" TO "{group}"',
        f'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "{schema}" TO "{group}"',
        f'REVOKE INSERT, UPDATE, DELETE ON alembic_version FROM "{group}"',
        f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA "{schema}" TO "{group}"',
        f'GRANT SELECT ON study_item_strata TO "{group}"',
    ):
        connection.exec_driver_sql(statement)
    for table, hidden in HIDDEN_COLUMNS.items():
        columns = [c.name for c in models.Base.metadata.tables[table].columns if c.name not in hidden]
        connection.exec_driver_sql(f'REVOKE SELECT ON {table} FROM "{group}"')
        connection.exec_driver_sql(f'GRANT SELECT ({", ".join(columns)}) ON {table} TO "{group}"')
    return group


def new_password() -> str:
    return secrets.token_urlsafe(18)


def _scram_verifier(connection: Connection, login: str, password: str) -> str:
    """The password as PostgreSQL stores it (SCRAM), made here: the password itself never travels in a statement
    that a server log could keep."""
    pgconn = connection.connection.driver_connection.pgconn  # type: ignore[union-attr]
    return bytes(pgconn.encrypt_password(password.encode(), login.encode(), b"scram-sha-256")).decode()


def create_login(connection: Connection, login: str, password: str) -> bool:
    """Make `login` (with `password`) a member of the workspace's people group; an existing login only joins it.
    True when the login was made."""
    group = ensure_group(connection)
    made = not _role_exists(connection, login)
    if made:
        verifier = _scram_verifier(connection, login, password).replace("'", "''")
        connection.exec_driver_sql(f"CREATE ROLE \"{login}\" LOGIN PASSWORD '{verifier}'")
    connection.exec_driver_sql(f'GRANT "{group}" TO "{login}"')
    return made


def set_admin_powers(connection: Connection, login: str, admin: bool) -> None:
    """An admin's login may make people's logins (CREATEROLE, and the group's admin option that PostgreSQL 16
    asks for); anyone else's may not."""
    group = ensure_group(connection)
    if admin:
        connection.exec_driver_sql(f'ALTER ROLE "{login}" CREATEROLE')
        connection.exec_driver_sql(f'GRANT "{group}" TO "{login}" WITH ADMIN OPTION')
    else:
        connection.exec_driver_sql(f'ALTER ROLE "{login}" NOCREATEROLE')
        connection.exec_driver_sql(f'REVOKE ADMIN OPTION FOR "{group}" FROM "{login}"')


def login_of(db: Database, name: str) -> str | None:
    with db.session() as session:
        return session.scalar(select(models.Person.login).where(models.Person.name == name.strip()))


def give_login(db: Database, name: str, login: str, role: str, password: str, *, add: bool = False) -> bool:
    """Make (or adopt) `login` for the person called `name` (put on the list with `role` when `add`), with the
    powers of their role, and write it on their entry, all in one transaction. True when a new login was made."""
    check_login_name(login)
    with writing(db) as session:
        person = session.scalar(select(models.Person).where(models.Person.name == name.strip()))
        if add and person is not None:
            raise ValueError(
                f"{person.name} is already on the list (as {person.role}); give a login with `people login`"
            )
        if add:
            person = models.Person(name=name.strip(), role=role)
            session.add(person)
        if person is None:
            raise LookupError(f"no person named {name!r} on this workspace's list (`annotator people list`)")
        holder = session.scalar(select(models.Person.name).where(models.Person.login == login))
        if holder is not None and holder != person.name:
            raise ValueError(f"login {login} is already {holder}'s")
        connection = session.connection()
        made = create_login(connection, login, password)
        set_admin_powers(connection, login, person.role == "admin")
        person.login = login
    return made


def sync_admin_powers(db: Database, name: str, role: str) -> None:
    """After a role change: the person's login gets (or loses) an admin's powers."""
    login = login_of(db, name)
    if login is None or not is_team_database(db):
        return
    with db.engine.begin() as connection:
        set_admin_powers(connection, login, role == "admin")
