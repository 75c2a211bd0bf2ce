"""Review: the reviewers' queue, an annotator's own queue, and the decisions (accept, fix-and-accept, reject).

A decision is a ``Review`` row (who, when, status, comment); the newest one is mirrored in the trajectory's
``review_status``. Fix-and-accept is an accept whose comment says the reviewer edited the labels: the edits
themselves are label revisions written under the reviewer's name by ``annotation.Editor``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from annotator.domain.trajectory import ReviewStatus
from annotator.storage import models
from annotator.storage.labels import set_review
from annotator.storage.workspace import Workspace

FIXED_NOTE = "fixed by the reviewer"


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


def review_queue(workspace: Workspace) -> list[QueueItem]:
    """Annotated trajectories waiting for a reviewer, in the order they were collected."""
    with workspace.database.session() as session:
        items = _items(session, _trajectories(session, (ReviewStatus.ANNOTATED,)))
    return items  # in collection order


def work_queue(workspace: Workspace, person: str) -> list[QueueItem]:
    """An annotator's queue: their rejected work first (with the comment), then their work in progress, then
    what nobody has started."""
    wanted = (ReviewStatus.REJECTED, ReviewStatus.IN_PROGRESS, ReviewStatus.UNLABELLED)
    with workspace.database.session() as session:
        items = _items(session, _trajectories(session, wanted))
    rank = {str(status): n for n, status in enumerate(wanted)}
    mine = [i for i in items if i.review_status == ReviewStatus.UNLABELLED or person in i.annotators]
    return sorted(mine, key=lambda item: (rank[item.review_status], item.trajectory_id))


def accept(
    workspace: Workspace, trajectory_id: int, reviewer: str, comment: str | None = None, fixed: bool = False
) -> None:
    if not reviewer.strip():
        raise ValueError("say who you are first: a review is saved under the reviewer's name")
    note = comment.strip() if comment and comment.strip() else None
    if fixed:
        note = f"{FIXED_NOTE}: {note}" if note else FIXED_NOTE
    set_review(workspace.database, trajectory_id, ReviewStatus.ACCEPTED, reviewer=reviewer.strip(), comment=note)


def reject(workspace: Workspace, trajectory_id: int, reviewer: str, comment: str) -> None:
    if not reviewer.strip():
        raise ValueError("say who you are first: a review is saved under the reviewer's name")
    if not comment or not comment.strip():
        raise ValueError("a rejection needs a comment that tells the annotator what to fix")
    who, note = reviewer.strip(), comment.strip()
    set_review(workspace.database, trajectory_id, ReviewStatus.REJECTED, reviewer=who, comment=note)
