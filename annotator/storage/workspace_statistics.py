"""The statistics of a workspace beyond its dataset's shape (``annotator.storage.statistics``), read with that
shape's facts in one transaction: a consistent snapshot on SQLite and PostgreSQL.

- the instruction pool: every stored app and instruction, whether it was ever run or not (``annotator stats``
  and ``annotator db info`` count it; the dataset's shape counts only instructions with a trajectory, as
  Mobile-R1 Table 2 does);
- the trajectories in each review state, every state in workflow order with zeros, unknown stored values after;
- each person's work: the set of trajectories in which they wrote at least one label revision, their reviews,
  and how many of those trajectories are accepted, rejected or awaiting review now; and their throughput (active
  hours, steps per hour, share changed by review, rejection rate: ``annotator.storage.throughput`` defines them).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from annotator.domain.counting import Counting
from annotator.domain.trajectory import ReviewStatus
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.facts_cache import refresh_facts
from annotator.storage.models_facts import length_totals
from annotator.storage.statistics import DatasetShape, TrajectoryFacts, count_facts, read_facts, read_shape
from annotator.storage.throughput import THROUGHPUT_COLUMNS, read_throughput

A, Ins, T, S = models.App, models.Instruction, models.Trajectory, models.Step
R, P, Rev = models.LabelRevision, models.Person, models.Review
DECISIONS = (str(ReviewStatus.ACCEPTED), str(ReviewStatus.REJECTED))

POOL_COLUMNS = ["app", "instructions"]
REVIEW_COLUMNS = ["review_status", "trajectories"]
COUNT_COLUMNS = [
    "person",
    "trajectories_labelled",
    "steps_labelled",
    "revisions",
    "reviews",
    "accepted",
    "rejected",
    "awaiting_review",
]
PEOPLE_COLUMNS = [*COUNT_COLUMNS, *THROUGHPUT_COLUMNS]


@dataclass(frozen=True)
class WorkspaceCounts:
    """What ``annotator stats`` reports: the dataset's shape as one counting counts it, the instruction pool
    (POOL_COLUMNS, every app by name) and the review states (REVIEW_COLUMNS)."""

    shape: DatasetShape
    pool: pd.DataFrame
    review: pd.DataFrame


@dataclass(frozen=True)
class TeamStatistics:
    """What the statistics view shows: the dataset's facts, each person's work (PEOPLE_COLUMNS) and the review
    states (REVIEW_COLUMNS)."""

    facts: TrajectoryFacts
    people: pd.DataFrame
    review: pd.DataFrame


def load_counts(db: Database, counting: Counting) -> WorkspaceCounts:
    """The kept counts, brought up to date first; counted from the steps where the database cannot be written."""
    kept = refresh_facts(db) is not None
    with db.session() as session, session.begin():
        shape = read_shape(session, counting) if kept else count_facts(session).counted(counting).shape()
        return WorkspaceCounts(shape, read_pool(session), read_review(session, kept))


def load_team_statistics(db: Database) -> TeamStatistics:
    kept = refresh_facts(db) is not None
    with db.session() as session, session.begin():
        facts = read_facts(session) if kept else count_facts(session)
        return TeamStatistics(facts, read_people(session), read_review(session, kept))


def read_pool(session: Session) -> pd.DataFrame:
    """Every app by name with how many instructions it holds, run or not."""
    rows = session.execute(
        select(A.name, func.count(Ins.id)).outerjoin(Ins, Ins.app_id == A.id).group_by(A.name).order_by(A.name)
    ).all()
    return pd.DataFrame([tuple(row) for row in rows], columns=POOL_COLUMNS).astype({"instructions": "int64"})


def read_review(session: Session, kept: bool) -> pd.DataFrame:
    """Every review state in workflow order with its count (zeros included); unknown stored values after them. Read
    from the kept totals (`facts_cache.refresh_facts` first) or, not `kept`, from the trajectories."""
    totals = length_totals.c
    by_state = (
        select(totals.review_status, func.sum(totals.trajectories)).group_by(totals.review_status)
        if kept
        else select(T.review_status, func.count()).group_by(T.review_status)
    )
    found = {state: int(n) for state, n in session.execute(by_state) if n}
    order = [str(status) for status in ReviewStatus] + sorted(set(found) - {str(s) for s in ReviewStatus})
    table = pd.DataFrame({"review_status": order, "trajectories": [found.get(s, 0) for s in order]})
    return table.astype({"trajectories": "int64"})


def read_people(session: Session) -> pd.DataFrame:
    """Per person who labelled or reviewed: their labelling, their reviews, and how their work was judged."""
    trajectory = func.coalesce(R.trajectory_id, S.trajectory_id)  # step revisions older than the column
    labelling = session.execute(
        select(R.person_id, func.count(func.distinct(trajectory)), func.count(func.distinct(R.step_id)), func.count())
        .outerjoin(S, S.id == R.step_id)
        .group_by(R.person_id)
    ).all()
    decisions = Rev.status.in_(DECISIONS)  # a submission for review is recorded too, but it is not a review
    reviews = dict(
        session.execute(select(Rev.reviewer_id, func.count()).where(decisions).group_by(Rev.reviewer_id)).all()
    )
    worked_on = select(R.person_id, trajectory.label("trajectory_id")).outerjoin(S, S.id == R.step_id).distinct()
    work = worked_on.subquery()
    judged = session.execute(
        select(work.c.person_id, T.review_status, func.count())
        .join(T, T.id == work.c.trajectory_id)
        .group_by(work.c.person_id, T.review_status)
    ).all()
    names = dict(session.execute(select(P.id, P.name)).all())
    states: dict[int | None, dict[str, int]] = {}
    for person_id, status, count in judged:
        states.setdefault(person_id, {})[status] = count
    labelled = {person_id: (trajectories, steps, revisions) for person_id, trajectories, steps, revisions in labelling}
    rows = []
    for person_id in sorted(set(labelled) | set(reviews), key=lambda i: (i is None, i or 0)):
        trajectories, steps, revisions = labelled.get(person_id, (0, 0, 0))
        state = states.get(person_id, {})
        rows.append(
            (
                person_id,
                names.get(person_id) if person_id is not None else None,
                trajectories,
                steps,
                revisions,
                reviews.get(person_id, 0),
                state.get(ReviewStatus.ACCEPTED, 0),
                state.get(ReviewStatus.REJECTED, 0),
                state.get(ReviewStatus.ANNOTATED, 0),
            )
        )
    table = pd.DataFrame(rows, columns=["person_id", *COUNT_COLUMNS]).astype({c: "int64" for c in COUNT_COLUMNS[1:]})
    table = table.join(read_throughput(session), on="person_id").drop(columns="person_id")
    table[THROUGHPUT_COLUMNS] = table[THROUGHPUT_COLUMNS].astype("float64")  # NaN: undefined (nothing to divide by)
    table["_key"] = table["person"].fillna("\uffff")  # the unnamed row (labels written without a name) last
    table = table.sort_values(["trajectories_labelled", "reviews", "_key"], ascending=[False, False, True])
    return table.drop(columns="_key").reset_index(drop=True)
