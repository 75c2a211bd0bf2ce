"""Every table of the statistics view, from a handful of aggregate queries.

The shapes follow Mobile-R1: Table 2 (instructions, trajectories, steps) and Table 6 (per app), Figure 4
(the distribution of trajectory length), plus what a team needs to steer the work: steps per action type,
each person's labelling and review progress, and how many trajectories are in each review state.

Definitions, so that the numbers read the same in the view, its CSV files and a script:

- a trajectory's length is its number of steps, every step row (collected and inserted corrections), as
  the trajectory browser and ``annotator stats`` count them;
- an app's instructions are those with at least one trajectory (the instructions *in the dataset*, as in
  Table 2); apps without trajectories are left out;
- a step's action type is its labelled action where it has one, else the collected one (ACTION_SOURCE);
  the ``labelled`` and ``collected`` columns say how many of each count came from which;
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

A, Ins, T, S = models.App, models.Instruction, models.Trajectory, models.Step
R, P, Rev = models.LabelRevision, models.Person, models.Review
DECISIONS = ("accepted", "rejected")

ACTION_SOURCE = "label_action where a step has one, else raw_action"
PER_APP_COLUMNS = ["app", "instructions", "trajectories", "steps", "mean_steps"]
LENGTH_COLUMNS = ["steps", "trajectories"]
ACTION_COLUMNS = ["action", "steps", "labelled", "collected"]
PEOPLE_COLUMNS = ["person", "trajectories_labelled", "steps_labelled", "revisions", "reviews",
                  "accepted", "rejected", "awaiting_review"]  # fmt: skip
REVIEW_COLUMNS = ["review_status", "trajectories"]
# Name of each table in CSV file names and in `DatasetStats.tables()`.
TABLE_NAMES = ("per_app", "trajectory_lengths", "action_types", "people", "review_status")


@dataclass(frozen=True)
class Totals:
    """Mobile-R1 Table 2: the whole dataset in one row."""

    apps: int = 0
    instructions: int = 0
    trajectories: int = 0
    steps: int = 0

    @property
    def mean_steps(self) -> float:
        return self.steps / self.trajectories if self.trajectories else 0.0


def _frame(columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame({column: [] for column in columns})


@dataclass(frozen=True)
class DatasetStats:
    """The statistics of one database at one moment; every table is a DataFrame with the *_COLUMNS columns."""

    totals: Totals = field(default_factory=Totals)
    per_app: pd.DataFrame = field(default_factory=lambda: _frame(PER_APP_COLUMNS))
    lengths: pd.DataFrame = field(default_factory=lambda: _frame(LENGTH_COLUMNS))
    actions: pd.DataFrame = field(default_factory=lambda: _frame(ACTION_COLUMNS))
    people: pd.DataFrame = field(default_factory=lambda: _frame(PEOPLE_COLUMNS))
    review: pd.DataFrame = field(default_factory=lambda: _frame(REVIEW_COLUMNS))
    action_source: str = ACTION_SOURCE
    computed_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def is_empty(self) -> bool:
        return self.totals.trajectories == 0

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables under their TABLE_NAMES, in that order."""
        frames = (self.per_app, self.lengths, self.actions, self.people, self.review)
        return dict(zip(TABLE_NAMES, frames, strict=True))


def compute(db: Database) -> DatasetStats:
    """Read every statistic of `db` in one session (a consistent snapshot on SQLite and PostgreSQL)."""
    with db.session() as session, session.begin():
        per_app, lengths = _per_app_and_lengths(session)
        totals = Totals(
            apps=len(per_app),
            instructions=int(per_app["instructions"].sum()),
            trajectories=int(per_app["trajectories"].sum()),
            steps=int(per_app["steps"].sum()),
        )
        return DatasetStats(
            totals=totals,
            per_app=per_app,
            lengths=lengths,
            actions=_actions(session),
            people=_people(session),
            review=_review(session),
        )


def write_csvs(stats: DatasetStats, folder: Path) -> list[Path]:
    """One UTF-8 CSV per table (``dataset_<table>.csv``), without index or totals rows; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, table in stats.tables().items():
        path = folder / f"dataset_{name}.csv"
        table.to_csv(path, index=False, encoding="utf-8")
        written.append(path)
    return written


# the queries ---------------------------------------------------------------------------------------------------


def _per_app_and_lengths(session: Session) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Table 6 and Figure 4 from one per-trajectory length subquery."""
    length = func.count(S.id)
    per_trajectory = (
        select(T.id.label("trajectory_id"), T.instruction_id, Ins.app_id, length.label("steps"))
        .join(Ins, Ins.id == T.instruction_id)
        .outerjoin(S, S.trajectory_id == T.id)
        .group_by(T.id, T.instruction_id, Ins.app_id)
        .subquery()
    )
    apps = session.execute(
        select(
            A.name,
            func.count(func.distinct(per_trajectory.c.instruction_id)),
            func.count(per_trajectory.c.trajectory_id),
            func.sum(per_trajectory.c.steps),
        )
        .join(per_trajectory, per_trajectory.c.app_id == A.id)
        .group_by(A.id, A.name)
    ).all()
    histogram = session.execute(
        select(per_trajectory.c.steps, func.count()).group_by(per_trajectory.c.steps)
    ).all()  # fmt: skip
    per_app = pd.DataFrame([tuple(row) for row in apps], columns=PER_APP_COLUMNS[:-1]).astype(
        {"instructions": "int64", "trajectories": "int64", "steps": "int64"}
    )
    per_app["mean_steps"] = (per_app["steps"] / per_app["trajectories"]).round(2)
    per_app = per_app.sort_values(["trajectories", "steps", "app"], ascending=[False, False, True])
    return per_app.reset_index(drop=True), _length_histogram(dict(histogram))


def _length_histogram(counts: dict[int, int]) -> pd.DataFrame:
    """One row per length from the shortest (at most 1) to the longest, gaps as zero: the x axis of Figure 4."""
    if not counts:
        return _frame(LENGTH_COLUMNS).astype("int64")
    lengths = range(min(min(counts), 1), max(counts) + 1)
    return pd.DataFrame({"steps": list(lengths), "trajectories": [counts.get(n, 0) for n in lengths]})


def _actions(session: Session) -> pd.DataFrame:
    action = func.coalesce(S.label_action, S.raw_action)
    rows = session.execute(select(action, func.count(), func.count(S.label_action)).group_by(action)).all()
    table = pd.DataFrame([tuple(row) for row in rows], columns=ACTION_COLUMNS[:-1])
    table["collected"] = table["steps"] - table["labelled"]
    table = table.astype({"steps": "int64", "labelled": "int64", "collected": "int64"})
    # Steps with neither action (a failed model reply) keep action None: the view names them.
    table["_key"] = table["action"].fillna("~")
    table = table.sort_values(["steps", "_key"], ascending=[False, True]).drop(columns="_key")
    return table.reset_index(drop=True)


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
