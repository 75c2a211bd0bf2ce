"""The people of a workspace and their roles, as stored: the list that says who may do what once it has an admin
(docs/adr/0008-people-and-roles.md).

Names are stored stripped and compared exactly. Roles are plain strings (ROLES), as everywhere in the schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session

from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.models_team import Assignment
from annotator.storage.writing import writing

P = models.Person
ANNOTATOR, REVIEWER, ADMIN = "annotator", "reviewer", "admin"
ROLES = (ANNOTATOR, REVIEWER, ADMIN)


@dataclass(frozen=True)
class PersonRecord:
    name: str
    role: str
    created_at: datetime
    open_assignments: int
    login: str | None = None  # their own PostgreSQL login on a team database


def check_role_name(role: str) -> str:
    if role not in ROLES:
        raise ValueError(f"role {role!r} is not one of {', '.join(ROLES)}")
    return role


def has_admin(session: Session) -> bool:
    """Whether the list is managed: an admin is on it (until then roles are what people say they are)."""
    return bool(session.scalar(select(exists().where(P.role == ADMIN))))


def workspace_has_admin(db: Database) -> bool:
    with db.session() as session:
        return has_admin(session)


def role_of(db: Database, name: str) -> str | None:
    """The stored role of `name`; None when the list does not know them."""
    with db.session() as session:
        return session.scalar(select(P.role).where(P.name == name.strip()))


def person_names(db: Database) -> list[str]:
    """Every name on the list, in order: whom a study may name as raters."""
    with db.session() as session:
        return list(session.scalars(select(P.name).order_by(P.name)))


def list_people(db: Database) -> list[PersonRecord]:
    """Everyone on the list with their role and how many open assignments they hold, admins first."""
    open_counts = (
        select(Assignment.person_id, func.count().label("open"))
        .where(Assignment.done_at.is_(None))
        .group_by(Assignment.person_id)
        .subquery()
    )
    rank = {ADMIN: 0, REVIEWER: 1, ANNOTATOR: 2}
    with db.session() as session:
        rows = session.execute(
            select(P.name, P.role, P.created_at, func.coalesce(open_counts.c.open, 0), P.login).outerjoin(
                open_counts, open_counts.c.person_id == P.id
            )
        ).all()
    people = [PersonRecord(name, role, created_at, int(count), login) for name, role, created_at, count, login in rows]
    return sorted(people, key=lambda p: (rank.get(p.role, 3), p.name))


def add_person(db: Database, name: str, role: str) -> None:
    """Put `name` on the list with `role`; ValueError when the name is empty or already there."""
    name = name.strip()
    if not name:
        raise ValueError("a person needs a name")
    check_role_name(role)
    with writing(db) as session:
        found = session.scalar(select(P.role).where(P.name == name))
        if found is not None:
            raise ValueError(f"{name} is already on the list (as {found}); change the role with `people role`")
        session.add(P(name=name, role=role))


def set_role(db: Database, name: str, role: str) -> str:
    """Change `name`'s role; returns the old one. The last admin keeps theirs: a managed list always has one."""
    check_role_name(role)
    with writing(db) as session:
        person = session.scalar(select(P).where(P.name == name.strip()))
        if person is None:
            raise LookupError(f"no person named {name!r} on this workspace's list (`annotator people list`)")
        old = person.role
        if old == ADMIN and role != ADMIN:
            admins = session.scalar(select(func.count()).where(P.role == ADMIN))
            if admins == 1:
                raise ValueError(f"{person.name} is the only admin: make someone else admin first")
        person.role = role
        return old
