"""The statistics' counts kept in the database between reads, so that counting a million steps reads a few rows,
not every step (docs/adr/0012-a-team-scale-workspace.md; the tables are `models_facts`).

Triggers bump a trajectory's stamp in every transaction that writes what it counts; `refresh_facts` counts again,
from the steps, the trajectories whose stamp is not the one their facts were counted at, and moves the totals by
the difference. A trajectory's facts and the stamp they carry are read in one statement, so facts counted while a
writer commits carry the older stamp and are counted again next time: a stale count is never taken for a fresh
one. The totals are always the sums of the facts: what is added to them is taken away again when it is replaced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    Table,
    and_,
    case,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, aliased

from annotator.domain.trajectory import StepOrigin, Verdict
from annotator.storage import models
from annotator.storage.database import Database, ReadOnlyDatabaseError
from annotator.storage.models_facts import (
    NO_ACTION,
    action_totals,
    instruction_totals,
    length_totals,
    trajectory_action_facts,
    trajectory_facts,
    trajectory_stamps,
)
from annotator.storage.writing import upsert_into, writing

T, S = models.Trajectory, models.Step
TF, TAF, TS = trajectory_facts.c, trajectory_action_facts.c, trajectory_stamps.c
FACTS_LOCK = 0x66616374  # "fact": PostgreSQL's advisory lock key of counting facts again (one process at a time)
CHUNK = 5_000  # trajectories counted per statement
# Count every trajectory again in one pass (15 times cheaper per trajectory) when over a tenth, and at least
# ONE_PASS_FROM, are stale: the first count after the upgrade, a large import.
ALL_AT_ONCE, ONE_PASS_FROM = 10, 2_000
READ_ONLY_SQLSTATE = "25006"  # PostgreSQL: a read-only transaction (a standby, default_transaction_read_only)


def annotated_step() -> ColumnElement[bool]:
    """`LabelledTrajectory.annotated_steps` in SQL, for a row of `S`: a collected step that is usable, or a
    complete correction that is the first kept one after a step whose verdict is wrong. Complete: think and
    action text not empty and a tool call with an action (a saved tool call always has one)."""
    complete = and_(
        func.coalesce(S.think, "") != "", func.coalesce(S.action_text, "") != "", S.label_action.is_not(None)
    )
    wrong, redundant, inserted_origin = str(Verdict.WRONG), str(Verdict.REDUNDANT), str(StepOrigin.INSERTED)
    inserted = S.origin == inserted_origin
    usable = and_(
        or_(S.origin.is_(None), S.origin != inserted_origin),
        or_(S.verdict.is_(None), S.verdict.not_in([wrong, redundant])),
    )
    corrected, earlier = aliased(S), aliased(S)
    corrects_a_wrong_step = exists().where(
        corrected.trajectory_id == S.trajectory_id,
        corrected.index == S.corrects_index,
        or_(corrected.origin.is_(None), corrected.origin != inserted_origin),
        corrected.verdict == wrong,
    )
    an_earlier_correction = exists().where(
        earlier.trajectory_id == S.trajectory_id,
        earlier.origin == inserted_origin,
        earlier.removed.is_(False),
        earlier.corrects_index == S.corrects_index,
        earlier.index < S.index,
    )
    first_correction = and_(inserted, corrects_a_wrong_step, ~an_earlier_correction)
    return and_(complete, S.removed.is_(False), or_(usable, first_correction))


def _stale_ids(session: Session) -> list[int]:
    """The trajectories whose counts are stale (or that went): found through the partial index."""
    return list(session.scalars(select(TS.trajectory_id).where(TS.stamp != TS.counted)))


def _chunks(ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


Chosen = Callable[[Any], ColumnElement[bool]]  # which trajectories, given a column of trajectory ids


def _among(ids: list[int] | None) -> Chosen:
    """These trajectories (None: every one)."""
    return (lambda column: column.in_(ids)) if ids is not None else (lambda column: true())


def _add_to_totals(session: Session, chosen: Chosen, sign: int) -> None:
    """Add (sign 1) or take away (-1) the chosen trajectories' facts to or from the totals."""
    per_instruction = select(
        TF.instruction_id,
        TF.review_status,
        sign * func.count(),
        sign * func.sum(TF.steps),
        sign * func.sum(TF.annotated_steps),
    ).where(chosen(TF.trajectory_id))
    per_length = select(TF.review_status, TF.steps, TF.annotated_steps, sign * func.count())
    sums = [sign * func.sum(TAF.steps), sign * func.sum(TAF.labelled), sign * func.sum(TAF.annotated)]
    per_action = select(TAF.review_status, TAF.action, *sums).where(chosen(TAF.trajectory_id))
    for table, rows in (
        (instruction_totals, per_instruction.group_by(TF.instruction_id, TF.review_status)),
        (
            length_totals,
            per_length.where(chosen(TF.trajectory_id)).group_by(TF.review_status, TF.steps, TF.annotated_steps),
        ),
        (action_totals, per_action.group_by(TAF.review_status, TAF.action)),
    ):
        _add_rows(session, table, rows)


def _add_rows(session: Session, table: Table, rows: Select[Any]) -> None:
    """Insert `rows` into `table` (its key columns first, then its counts), adding the counts to those of a row
    with the same key."""
    keys = [key.name for key in table.primary_key.columns]
    counts = [column.name for column in table.columns if column.name not in keys]
    statement = upsert_into(session, table).from_select([*keys, *counts], rows)
    added = {name: table.c[name] + statement.excluded[name] for name in counts}
    session.execute(statement.on_conflict_do_update(index_elements=keys, set_=added))


def _count_again(session: Session, ids: list[int] | None) -> None:
    """Replace the facts of these trajectories (None: of every one, the totals made anew) with counts of their steps
    now, and the totals with them; a trajectory that went leaves its stamp and no facts."""
    chosen = _among(ids)
    if ids is None:
        for table in (instruction_totals, length_totals, action_totals):
            session.execute(delete(table))
    else:
        _add_to_totals(session, chosen, -1)
    session.execute(delete(trajectory_action_facts).where(chosen(TAF.trajectory_id)))
    session.execute(delete(trajectory_facts).where(chosen(TF.trajectory_id)))
    annotated = func.coalesce(func.sum(case((annotated_step(), 1), else_=0)), 0)
    per_trajectory = (
        select(T.id, func.coalesce(TS.stamp, 0), T.instruction_id, T.review_status, func.count(S.id), annotated)
        .select_from(T)
        .outerjoin(trajectory_stamps, TS.trajectory_id == T.id)
        .outerjoin(S, S.trajectory_id == T.id)
        .where(chosen(T.id))
        .group_by(T.id, TS.stamp, T.instruction_id, T.review_status)
    )  # the stamp and the steps read in one statement: one snapshot
    session.execute(insert(trajectory_facts).from_select([c.name for c in trajectory_facts.columns], per_trajectory))
    action = func.coalesce(S.label_action, S.raw_action, NO_ACTION)
    per_action = (
        select(S.trajectory_id, T.review_status, action, func.count(), func.count(S.label_action), annotated)
        .join(T, T.id == S.trajectory_id)
        .where(chosen(S.trajectory_id))
        .group_by(S.trajectory_id, T.review_status, action)
    )
    columns = [c.name for c in trajectory_action_facts.columns]
    session.execute(insert(trajectory_action_facts).from_select(columns, per_action))
    _add_to_totals(session, chosen, 1)
    counted_at = select(TF.stamp).where(TF.trajectory_id == TS.trajectory_id).scalar_subquery()
    counted = exists().where(TF.trajectory_id == TS.trajectory_id)
    session.execute(update(trajectory_stamps).where(chosen(TS.trajectory_id), counted).values(counted=counted_at))
    gone = ~exists().where(T.id == TS.trajectory_id)
    session.execute(delete(trajectory_stamps).where(chosen(TS.trajectory_id), gone))


def _drop_empty_totals(session: Session) -> None:
    for table in (instruction_totals, length_totals):
        session.execute(delete(table).where(table.c.trajectories == 0))
    totals = action_totals.c
    session.execute(delete(action_totals).where(totals.steps == 0, totals.labelled == 0, totals.annotated == 0))


def refresh_facts(db: Database) -> int | None:
    """Count again the trajectories whose counts are stale, and the totals with them; how many were. None when
    some are stale and the database cannot be written (a read-only folder or server): count from the steps then."""
    with db.session() as session:
        if not _stale_ids(session):
            return 0
    try:
        return _refresh(db)
    except ReadOnlyDatabaseError:
        return None
    except DBAPIError as error:
        if getattr(error.orig, "sqlstate", None) == READ_ONLY_SQLSTATE:
            return None
        raise


def _refresh(db: Database) -> int:
    with writing(db) as session:
        if session.get_bind().dialect.name == "postgresql":  # the totals are added to one process at a time
            session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": FACTS_LOCK})
        stale = _stale_ids(session)  # again under the lock: another process may have counted them meanwhile
        every = session.scalar(select(func.count()).select_from(trajectory_stamps)) or 0
        if len(stale) >= ONE_PASS_FROM and len(stale) * ALL_AT_ONCE > every:  # the first count, a large import
            _count_again(session, None)
        else:
            for chunk in _chunks(stale):
                _count_again(session, chunk)
        _drop_empty_totals(session)
    return len(stale)
