"""Assignments as stored: who is given which trajectory, app (its instruction set) or study, by whom, and when
it was done.

A trajectory or an app has at most one open assignment per task: giving it to someone else moves it (the
caller is told from whom). A study is rated by several people, so each rater holds their own. Giving a study
to a person also makes them one of its raters (`study_raters`), with the order seed the caller computed.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session, aliased

from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.models import utcnow
from annotator.storage.models_team import Assignment
from annotator.storage.writing import writing

As, P, T, Ins, A, St = Assignment, models.Person, models.Trajectory, models.Instruction, models.App, models.Study
LABEL, REVIEW, RATE = "label", "review", "rate"
TASKS = (LABEL, REVIEW, RATE)


@dataclass(frozen=True)
class Target:
    """What is assigned: trajectories by id, one app's instructions, or one study by name."""

    trajectory_ids: tuple[int, ...] = ()
    app: str | None = None
    study: str | None = None

    def kind(self) -> str:
        given = [
            kind
            for kind, value in (("trajectory", self.trajectory_ids), ("app", self.app), ("study", self.study))
            if value
        ]
        if len(given) != 1:
            raise ValueError("assign trajectories, an app's instructions or a study: exactly one of them")
        return given[0]


@dataclass(frozen=True)
class AssignmentRecord:
    id: int
    person: str
    task: str
    kind: str  # trajectory, app, study
    target: str  # the trajectory's id, the app's or the study's name
    assigned_by: str | None
    assigned_at: datetime
    done_at: datetime | None


@dataclass
class Assigned:
    """What one assign did: rows added, ones the person held already, and whom a target was taken from."""

    added: int = 0
    kept: int = 0
    moved_from: dict[str, int] = field(default_factory=dict)  # person -> targets taken from them


def _person(session: Session, name: str) -> models.Person:
    person = session.scalar(select(P).where(P.name == name.strip()))
    if person is None:
        raise LookupError(f"no person named {name!r} on this workspace's list: `annotator people add {name} --role …`")
    return person


def _targets(session: Session, target: Target) -> list[tuple[str, int]]:
    """(column, id) of each target, checked to exist."""
    kind = target.kind()
    if kind == "trajectory":
        ids = set(target.trajectory_ids)
        found = set(session.scalars(select(T.id).where(T.id.in_(ids))))
        if ids - found:
            raise LookupError(f"no trajectory with id {', '.join(map(str, sorted(ids - found)))}")
        return [("trajectory_id", i) for i in sorted(ids)]
    model, column, name = (A, "app_id", target.app) if kind == "app" else (St, "study_id", target.study)
    found_id = session.scalar(select(model.id).where(model.name == name))
    if found_id is None:
        raise LookupError(f"no {kind} named {name!r}")
    return [(column, found_id)]


def add(db: Database, person: str, task: str, target: Target, assigned_by: str | None, order_seed: int = 0) -> Assigned:
    """Give `target` to `person` for `task`; `order_seed` orders a study's items for a new rater."""
    result = Assigned()
    with writing(db) as session:
        who = _person(session, person)
        by = _person(session, assigned_by).id if assigned_by else None
        for column, target_id in _targets(session, target):
            held = list(
                session.scalars(
                    select(As).where(getattr(As, column) == target_id, As.task == task, As.done_at.is_(None))
                )
            )
            if any(a.person_id == who.id for a in held):
                result.kept += 1
                continue
            for other in held if task != RATE else []:  # a trajectory or an app has one holder per task
                result.moved_from[other.person.name] = result.moved_from.get(other.person.name, 0) + 1
                session.delete(other)
            session.add(As(person_id=who.id, task=task, assigned_by_id=by, **{column: target_id}))
            result.added += 1
            if column == "study_id":
                _ensure_rater(session, target_id, who.id, order_seed)
    return result


def _ensure_rater(session: Session, study_id: int, person_id: int, order_seed: int) -> None:
    Ra = models.StudyRater
    if session.scalar(select(Ra.id).where(Ra.study_id == study_id, Ra.person_id == person_id)) is None:
        session.add(Ra(study_id=study_id, person_id=person_id, order_seed=order_seed))


def remove(db: Database, person: str, target: Target) -> int:
    """Take back `person`'s open assignments of `target` (every task); returns how many. A study's ratings stay."""
    with writing(db) as session:
        who = _person(session, person)
        removed = 0
        for column, target_id in _targets(session, target):
            for row in session.scalars(
                select(As).where(As.person_id == who.id, getattr(As, column) == target_id, As.done_at.is_(None))
            ):
                session.delete(row)
                removed += 1
        return removed


def records(db: Database, person: str | None = None, *, open_only: bool = True) -> list[AssignmentRecord]:
    """Assignments (of `person`, or everyone's), oldest first."""
    By = aliased(P)
    query = (
        select(As, P.name, By.name, A.name, St.name)
        .join(P, P.id == As.person_id)
        .outerjoin(By, By.id == As.assigned_by_id)
        .outerjoin(A, A.id == As.app_id)
        .outerjoin(St, St.id == As.study_id)
        .order_by(As.id)
    )
    if person is not None:
        query = query.where(P.name == person.strip())
    if open_only:
        query = query.where(As.done_at.is_(None))
    with db.session() as session:
        rows = session.execute(query).all()
    found = []
    for row, name, by, app, study in rows:
        kind, target = (
            ("trajectory", str(row.trajectory_id))
            if row.trajectory_id is not None
            else ("app", app)
            if row.app_id is not None
            else ("study", study)
        )
        found.append(AssignmentRecord(row.id, name, row.task, kind, target, by, row.assigned_at, row.done_at))
    return found


def assigned_trajectories(
    db: Database, task: str, among: Collection[int] | None = None
) -> dict[int, tuple[str, str | None]]:
    """Every trajectory (of `among`, when given) with an open `task` assignment: id -> (holder, who assigned it).
    A trajectory's own assignment wins over its app's."""
    By = aliased(P)
    through_app = (
        select(T.id, P.name, By.name)
        .join(Ins, Ins.id == T.instruction_id)
        .join(As, As.app_id == Ins.app_id)
        .join(P, P.id == As.person_id)
        .outerjoin(By, By.id == As.assigned_by_id)
        .where(As.task == task, As.done_at.is_(None))
    )
    direct = (
        select(As.trajectory_id, P.name, By.name)
        .join(P, P.id == As.person_id)
        .outerjoin(By, By.id == As.assigned_by_id)
        .where(As.task == task, As.done_at.is_(None), As.trajectory_id.is_not(None))
    )
    if among is not None:
        through_app, direct = through_app.where(T.id.in_(among)), direct.where(As.trajectory_id.in_(among))
    with db.session() as session:
        found: dict[int, tuple[str, str | None]] = {i: (name, by) for i, name, by in session.execute(through_app)}
        found.update({i: (name, by) for i, name, by in session.execute(direct) if i is not None})
    return found


def finish(db: Database, trajectory_id: int, tasks: Sequence[str], person: str | None = None) -> int:
    """Mark the open `tasks` assignments of a trajectory done (only `person`'s, when given); returns how many."""
    conditions: list[ColumnElement[bool]] = [
        As.trajectory_id == trajectory_id,
        As.task.in_(tasks),
        As.done_at.is_(None),
    ]
    if person is not None:
        conditions.append(As.person_id.in_(select(P.id).where(P.name == person.strip())))
    return _finish(db, conditions)


def finish_rating(db: Database, study_id: int, person: str) -> int:
    """Mark `person`'s rating of a study done."""
    conditions = [
        As.study_id == study_id,
        As.task == RATE,
        As.done_at.is_(None),
        As.person_id.in_(select(P.id).where(P.name == person.strip())),
    ]
    return _finish(db, conditions)


def _finish(db: Database, conditions: Iterable[ColumnElement[bool]]) -> int:
    with writing(db) as session:
        rows = list(session.scalars(select(As).where(*conditions)))
        moment = utcnow()
        for row in rows:
            row.done_at = moment
        return len(rows)
