"""Label versions: a save made from an older read is refused instead of overwriting someone else's newer change.

Each step's labels and each trajectory's outcome carry a counter (``label_version``) that every change raises by
one. A save names the version it was based on (``expected_version``); when the stored one is newer the save is
refused with ``StaleLabelError``, which carries both sides so that the person can merge them, and nothing is
written. Saves that name no version (the command line, imports that do not read first) are not checked, but
still raise the counter.

How it stays right with two writers at once, on both databases: the row is read under a lock before it is
compared (``lock_version``: SQLite's BEGIN IMMEDIATE of ``writing`` holds the whole database, PostgreSQL's
SELECT ... FOR UPDATE holds the row until commit, and the values are read again after it, since READ COMMITTED
gives each statement a fresh snapshot), and the counter is then raised by a compare-and-set UPDATE ... WHERE
label_version = the value read (``raise_version``). The lock makes the second writer wait and then see the
first one's version; the compare-and-set refuses, rather than overwrites, should a caller ever write without
the lock. SQLAlchemy's ``version_id_col`` was not used: it raises the counter on every UPDATE of the row (a raw
column, a suggestion), compares against the value this transaction read rather than the one the person saw,
and would make counting edits inexact.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.writing import rows_changed

Versioned = models.Step | models.Trajectory


class StaleLabelError(Exception):
    """A save based on an older version than the stored one: refused, nothing written. It carries theirs (the values
    as stored, their version, who changed them and when) and mine (the values I tried to save, my base version)."""

    def __init__(
        self,
        *,
        trajectory_id: int,
        step_id: int | None,
        mine: dict[str, Any],
        theirs: dict[str, Any],
        my_version: int,
        their_version: int,
        changed_by: str | None,
        changed_at: datetime | None,
    ) -> None:
        self.trajectory_id, self.step_id = trajectory_id, step_id
        self.mine, self.theirs = dict(mine), dict(theirs)
        self.my_version, self.their_version = my_version, their_version
        self.changed_by, self.changed_at = changed_by, changed_at
        what = f"step {step_id}" if step_id is not None else f"the outcome of trajectory {trajectory_id}"
        who = changed_by or "someone"
        when = f" at {changed_at:%Y-%m-%d %H:%M:%S}" if changed_at else ""
        super().__init__(
            f"{what} was changed by {who}{when} (version {their_version}) after you read it (version {my_version}): "
            "your change was not saved; merge it with theirs"
        )


@dataclass(frozen=True)
class LabelVersions:
    """The versions of one trajectory's labels as read: the outcome's and each step's."""

    outcome: int
    steps: dict[int, int]

    def as_bases(self) -> dict[int | None, int]:
        """Keyed as an editor keeps them: a step id, or None for the outcome."""
        bases: dict[int | None, int] = {None: self.outcome}
        return bases | self.steps


def label_versions(db: Database, trajectory_id: int) -> LabelVersions:
    """Read these before the values they guard: a write in between then makes a save refused, never lost."""
    with db.session() as session:
        outcome = session.scalar(select(models.Trajectory.label_version).where(models.Trajectory.id == trajectory_id))
        if outcome is None:
            raise LookupError(f"no trajectory with id {trajectory_id}")
        rows = session.execute(
            select(models.Step.id, models.Step.label_version).where(models.Step.trajectory_id == trajectory_id)
        )
        return LabelVersions(outcome, {step_id: version for step_id, version in rows})


def lock_version(session: Session, row: Versioned) -> int:
    """The row's stored version, read under a lock held until commit, with its values read again after it."""
    model = type(row)
    stored = session.scalar(select(model.label_version).where(model.id == row.id).with_for_update())
    session.refresh(row)
    assert stored is not None
    return stored


def check_base(session: Session, row: Versioned, stored: int, expected: int | None, mine: dict[str, Any]) -> None:
    """Raise StaleLabelError when the save was based on an older version than `stored` (None: not checked)."""
    if expected is None or expected == stored:
        return
    step_id = row.id if isinstance(row, models.Step) else None
    trajectory_id = row.trajectory_id if isinstance(row, models.Step) else row.id
    newest = _newest_revision(session, trajectory_id, step_id)
    theirs = {field: getattr(row, "label_outcome" if step_id is None else field) for field in mine}
    raise StaleLabelError(
        trajectory_id=trajectory_id,
        step_id=step_id,
        mine=mine,
        theirs=theirs,
        my_version=expected,
        their_version=stored,
        changed_by=newest.person.name if newest and newest.person else None,
        changed_at=newest.created_at if newest else None,
    )


def raise_version(session: Session, row: Versioned, stored: int, mine: dict[str, Any]) -> int:
    """Raise the version by one if it is still `stored` (compare-and-set); the new version."""
    model = type(row)
    statement = (
        update(model)
        .where(model.id == row.id, model.label_version == stored)
        .values(label_version=stored + 1)
        .execution_options(synchronize_session=False)
    )
    if rows_changed(session, statement) != 1:  # another writer got there first: refused, not overwritten
        actual = session.scalar(select(model.label_version).where(model.id == row.id))
        check_base(session, row, actual if actual is not None else stored + 1, stored, mine)
        raise LookupError(f"{model.__tablename__} row {row.id} is gone")
    set_committed_value(row, "label_version", stored + 1)
    return stored + 1


def _newest_revision(session: Session, trajectory_id: int, step_id: int | None) -> models.LabelRevision | None:
    R = models.LabelRevision
    query = select(R).where(R.trajectory_id == trajectory_id).options(selectinload(R.person))
    query = query.where(R.step_id == step_id) if step_id is not None else query.where(R.step_id.is_(None))
    return session.scalars(query.order_by(R.created_at.desc(), R.id.desc()).limit(1)).first()
