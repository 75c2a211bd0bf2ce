"""Each person's pace and how their work fared in review, for the statistics view's throughput table.

Definitions, so that the view, its CSV and a script read alike:

- active hours: the sum of the gaps between a person's consecutive label revisions that are shorter than
  ACTIVE_GAP (10 minutes); a longer pause is a break and counts nothing, so one save alone counts no time;
- steps per hour: the steps in which they changed a label, over their active hours; undefined below
  MIN_ACTIVE_HOURS (6 minutes), too little work to give a pace (a few quick edits would read as thousands);
- changed by review: of the steps they labelled, the share in which a reviewer or an admin (by their role on the
  people list) changed a label after that person's last change;
- rejection rate: of the trajectories they labelled that received a review decision, the share a reviewer
  rejected at least once.

Undefined values are NaN (nothing to divide by), never 0.
"""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
from sqlalchemy import and_, case, exists, func, select
from sqlalchemy.orm import Session, aliased

from annotator.domain.trajectory import ReviewStatus
from annotator.storage import models

R, S, P, Rev = models.LabelRevision, models.Step, models.Person, models.Review
ACTIVE_GAP = timedelta(minutes=10)
MIN_ACTIVE_HOURS = 0.1
REVIEWING_ROLES = ("reviewer", "admin")
THROUGHPUT_COLUMNS = ["active_hours", "steps_per_hour", "changed_by_review", "rejection_rate"]


def active_hours(session: Session) -> pd.Series:
    """person id -> active hours (ACTIVE_GAP), from the times of their label revisions."""
    rows = session.execute(
        select(R.person_id, R.created_at).where(R.person_id.is_not(None)).order_by(R.person_id, R.created_at, R.id)
    ).all()
    times = pd.DataFrame([tuple(row) for row in rows], columns=["person_id", "at"])
    if times.empty:
        return pd.Series(dtype="float64")
    times["at"] = pd.to_datetime(times["at"], utc=True)  # SQLite gives naive UTC times, PostgreSQL aware ones
    gaps = times.groupby("person_id")["at"].diff()
    working = gaps.where(gaps < ACTIVE_GAP, pd.Timedelta(0)).fillna(pd.Timedelta(0))
    return working.groupby(times["person_id"]).sum().dt.total_seconds() / 3600


def changed_by_review(session: Session) -> pd.DataFrame:
    """person id -> (steps labelled, of them changed later by a reviewer or admin)."""
    last = (
        select(R.person_id, R.step_id, func.max(R.id).label("last_id"))
        .where(R.step_id.is_not(None), R.person_id.is_not(None))
        .group_by(R.person_id, R.step_id)
        .subquery()
    )
    Later, Reviewer = aliased(R), aliased(P)
    changed = exists().where(
        Later.step_id == last.c.step_id,
        Later.id > last.c.last_id,
        Later.person_id != last.c.person_id,
        Reviewer.id == Later.person_id,
        Reviewer.role.in_(REVIEWING_ROLES),
    )
    rows = session.execute(
        select(last.c.person_id, func.count(), func.sum(case((changed, 1), else_=0))).group_by(last.c.person_id)
    ).all()
    return pd.DataFrame([tuple(r) for r in rows], columns=["person_id", "steps", "changed"]).set_index("person_id")


def rejections(session: Session) -> pd.DataFrame:
    """person id -> (their labelled trajectories with a review decision, of them rejected at least once)."""
    trajectory = func.coalesce(R.trajectory_id, S.trajectory_id)  # step revisions older than the column
    worked = (
        select(R.person_id, trajectory.label("trajectory_id"))
        .outerjoin(S, S.id == R.step_id)
        .where(R.person_id.is_not(None))
        .distinct()
        .subquery()
    )
    rejected = func.max(case((Rev.status == str(ReviewStatus.REJECTED), 1), else_=0))
    decided = (
        select(Rev.trajectory_id, rejected.label("rejected"))
        .where(Rev.status.in_([str(ReviewStatus.ACCEPTED), str(ReviewStatus.REJECTED)]))
        .group_by(Rev.trajectory_id)
        .subquery()
    )
    rows = session.execute(
        select(worked.c.person_id, func.count(), func.sum(decided.c.rejected))
        .join(decided, and_(decided.c.trajectory_id == worked.c.trajectory_id))
        .group_by(worked.c.person_id)
    ).all()
    return pd.DataFrame([tuple(r) for r in rows], columns=["person_id", "reviewed", "rejected"]).set_index("person_id")


def read_throughput(session: Session) -> pd.DataFrame:
    """THROUGHPUT_COLUMNS per person id (the index), for everyone who wrote a label revision."""
    hours, steps, judged = active_hours(session), changed_by_review(session), rejections(session)
    people = hours.index.union(steps.index).union(judged.index)

    def share(part: pd.Series, whole: pd.Series) -> pd.Series:
        whole = whole.reindex(people).astype("float64")
        return (part.reindex(people).astype("float64") / whole.where(whole > 0)).astype("float64")

    table = pd.DataFrame(index=people)
    table["active_hours"] = hours.reindex(people).fillna(0.0).astype("float64")
    timed = table["active_hours"].where(table["active_hours"] >= MIN_ACTIVE_HOURS, 0.0)
    table["steps_per_hour"] = share(steps["steps"], timed)
    table["changed_by_review"] = share(steps["changed"], steps["steps"])
    table["rejection_rate"] = share(judged["rejected"], judged["reviewed"])
    return table[THROUGHPUT_COLUMNS]
