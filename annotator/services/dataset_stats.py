"""Every table of the statistics view, from a handful of aggregate queries.

The dataset's shape (Mobile-R1 Table 2 and Table 6, Figure 4's trajectory lengths, steps per action type) comes
from ``annotator.storage.statistics``, which ``trainer-bridge stats`` shares, so that both count alike (its
docstring holds the definitions). This module adds what a team needs to steer the work and only the app
shows: each person's labelling and review progress, and how many trajectories are in each review state.

- a person's work is the set of trajectories in which they wrote at least one label revision; its
  accepted / rejected / awaiting-review counts are those trajectories' current review state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from annotator.domain.trajectory import ReviewStatus
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.statistics import (
    ACTION_COLUMNS,
    ACTION_SOURCE,
    LENGTH_COLUMNS,
    PER_APP_COLUMNS,
    SHAPE_TABLES,
    DatasetShape,
    Totals,
    empty_frame,
    read_facts,
    write_tables,
)

__all__ = [
    "ACTION_COLUMNS", "ACTION_SOURCE", "LENGTH_COLUMNS", "PEOPLE_COLUMNS", "PER_APP_COLUMNS", "REVIEW_COLUMNS",
    "TABLE_NAMES", "DatasetStats", "Totals", "compute", "write_csvs",
]  # fmt: skip

T, S = models.Trajectory, models.Step
R, P, Rev = models.LabelRevision, models.Person, models.Review
DECISIONS = (str(ReviewStatus.ACCEPTED), str(ReviewStatus.REJECTED))

PEOPLE_COLUMNS = ["person", "trajectories_labelled", "steps_labelled", "revisions", "reviews",
                  "accepted", "rejected", "awaiting_review"]  # fmt: skip
REVIEW_COLUMNS = ["review_status", "trajectories"]
# Name of each table in CSV file names and in `DatasetStats.tables()`.
TABLE_NAMES = (*SHAPE_TABLES, "people", "review_status")


@dataclass(frozen=True)
class DatasetStats(DatasetShape):
    """The statistics of one database at one moment: its shape plus the people and review tables."""

    people: pd.DataFrame = field(default_factory=lambda: empty_frame(PEOPLE_COLUMNS))
    review: pd.DataFrame = field(default_factory=lambda: empty_frame(REVIEW_COLUMNS))
    computed_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables under their TABLE_NAMES, in that order."""
        return {**super().tables(), "people": self.people, "review_status": self.review}


def compute(db: Database) -> DatasetStats:
    """Read every statistic of `db` in one session (a consistent snapshot on SQLite and PostgreSQL)."""
    with db.session() as session, session.begin():
        shape = read_facts(session).shape()
        return DatasetStats(
            totals=shape.totals,
            per_app=shape.per_app,
            lengths=shape.lengths,
            actions=shape.actions,
            people=_people(session),
            review=_review(session),
        )


def write_csvs(stats: DatasetStats, folder: Path) -> list[Path]:
    """One UTF-8 CSV per table (``dataset_<table>.csv``), without index or totals rows; returns the paths."""
    return write_tables(stats.tables(), folder, prefix="dataset_")


# the queries ---------------------------------------------------------------------------------------------------


def _people(session: Session) -> pd.DataFrame:
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
        rows.append((
            names.get(person_id) if person_id is not None else None,
            trajectories, steps, revisions, reviews.get(person_id, 0),
            state.get(ReviewStatus.ACCEPTED, 0), state.get(ReviewStatus.REJECTED, 0),
            state.get(ReviewStatus.ANNOTATED, 0),
        ))  # fmt: skip
    table = pd.DataFrame(rows, columns=PEOPLE_COLUMNS).astype({c: "int64" for c in PEOPLE_COLUMNS[1:]})
    table["_key"] = table["person"].fillna("\uffff")  # the unnamed row (labels written without a name) last
    table = table.sort_values(["trajectories_labelled", "reviews", "_key"], ascending=[False, False, True])
    return table.drop(columns="_key").reset_index(drop=True)


def _review(session: Session) -> pd.DataFrame:
    """Every review state in workflow order with its count (zeros included); unknown stored values after them."""
    found = dict(session.execute(select(T.review_status, func.count()).group_by(T.review_status)).all())
    order = [str(status) for status in ReviewStatus] + sorted(set(found) - {str(s) for s in ReviewStatus})
    table = pd.DataFrame({"review_status": order, "trajectories": [found.get(s, 0) for s in order]})
    return table.astype({"trajectories": "int64"})
