"""The statistics' counts kept in the database between reads, so that counting a million steps reads a few rows,
not every step (docs/adr/0012-a-team-scale-workspace.md; the tables are `models_facts`).

Triggers bump a trajectory's stamp in every transaction that writes what it counts; `refresh_facts` counts again,
from the steps, the trajectories whose stamp is not the one their facts were counted at, and moves the totals by
the difference. A trajectory's facts and the stamp they carry are read in one statement, so facts counted while a
writer commits carry the older stamp and are counted again next time: a stale count is never taken for a fresh
one. The totals are always the sums of the facts: what is added to them is taken away again when it is replaced.
"""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy import ColumnElement, and_, case, delete, exists, func, insert, or_, select, text, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, aliased

from annotator.domain.trajectory import StepOrigin, Verdict
from annotator.storage import models
from annotator.storage.database import Database, ReadOnlyDatabaseError
from annotator.storage.models_facts import (
    NO_ACTION,
    action_totals,
    shape_totals,
    trajectory_action_facts,
    trajectory_facts,
    trajectory_stamps,
)
from annotator.storage.writing import INSERTS, writing

T, S = models.Trajectory, models.Step
TF, TAF, TS = trajectory_facts.c, trajectory_action_facts.c, trajectory_stamps.c
FACTS_LOCK = 0x66616374  # "fact": PostgreSQL's advisory lock key of counting facts again (one process at a time)
CHUNK = 5_000  # trajectories counted per statement
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
        corrected.trajectory_id == S.trajectory_id, corrected.index == S.corrects_index,
        or_(corrected.origin.is_(None), corrected.origin != inserted_origin), corrected.verdict == wrong,
    )  # fmt: skip
    an_earlier_correction = exists().where(
        earlier.trajectory_id == S.trajectory_id, earlier.origin == inserted_origin,
        earlier.removed.is_(False), earlier.corrects_index == S.corrects_index, earlier.index < S.index,
    )  # fmt: skip
    first_correction = and_(inserted, corrects_a_wrong_step, ~an_earlier_correction)
    return and_(complete, S.removed.is_(False), or_(usable, first_correction))


def _stale_ids(session: Session) -> list[int]:
    """The trajectories whose counts are stale (or that went): found through the partial index."""
    return list(session.scalars(select(TS.trajectory_id).where(TS.stamp != TS.counted)))


def _chunks(ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


def _add_to_totals(session: Session, ids: list[int], sign: int) -> None:
    """Add (sign 1) or take away (-1) these trajectories' facts to or from the totals."""
    dialect = session.get_bind().dialect.name
    shape = select(TF.instruction_id, TF.review_status, TF.steps, TF.annotated_steps, sign * func.count())
    shape = shape.where(TF.trajectory_id.in_(ids)).group_by(TF.instruction_id, TF.review_status, TF.steps,
                                                            TF.annotated_steps)  # fmt: skip
    sums = [sign * func.sum(TAF.steps), sign * func.sum(TAF.labelled), sign * func.sum(TAF.annotated)]
    actions = select(TAF.review_status, TAF.action, *sums).where(TAF.trajectory_id.in_(ids))
    actions = actions.group_by(TAF.review_status, TAF.action)
    for table, counts, rows in ((shape_totals, ("trajectories",), shape),
                                (action_totals, ("steps", "labelled", "annotated"), actions)):  # fmt: skip
        keys = [key.name for key in table.primary_key.columns]
        statement = INSERTS[dialect](table).from_select([*keys, *counts], rows)
        added = {name: table.c[name] + statement.excluded[name] for name in counts}
        session.execute(statement.on_conflict_do_update(index_elements=keys, set_=added))


def _count_again(session: Session, ids: list[int]) -> None:
    """Replace the facts of these trajectories with counts of their steps now, the totals with them; a trajectory
    that went leaves its stamp and no facts."""
    _add_to_totals(session, ids, -1)
    session.execute(delete(trajectory_action_facts).where(TAF.trajectory_id.in_(ids)))
    session.execute(delete(trajectory_facts).where(TF.trajectory_id.in_(ids)))
    annotated = func.coalesce(func.sum(case((annotated_step(), 1), else_=0)), 0)
    per_trajectory = (
        select(T.id, func.coalesce(TS.stamp, 0), T.instruction_id, T.review_status, func.count(S.id), annotated)
        .select_from(T)
        .outerjoin(trajectory_stamps, TS.trajectory_id == T.id)
        .outerjoin(S, S.trajectory_id == T.id)
        .where(T.id.in_(ids))
        .group_by(T.id, TS.stamp, T.instruction_id, T.review_status)
    )  # the stamp and the steps read in one statement: one snapshot
    columns = [c.name for c in trajectory_facts.columns]
    session.execute(insert(trajectory_facts).from_select(columns, per_trajectory))
    action = func.coalesce(S.label_action, S.raw_action, NO_ACTION)
    per_action = (
        select(S.trajectory_id, T.review_status, action, func.count(), func.count(S.label_action), annotated)
        .join(T, T.id == S.trajectory_id)
        .where(S.trajectory_id.in_(ids))
        .group_by(S.trajectory_id, T.review_status, action)
    )
    columns = [c.name for c in trajectory_action_facts.columns]
    session.execute(insert(trajectory_action_facts).from_select(columns, per_action))
    _add_to_totals(session, ids, 1)
    counted_at = select(TF.stamp).where(TF.trajectory_id == TS.trajectory_id).scalar_subquery()
    counted = exists().where(TF.trajectory_id == TS.trajectory_id)
    session.execute(update(trajectory_stamps).where(TS.trajectory_id.in_(ids), counted).values(counted=counted_at))
    gone = ~exists().where(T.id == TS.trajectory_id)
    session.execute(delete(trajectory_stamps).where(TS.trajectory_id.in_(ids), gone))


def _drop_empty_totals(session: Session) -> None:
    session.execute(delete(shape_totals).where(shape_totals.c.trajectories == 0))
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
        for chunk in _chunks(stale):
            _count_again(session, chunk)
        _drop_empty_totals(session)
    return len(stale)
