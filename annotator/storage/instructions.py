"""Instruction queries and writes: listing, adding many in one transaction, changing status.

An instruction is the same one when its uid matches, or when its app and text match (the text compared
after stripping), so that importing a list twice, or generating a task that is already there, adds nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from annotator.domain.trajectory import InstructionStatus
from annotator.storage import models
from annotator.storage.collection import ensure_app, new_uid
from annotator.storage.database import Database

UID_LENGTH = 36  # the uid column's width (a UUID's text)


@dataclass(frozen=True)
class InstructionRecord:
    """An instruction as callers read it (no session attached)."""

    id: int
    uid: str
    app: str
    package: str | None
    text: str
    source: str
    status: str
    created_at: datetime


@dataclass(frozen=True)
class NewInstruction:
    """One instruction to add; ``uid`` None gets a fresh UUID."""

    app: str
    text: str
    package: str | None = None
    uid: str | None = None
    status: str = InstructionStatus.ACTIVE


def _record(row: models.Instruction) -> InstructionRecord:
    return InstructionRecord(
        id=row.id,
        uid=row.uid,
        app=row.app.name,
        package=row.app.package,
        text=row.text,
        source=row.source,
        status=row.status,
        created_at=row.created_at,
    )


def list_instructions(db: Database, *, app: str | None = None, status: str | None = None) -> list[InstructionRecord]:
    """Instructions in the order they were added, optionally of one app and one status."""
    query = select(models.Instruction).join(models.App).order_by(models.Instruction.id)
    if app is not None:
        query = query.where(models.App.name == app)
    if status is not None:
        query = query.where(models.Instruction.status == status)
    with db.session() as session:
        return [_record(row) for row in session.scalars(query)]


def known_keys(session: Session) -> tuple[set[str], set[tuple[str, str]]]:
    """The uids and (app, text) pairs already stored, to tell new instructions from repeats."""
    rows = session.execute(select(models.Instruction.uid, models.App.name, models.Instruction.text).join(models.App))
    uids, pairs = set(), set()
    for uid, app, text in rows:
        uids.add(uid)
        pairs.add((app, text.strip()))
    return uids, pairs


def add_new_instructions(session: Session, items: Iterable[NewInstruction], *, source: str) -> list[int]:
    """Insert the items that are not stored yet (by uid, then by app and text); the ids of those added.

    Runs in the caller's transaction, so a caller can make "all or nothing" out of many items.
    """
    uids, pairs = known_keys(session)
    added = []
    for item in items:
        key = (item.app, item.text.strip())
        if (item.uid is not None and item.uid in uids) or key in pairs:
            continue
        app = ensure_app(session, item.app, item.package)
        row = models.Instruction(
            uid=item.uid or new_uid(),
            app_id=app.id,
            text=item.text.strip(),
            source=str(source),
            status=str(item.status),
        )
        session.add(row)
        session.flush()
        uids.add(row.uid)
        pairs.add(key)
        added.append(row.id)
    return added


def set_status(db: Database, ids: Iterable[int], status: InstructionStatus) -> int:
    """Give the instructions ``status``; LookupError (and no change) when an id is unknown."""
    wanted = sorted(set(ids))
    with db.session() as session, session.begin():
        rows = session.scalars(select(models.Instruction).where(models.Instruction.id.in_(wanted))).all()
        missing = sorted(set(wanted) - {row.id for row in rows})
        if missing:
            raise LookupError(f"no instruction with id {', '.join(map(str, missing))}; nothing was changed")
        changed = 0
        for row in rows:
            changed += row.status != str(status)
            row.status = str(status)
        return changed
