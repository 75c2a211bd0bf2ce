"""The review queues as stored: trajectories in some review states, with their step counts, who labelled them
and the newest review decision; one query per part for a whole queue.

A person's queue (`queue_page`) is chosen, ordered, cut and counted in the database: on a team's database it
may hold tens of thousands of trajectories, and a person reads its first page (docs/adr/0012-a-team-scale-workspace.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, and_, case, exists, false, func, not_, or_, select, true
from sqlalchemy.orm import Session, selectinload

from annotator.domain.trajectory import ReviewStatus
from annotator.storage import models
from annotator.storage.database import Database


@dataclass(frozen=True)
class QueueItem:
    trajectory_id: int
    instruction: str
    app: str
    steps: int
    review_status: str
    annotators: tuple[str, ...]
    updated_at: datetime | None
    comment: str | None
    reviewer: str | None


def _items(session: Session, trajectories: list[models.Trajectory]) -> list[QueueItem]:
    ids = [t.id for t in trajectories]
    if not ids:
        return []
    R, S = models.LabelRevision, models.Step
    steps = dict(
        session.execute(
            select(S.trajectory_id, func.count())
            .where(S.trajectory_id.in_(ids), S.origin.is_(None))
            .group_by(S.trajectory_id)
        ).all()
    )
    people: dict[int, list[str]] = {}
    latest: dict[int, datetime] = {}
    rows = session.execute(
        select(R.trajectory_id, models.Person.name, func.max(R.created_at))
        .join(models.Person, models.Person.id == R.person_id)
        .where(R.trajectory_id.in_(ids))
        .group_by(R.trajectory_id, models.Person.name)
        .order_by(func.min(R.id))
    ).all()
    for trajectory_id, name, moment in rows:
        if trajectory_id is None:
            continue  # every label revision names its trajectory; the column allows none
        people.setdefault(trajectory_id, []).append(name)
        latest[trajectory_id] = max(moment, latest.get(trajectory_id, moment))
    items = []
    for t in trajectories:
        review = t.reviews[-1] if t.reviews else None
        items.append(
            QueueItem(
                trajectory_id=t.id,
                instruction=t.instruction.text,
                app=t.instruction.app.name,
                steps=steps.get(t.id, 0),
                review_status=t.review_status,
                annotators=tuple(people.get(t.id, ())),
                updated_at=latest.get(t.id),
                comment=review.comment if review else None,
                reviewer=review.reviewer.name if review and review.reviewer else None,
            )
        )
    return items


@dataclass(frozen=True)
class QueueRule:
    """Which trajectories a queue holds and in what order: those in `statuses` (ranked in that order), of which
    anyone may take those in `open_states` and `person` also those they hold (`task` assignments) or labelled;
    what someone else holds is left out. Within a state, what `person` holds comes first, then by id."""

    statuses: tuple[ReviewStatus, ...]
    open_states: tuple[ReviewStatus, ...]
    task: str
    person: str | None


@dataclass(frozen=True)
class QueuePage:
    items: list[QueueItem]
    total: int  # how many the whole queue holds; `items` is its first part


def _held(task: str, person_id: int | None, mine: bool) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    """Whether a trajectory (directly) or its app (an instruction set) is held open for `task` by `person_id`
    (mine) or by someone else: subqueries over the few open assignments, not lists read into Python."""
    As, Ins = models.Assignment, models.Instruction
    someone_else = As.person_id != person_id if person_id is not None else true()  # no person: anyone holding it
    whose = As.person_id == person_id if mine else someone_else
    open_task = and_(As.task == task, As.done_at.is_(None), whose)
    direct = models.Trajectory.id.in_(select(As.trajectory_id).where(open_task, As.trajectory_id.is_not(None)))
    through_app = Ins.app_id.in_(select(As.app_id).where(open_task, As.app_id.is_not(None)))
    return direct, through_app


def _queue_conditions(rule: QueueRule, person_id: int | None) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    """(in the queue, held by the person): a trajectory's own assignment wins over its app's."""
    T, R = models.Trajectory, models.LabelRevision
    mine_direct, mine_app = _held(rule.task, person_id, mine=True)
    other_direct, other_app = _held(rule.task, person_id, mine=False)
    mine = or_(mine_direct, and_(mine_app, not_(other_direct)))
    held_by_other = or_(other_direct, and_(other_app, not_(mine_direct)))
    labelled = exists().where(R.trajectory_id == T.id, R.person_id == person_id)
    taken: list[ColumnElement[bool]] = [T.review_status.in_([str(s) for s in rule.open_states])]
    if person_id is not None:
        taken += [mine, labelled]
    held = mine if person_id is not None else false()
    return and_(T.review_status.in_([str(s) for s in rule.statuses]), not_(held_by_other), or_(*taken)), held


def queue_page(db: Database, rule: QueueRule, limit: int) -> QueuePage:
    """The first `limit` trajectories of a queue (QueueRule) and how many it holds, in one transaction; a person
    not on the list holds and labelled nothing."""
    T, Ins = models.Trajectory, models.Instruction
    with db.session() as session, session.begin():
        person_id = session.scalar(select(models.Person.id).where(models.Person.name == rule.person))
        wanted, held = _queue_conditions(rule, person_id)
        rank = case({str(s): n for n, s in enumerate(rule.statuses)}, value=T.review_status)
        total = func.count().over()  # counted in the same pass that sorts: one scan, not two
        chosen = select(T.id, total).join(Ins, Ins.id == T.instruction_id).where(wanted)
        rows = session.execute(chosen.order_by(rank, case((held, 0), else_=1), T.id).limit(limit)).all()
        ids = [trajectory_id for trajectory_id, _total in rows]
        return QueuePage(_items(session, _trajectories_by_id(session, ids)), rows[0][1] if rows else 0)


def _trajectories_by_id(session: Session, ids: list[int]) -> list[models.Trajectory]:
    """These trajectories, in this order."""
    T = models.Trajectory
    found = {
        t.id: t
        for t in session.scalars(
            select(T)
            .where(T.id.in_(ids))
            .options(
                selectinload(T.instruction).selectinload(models.Instruction.app),
                selectinload(T.reviews).selectinload(models.Review.reviewer),
            )
        )
    }
    return [found[i] for i in ids if i in found]


def steps_labelled_by(db: Database, trajectory_id: int, person: str, before: datetime | None = None) -> int:
    """How many of the trajectory's steps `person` labelled (wrote a label revision of); with `before`, counting
    only revisions written before then (a reviewer's fix is part of their review, not work they review)."""
    R = models.LabelRevision
    query = (
        select(func.count(func.distinct(R.step_id)))
        .join(models.Person, models.Person.id == R.person_id)
        .where(R.trajectory_id == trajectory_id, R.step_id.is_not(None), models.Person.name == person)
    )
    if before is not None:
        query = query.where(R.created_at < before)
    with db.session() as session:
        return session.scalar(query) or 0
