"""The shape of a dataset, or of any part of it (a split, a selection): Mobile-R1 Tables 2 and 6, Figure 4.

Shared by the statistics view (through ``services.dataset_stats``), ``annotator stats`` (``services.stats``) and
``trainer-bridge stats``, so that the app, the command line and a training run's data card count alike. Table 2
is the dataset in one row (apps, instructions, trajectories, steps), Table 6 the same per app, Figure 4 the
distribution of trajectory length; the steps per action type come with them.

Definitions, so that the numbers read the same in the view, its CSV files and a script:

- what is counted: the facts as read count every trajectory and every step row (collected and inserted,
  removed ones too), as the trajectory browser does, and so do the statistics view and ``trainer-bridge
  stats``. ``TrajectoryFacts.counted(Counting.PAPER)``, what ``annotator stats`` shows by default, counts
  Mobile-R1 Table 2's dataset instead: the accepted trajectories and their annotated steps
  (`LabelledTrajectory.annotated_steps`: each executed step labelled completely, kept, neither wrong nor
  redundant, and in place of a wrong step its first complete correction; `facts_cache.annotated_step` is that
  rule in SQL);
- a trajectory's length is its number of counted steps;
- an app's instructions are those with at least one trajectory (the instructions *in the dataset*, as in
  Table 2); apps without trajectories are left out (``annotator stats`` adds the whole stored pool of apps and
  instructions beside them: ``annotator.storage.workspace_statistics``);
- a step's action type is its labelled action where it has one, else the collected one (ACTION_SOURCE);
  the ``labelled`` and ``collected`` columns say how many of each count came from which.

Each trajectory's counts are kept in the database and counted again when its steps change (`facts_cache`).
They are read once into per-trajectory facts (`read_facts`): one row per trajectory (its app, instruction and
length) and one per trajectory and action type. Any subset of trajectories (a split, a selection) is then
counted from those rows (`TrajectoryFacts.subset`, `.shape`) without another query, so the parts of a split add
up to their whole exactly. The whole workspace's shape is counted by the database (`read_shape`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from annotator.domain.counting import Counting
from annotator.domain.trajectory import ReviewStatus
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.facts_cache import TAF, TF, annotated_step, refresh_facts
from annotator.storage.models_facts import NO_ACTION, action_totals, instruction_totals, length_totals

A, Ins, T, S = models.App, models.Instruction, models.Trajectory, models.Step
IT, LT, AT = instruction_totals.c, length_totals.c, action_totals.c

ACTION_SOURCE = "label_action where a step has one, else raw_action"
TOTALS_COLUMNS = ["apps", "instructions", "trajectories", "steps", "mean_steps"]
PER_APP_COLUMNS = ["app", "instructions", "trajectories", "steps", "mean_steps"]
LENGTH_COLUMNS = ["steps", "trajectories"]
ACTION_COLUMNS = ["action", "steps", "labelled", "collected"]
TRAJECTORY_COLUMNS = ["trajectory_id", "instruction_id", "app", "review_status", "steps", "annotated_steps"]
TRAJECTORY_ACTION_COLUMNS = ["trajectory_id", "action", "steps", "labelled", "annotated"]
# Name of each table of a shape in CSV file names and in `DatasetShape.tables()`.
SHAPE_TABLES = ("per_app", "trajectory_lengths", "action_types")
WHOLE = "all"  # the name of the whole selection beside its splits


def empty_frame(columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame({column: [] for column in columns})


@dataclass(frozen=True)
class Totals:
    """Mobile-R1 Table 2: the whole dataset (or one split) in one row."""

    apps: int = 0
    instructions: int = 0
    trajectories: int = 0
    steps: int = 0

    @property
    def mean_steps(self) -> float:
        return self.steps / self.trajectories if self.trajectories else 0.0

    def row(self) -> dict[str, int | float]:
        """The TOTALS_COLUMNS of this row; the mean rounded to two decimals, as in the per-app table."""
        counts = (self.apps, self.instructions, self.trajectories, self.steps, round(self.mean_steps, 2))
        return dict(zip(TOTALS_COLUMNS, counts, strict=True))


@dataclass(frozen=True)
class DatasetShape:
    """Tables 2 and 6, Figure 4 and the action types of a set of trajectories; each table has its *_COLUMNS."""

    totals: Totals = field(default_factory=Totals)
    per_app: pd.DataFrame = field(default_factory=lambda: empty_frame(PER_APP_COLUMNS))
    lengths: pd.DataFrame = field(default_factory=lambda: empty_frame(LENGTH_COLUMNS))
    actions: pd.DataFrame = field(default_factory=lambda: empty_frame(ACTION_COLUMNS))
    action_source: str = ACTION_SOURCE

    def is_empty(self) -> bool:
        return self.totals.trajectories == 0

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables under their SHAPE_TABLES names, in that order."""
        return dict(zip(SHAPE_TABLES, (self.per_app, self.lengths, self.actions), strict=True))


@dataclass(frozen=True)
class TrajectoryFacts:
    """What the shapes are counted from: TRAJECTORY_COLUMNS per trajectory, TRAJECTORY_ACTION_COLUMNS per
    trajectory and action type."""

    trajectories: pd.DataFrame
    actions: pd.DataFrame

    def subset(self, trajectory_ids: Collection[int]) -> TrajectoryFacts:
        """The facts of these trajectories only (ids that are not here are ignored)."""
        wanted = list(trajectory_ids)
        return TrajectoryFacts(
            self.trajectories[self.trajectories["trajectory_id"].isin(wanted)],
            self.actions[self.actions["trajectory_id"].isin(wanted)],
        )

    def counted(self, counting: Counting) -> TrajectoryFacts:
        """These facts as `counting` counts them: under PAPER, the accepted trajectories with their annotated
        steps as their steps (every annotated step has a labelled action)."""
        if counting is Counting.ROWS:
            return self
        accepted = self.trajectories[self.trajectories["review_status"] == str(ReviewStatus.ACCEPTED)]
        trajectories = accepted.assign(steps=accepted["annotated_steps"])
        actions = self.actions[self.actions["trajectory_id"].isin(trajectories["trajectory_id"])]
        actions = actions.assign(steps=actions["annotated"], labelled=actions["annotated"])
        return replace(self, trajectories=trajectories, actions=actions[actions["steps"] > 0])

    def shape(self) -> DatasetShape:
        per_app = _per_app(self.trajectories)
        totals = Totals(
            apps=len(per_app),
            instructions=int(per_app["instructions"].sum()),
            trajectories=int(per_app["trajectories"].sum()),
            steps=int(per_app["steps"].sum()),
        )
        counts = self.trajectories["steps"].value_counts()
        lengths = _length_histogram({int(steps): int(n) for steps, n in counts.items()})
        return DatasetShape(totals=totals, per_app=per_app, lengths=lengths, actions=_actions(self.actions))


def read_facts(session: Session) -> TrajectoryFacts:
    """Every trajectory's facts as kept (`facts_cache`: call `refresh_facts` before the transaction), in two
    queries (run them in one transaction for a snapshot)."""
    connection = session.connection()  # Core rows: the ORM's result processing doubled the time of 100,000 rows
    rows = connection.execute(
        select(TF.trajectory_id, TF.instruction_id, A.name, TF.review_status, TF.steps, TF.annotated_steps)
        .join(Ins, Ins.id == TF.instruction_id)
        .join(A, A.id == Ins.app_id)
        .order_by(TF.trajectory_id)
    ).all()
    action = case((TAF.action == NO_ACTION, None), else_=TAF.action)
    per_action = connection.execute(select(TAF.trajectory_id, action, TAF.steps, TAF.labelled, TAF.annotated))
    trajectories = pd.DataFrame([tuple(row) for row in rows], columns=TRAJECTORY_COLUMNS)
    return _facts(trajectories, pd.DataFrame([tuple(row) for row in per_action], columns=TRAJECTORY_ACTION_COLUMNS))


def count_facts(session: Session) -> TrajectoryFacts:
    """Every trajectory's facts counted from its steps, in two aggregate queries: where the kept ones cannot be
    brought up to date (a read-only database)."""
    connection = session.connection()
    rows = connection.execute(
        select(T.id, T.instruction_id, A.name, T.review_status, func.count(S.id))
        .join(Ins, Ins.id == T.instruction_id)
        .join(A, A.id == Ins.app_id)
        .outerjoin(S, S.trajectory_id == T.id)
        .group_by(T.id, T.instruction_id, A.name, T.review_status)
        .order_by(T.id)
    ).all()
    action = func.coalesce(S.label_action, S.raw_action)
    annotated = func.sum(case((annotated_step(), 1), else_=0))
    per_action = connection.execute(
        select(S.trajectory_id, action, func.count(), func.count(S.label_action), annotated).group_by(
            S.trajectory_id, action
        )
    ).all()
    read = [column for column in TRAJECTORY_COLUMNS if column != "annotated_steps"]  # summed from `per_action`
    trajectories = pd.DataFrame([tuple(row) for row in rows], columns=read)
    actions = pd.DataFrame([tuple(row) for row in per_action], columns=TRAJECTORY_ACTION_COLUMNS)
    annotated_steps = actions.groupby("trajectory_id")["annotated"].sum()
    trajectories["annotated_steps"] = trajectories["trajectory_id"].map(annotated_steps).fillna(0)
    return _facts(trajectories, actions)


def _facts(trajectories: pd.DataFrame, actions: pd.DataFrame) -> TrajectoryFacts:
    integers = {"trajectory_id": "int64", "steps": "int64"}
    return TrajectoryFacts(
        trajectories.astype({**integers, "instruction_id": "int64", "annotated_steps": "int64"}),
        actions.astype({**integers, "labelled": "int64", "annotated": "int64"}),
    )


def read_shape(session: Session, counting: Counting) -> DatasetShape:
    """`read_facts(session).counted(counting).shape()`, read from the totals the database keeps: a few hundred
    rows whatever the workspace's size (call `refresh_facts` before the transaction)."""
    connection, paper = session.connection(), counting is Counting.PAPER
    accepted = [IT.review_status == str(ReviewStatus.ACCEPTED)] if paper else []
    per_app = connection.execute(
        select(
            A.name,
            func.count(func.distinct(IT.instruction_id)),
            func.sum(IT.trajectories),
            func.sum(IT.annotated_steps if paper else IT.steps),
        )
        .join(Ins, Ins.id == IT.instruction_id)
        .join(A, A.id == Ins.app_id)
        .where(IT.trajectories > 0, *accepted)
        .group_by(A.name)
    ).all()
    length = LT.annotated_steps if paper else LT.steps
    in_state = [LT.review_status == str(ReviewStatus.ACCEPTED)] if paper else []
    lengths = connection.execute(select(length, func.sum(LT.trajectories)).where(*in_state).group_by(length)).all()
    steps = func.sum(AT.annotated if paper else AT.steps)
    action = case((AT.action == NO_ACTION, None), else_=AT.action)
    actions = connection.execute(
        select(action, steps, func.sum(AT.annotated if paper else AT.labelled))
        .where(*([AT.review_status == str(ReviewStatus.ACCEPTED)] if paper else []))
        .group_by(AT.action)
        .having(steps > 0)
    ).all()
    table = _finish_per_app(pd.DataFrame([tuple(row) for row in per_app], columns=PER_APP_COLUMNS[:-1]))
    totals = Totals(
        apps=len(table),
        instructions=int(table["instructions"].sum()),
        trajectories=int(table["trajectories"].sum()),
        steps=int(table["steps"].sum()),
    )
    per_action = pd.DataFrame([tuple(row) for row in actions], columns=["action", "steps", "labelled"])
    return DatasetShape(
        totals=totals,
        per_app=table,
        lengths=_length_histogram({int(steps): int(n) for steps, n in lengths if n}),
        actions=_actions(per_action),
    )


def load_facts(db: Database) -> TrajectoryFacts:
    """Every trajectory's facts, counted again where stale, then read in one transaction (a consistent snapshot);
    counted from the steps where the database cannot be written."""
    kept = refresh_facts(db) is not None
    with db.session() as session, session.begin():
        return read_facts(session) if kept else count_facts(session)


def split_shapes(facts: TrajectoryFacts, splits: Mapping[str, Collection[int]]) -> dict[str, DatasetShape]:
    """The shape of each split, in order, then of all of them together under WHOLE."""
    if WHOLE in splits:
        raise ValueError(f"a split cannot be named {WHOLE!r}: that name stands for all the splits together")
    everything = [trajectory_id for ids in splits.values() for trajectory_id in ids]
    parts = {**splits, WHOLE: everything}
    return {name: facts.subset(ids).shape() for name, ids in parts.items()}


def totals_table(shapes: Mapping[str, DatasetShape], key: str = "split") -> pd.DataFrame:
    """Table 2 with one row per named shape: `key` then TOTALS_COLUMNS."""
    rows = [{key: name, **shape.totals.row()} for name, shape in shapes.items()]
    return pd.DataFrame(rows, columns=[key, *TOTALS_COLUMNS])


def write_tables(tables: Mapping[str, pd.DataFrame], folder: Path, prefix: str = "") -> list[Path]:
    """One UTF-8 CSV per table (``<prefix><name>.csv``), without index or totals rows; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, table in tables.items():
        path = folder / f"{prefix}{name}.csv"
        table.to_csv(path, index=False, encoding="utf-8")
        written.append(path)
    return written


# the tables ----------------------------------------------------------------------------------------------------


def _per_app(trajectories: pd.DataFrame) -> pd.DataFrame:
    """Table 6: instructions (with a trajectory), trajectories, steps and mean length per app, largest first."""
    table = (
        trajectories.groupby("app")
        .agg(instructions=("instruction_id", "nunique"), trajectories=("trajectory_id", "size"), steps=("steps", "sum"))
        .reset_index()
    )
    return _finish_per_app(table)


def _finish_per_app(table: pd.DataFrame) -> pd.DataFrame:
    """Table 6 from its counts per app (PER_APP_COLUMNS but the mean): the mean added, largest first."""
    table = table.astype({"instructions": "int64", "trajectories": "int64", "steps": "int64"})
    table["mean_steps"] = (table["steps"] / table["trajectories"]).round(2)
    table = table.sort_values(["trajectories", "steps", "app"], ascending=[False, False, True])
    return table[PER_APP_COLUMNS].reset_index(drop=True)


def _length_histogram(counts: dict[int, int]) -> pd.DataFrame:
    """One row per length from the shortest (at most 1) to the longest, gaps as zero: the x axis of Figure 4."""
    if not counts:
        return empty_frame(LENGTH_COLUMNS).astype("int64")
    lengths = range(min(min(counts), 1), max(counts) + 1)
    return pd.DataFrame({"steps": list(lengths), "trajectories": [counts.get(n, 0) for n in lengths]})


def _actions(per_trajectory: pd.DataFrame) -> pd.DataFrame:
    """Steps per action type, the most frequent first; steps with neither action (a failed model reply) keep
    action None: the views name them."""
    table = per_trajectory.groupby("action", dropna=False)[["steps", "labelled"]].sum().reset_index()
    table["action"] = table["action"].astype(object).where(table["action"].notna(), None)
    table["collected"] = table["steps"] - table["labelled"]
    table = table.astype({"steps": "int64", "labelled": "int64", "collected": "int64"})
    table["_key"] = table["action"].fillna("~")
    table = table.sort_values(["steps", "_key"], ascending=[False, True]).drop(columns="_key")
    return table[ACTION_COLUMNS].reset_index(drop=True)
