"""The review queues as stored: trajectories in some review states, with their step counts, who labelled them
and the newest review decision; one query per part for a whole queue."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
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
            select(S.trajectory_id, func.count()).where(S.trajectory_id.in_(ids), S.origin.is_(None))
            .group_by(S.trajectory_id)
        ).all()
    )  # fmt: skip
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


def _trajectories(session: Session, statuses: tuple[ReviewStatus, ...]) -> list[models.Trajectory]:
    T = models.Trajectory
    return list(
        session.scalars(
            select(T)
            .where(T.review_status.in_([str(s) for s in statuses]))
            .options(
                selectinload(T.instruction).selectinload(models.Instruction.app),
                selectinload(T.reviews).selectinload(models.Review.reviewer),
            )
            .order_by(T.id)
        )
    )


def queue_items(db: Database, statuses: tuple[ReviewStatus, ...]) -> list[QueueItem]:
    """The trajectories in these review states, in the order they were collected."""
    with db.session() as session:
        return _items(session, _trajectories(session, statuses))


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
