"""Instruction queries and writes: listing, adding many in one transaction, changing status.

An instruction is the same one when its uid matches, or when its app and text match (the text is stored
stripped; a unique constraint keeps one per app and text), so that importing a list twice, or generating a task
that is already there, adds nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from annotator.domain.trajectory import InstructionStatus, TrajectoryStatus
from annotator.storage import models
from annotator.storage.collection import ensure_app, new_uid
from annotator.storage.database import Database
from annotator.storage.writing import insert_skipping, writing

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


def add_instructions(db: Database, items: Iterable[NewInstruction], *, source: str) -> list[int]:
    """Add the items that are not stored yet (same uid, or same app and text), all in one transaction; the ids of
    those added. Each insert skips a conflict instead of reading first, so two imports of one list at once add
    every instruction once."""
    with writing(db) as session:
        apps: dict[str, int] = {}
        added = []
        for item in items:
            if item.app not in apps:
                apps[item.app] = ensure_app(session, item.app, item.package).id
            values = {"uid": item.uid or new_uid(), "app_id": apps[item.app], "text": item.text.strip()}
            values |= {"source": str(source), "status": str(item.status)}
            insert = insert_skipping(session, models.Instruction).values(**values).returning(models.Instruction.id)
            row_id = session.scalar(insert)
            if row_id is not None:
                added.append(row_id)
        return added


def find_instruction(db: Database, instruction_id: int) -> InstructionRecord | None:
    with db.session() as session:
        row = session.get(models.Instruction, instruction_id)
        return _record(row) if row is not None else None


def pending_instructions(db: Database, app: str, runs: int) -> list[InstructionRecord]:
    """The app's active instructions with fewer than `runs` complete runs, in the order they were added."""
    T = models.Trajectory
    complete = (
        select(T.instruction_id, func.count().label("runs"))
        .where(T.status == str(TrajectoryStatus.COMPLETE))
        .group_by(T.instruction_id)
        .subquery()
    )
    query = (
        select(models.Instruction)
        .join(models.App)
        .outerjoin(complete, complete.c.instruction_id == models.Instruction.id)
        .where(models.App.name == app, models.Instruction.status == str(InstructionStatus.ACTIVE))
        .where(func.coalesce(complete.c.runs, 0) < runs)
        .order_by(models.Instruction.id)
    )
    with db.session() as session:
        return [_record(row) for row in session.scalars(query)]


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
