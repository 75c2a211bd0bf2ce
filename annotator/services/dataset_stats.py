"""Every table of the statistics view, from a handful of aggregate queries.

The dataset's shape (Mobile-R1 Table 2 and Table 6, Figure 4's trajectory lengths, steps per action type) comes
from ``annotator.storage.statistics``, which ``trainer-bridge stats`` and ``annotator stats`` share, so that they
count alike (its docstring holds the definitions). This module adds what a team needs to steer the work and only
the app shows: each person's labelling and review progress, and how many trajectories are in each review state
(``annotator.storage.workspace_statistics`` reads them, and defines them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from annotator.services.draft_stats import draft_stats
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
    write_tables,
)
from annotator.storage.workspace_statistics import PEOPLE_COLUMNS, REVIEW_COLUMNS, load_team_statistics

__all__ = [
    "ACTION_COLUMNS",
    "ACTION_SOURCE",
    "LENGTH_COLUMNS",
    "PEOPLE_COLUMNS",
    "PER_APP_COLUMNS",
    "REVIEW_COLUMNS",
    "TABLE_NAMES",
    "DatasetStats",
    "Totals",
    "compute",
    "write_csvs",
]

# Name of each table in CSV file names and in `DatasetStats.tables()`.
TABLE_NAMES = (*SHAPE_TABLES, "people", "review_status")


@dataclass(frozen=True)
class DatasetStats(DatasetShape):
    """The statistics of one database at one moment: its shape plus the people and review tables."""

    people: pd.DataFrame = field(default_factory=lambda: empty_frame(PEOPLE_COLUMNS))
    review: pd.DataFrame = field(default_factory=lambda: empty_frame(REVIEW_COLUMNS))
    drafts: dict[str, Any] = field(default_factory=dict)  # services.draft_stats: model drafts and what became of them
    computed_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables under their TABLE_NAMES, in that order."""
        return {**super().tables(), "people": self.people, "review_status": self.review}


def compute(db: Database) -> DatasetStats:
    """Read every statistic of `db` in one transaction (a consistent snapshot on SQLite and PostgreSQL)."""
    read = load_team_statistics(db)
    shape = read.facts.shape()
    return DatasetStats(
        totals=shape.totals,
        per_app=shape.per_app,
        lengths=shape.lengths,
        actions=shape.actions,
        people=read.people,
        review=read.review,
        drafts=draft_stats(db),
    )


def write_csvs(stats: DatasetStats, folder: Path) -> list[Path]:
    """One UTF-8 CSV per table (``dataset_<table>.csv``), without index or totals rows; returns the paths."""
    return write_tables(stats.tables(), folder, prefix="dataset_")
