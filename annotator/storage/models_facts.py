"""Each trajectory's counts, and the whole workspace's, kept between reads of the statistics
(`storage.facts_cache`, docs/adr/0012-a-team-scale-workspace.md).

`trajectory_stamps` counts the writes that change what a trajectory counts: triggers on `steps` and
`trajectories` (migration 0015, SQLite and PostgreSQL) bump `stamp` in the writer's own transaction, whatever
writes (the app, an import, plain SQL); `counted` is the stamp its facts were counted at, so the stale ones are
found through a partial index. A trajectory's facts (`trajectory_facts`, `trajectory_action_facts`) have no
foreign key: the facts of a deleted trajectory are taken out of the totals before they go. The totals
(`instruction_totals`, `length_totals`, `action_totals`) are the sums of the facts, kept by adding and taking away
what changes.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, MetaData, PrimaryKeyConstraint, String, Table

from annotator.storage.models import Base

METADATA: MetaData = Base.metadata  # type: ignore[has-type]  # models imports this module at its end
NO_ACTION = ""  # the action key of steps with neither a labelled nor a collected action (a key cannot be NULL)

trajectory_stamps = Table(
    "trajectory_stamps",
    METADATA,
    Column("trajectory_id", Integer, primary_key=True, autoincrement=False),
    Column("stamp", BigInteger, nullable=False),
    Column("counted", BigInteger, nullable=False),
    # Partial (`WHERE stamp <> counted`) on both databases: migration 0015 makes it so. The predicate is left out
    # here because a `postgresql_where` loads the PostgreSQL dialect with the models (~60 ms of every start on a
    # SQLite workspace); the app makes its schema only through the migrations, and Alembic does not compare it.
    Index("ix_trajectory_stamps_stale", "trajectory_id"),
)

trajectory_facts = Table(
    "trajectory_facts",
    METADATA,
    Column("trajectory_id", Integer, primary_key=True, autoincrement=False),
    Column("stamp", BigInteger, nullable=False),  # the trajectory's stamp when these were counted
    Column("instruction_id", Integer, nullable=False),
    Column("review_status", String(20), nullable=False),
    Column("steps", Integer, nullable=False),  # step rows, removed ones too
    Column("annotated_steps", Integer, nullable=False),  # facts_cache.annotated_step
)

# One row per trajectory and action type: the labelled action, else the collected one, else NO_ACTION.
trajectory_action_facts = Table(
    "trajectory_action_facts",
    METADATA,
    Column("trajectory_id", Integer, nullable=False),
    Column("review_status", String(20), nullable=False),
    Column("action", String(40), nullable=False),
    Column("steps", Integer, nullable=False),
    Column("labelled", Integer, nullable=False),
    Column("annotated", Integer, nullable=False),
    PrimaryKeyConstraint("trajectory_id", "action"),
)

# The trajectories of each instruction in each review state, and their step rows and annotated steps.
instruction_totals = Table(
    "instruction_totals",
    METADATA,
    Column("instruction_id", Integer, nullable=False),
    Column("review_status", String(20), nullable=False),
    Column("trajectories", BigInteger, nullable=False),
    Column("steps", BigInteger, nullable=False),
    Column("annotated_steps", BigInteger, nullable=False),
    PrimaryKeyConstraint("instruction_id", "review_status"),
)

# How many trajectories in each review state have so many step rows and annotated steps (Figure 4).
length_totals = Table(
    "length_totals",
    METADATA,
    Column("review_status", String(20), nullable=False),
    Column("steps", Integer, nullable=False),
    Column("annotated_steps", Integer, nullable=False),
    Column("trajectories", BigInteger, nullable=False),
    PrimaryKeyConstraint("review_status", "steps", "annotated_steps"),
)

# The steps of each action type in the trajectories of each review state.
action_totals = Table(
    "action_totals",
    METADATA,
    Column("review_status", String(20), nullable=False),
    Column("action", String(40), nullable=False),
    Column("steps", BigInteger, nullable=False),
    Column("labelled", BigInteger, nullable=False),
    Column("annotated", BigInteger, nullable=False),
    PrimaryKeyConstraint("review_status", "action"),
)
