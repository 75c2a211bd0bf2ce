"""Which trajectories a command works on: one selection for the judge, the export and the statistics.

Every filter runs in the database. Empty tuples and None mean "any". A judge's scores enter through
`judge_config_id`: `min_judge_score` keeps the trajectories it scored at least that high, `unscored` those it
has no usable score for; without an id, the newest judge's scores are used.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import Select, func, select

from annotator.storage import models
from annotator.storage.database import Database

AnySelect = TypeVar("AnySelect", bound="Select[*tuple[Any, ...]]")  # a SELECT of any columns
T, Ins, A, S = models.Trajectory, models.Instruction, models.App, models.JudgeScore


@dataclass(frozen=True)
class TrajectorySelection:
    apps: tuple[str, ...] = ()
    review_states: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()  # collecting, interrupted, complete
    trajectory_ids: tuple[int, ...] = ()
    annotators: tuple[str, ...] = ()  # people who wrote at least one label revision of it
    since: datetime | None = None  # collected at or after
    until: datetime | None = None  # collected before
    judge_config_id: int | None = None  # whose scores the score filters (and an export's records) use
    min_judge_score: int | None = None
    unscored: bool = False  # only those the judge has no usable score for
    limit: int | None = None  # the first this many, oldest first

    def as_json(self) -> dict[str, Any]:
        return {
            "apps": list(self.apps),
            "review_states": list(self.review_states),
            "statuses": list(self.statuses),
            "trajectory_ids": list(self.trajectory_ids),
            "annotators": list(self.annotators),
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
            "judge_config_id": self.judge_config_id,
            "min_judge_score": self.min_judge_score,
            "unscored": self.unscored,
            "limit": self.limit,
        }


class TrajectoryKey(NamedTuple):
    """What a split needs to know of a trajectory."""

    trajectory_id: int
    instruction_id: int
    app: str


def _filtered(query: AnySelect, selection: TrajectorySelection, judge_id: int | None) -> AnySelect:
    query = query.join(Ins, T.instruction_id == Ins.id).join(A, Ins.app_id == A.id)
    if selection.since is not None:
        query = query.where(T.started_at >= selection.since)
    if selection.until is not None:
        query = query.where(T.started_at < selection.until)
    if selection.review_states:
        query = query.where(T.review_status.in_(selection.review_states))
    if selection.statuses:
        query = query.where(T.status.in_(selection.statuses))
    if selection.apps:
        query = query.where(A.name.in_(selection.apps))
    if selection.trajectory_ids:
        query = query.where(T.id.in_(selection.trajectory_ids))
    if selection.min_judge_score is not None:
        scored = select(S.trajectory_id).where(S.config_id == judge_id, S.reward >= selection.min_judge_score)
        query = query.where(T.id.in_(scored))
    if selection.unscored and judge_id is not None:
        query = query.where(T.id.not_in(select(S.trajectory_id).where(S.config_id == judge_id, S.reward.is_not(None))))
    if selection.annotators:  # every label revision names its trajectory, step revisions too
        R = models.LabelRevision
        labelled = select(R.trajectory_id).join(models.Person).where(models.Person.name.in_(selection.annotators))
        query = query.where(T.id.in_(labelled))
    query = query.order_by(T.id)
    return query.limit(selection.limit) if selection.limit is not None else query


def judge_in_use(db: Database, selection: TrajectorySelection) -> int | None:
    """The judge whose scores the selection reads: the one it names, else the newest that scored anything."""
    if selection.judge_config_id is not None:
        return selection.judge_config_id
    with db.session() as session:
        return session.scalar(select(func.max(S.config_id)))


def selected_ids(db: Database, selection: TrajectorySelection) -> list[int]:
    """The ids the selection names, oldest first."""
    query = _filtered(select(T.id).select_from(T), selection, judge_in_use(db, selection))
    with db.session() as session:
        return list(session.scalars(query))


def selected_keys(db: Database, selection: TrajectorySelection) -> tuple[int | None, list[TrajectoryKey]]:
    """(the judge whose scores are used, the selected trajectories' keys in id order)."""
    judge_id = judge_in_use(db, selection)
    query = _filtered(select(T.id, T.instruction_id, A.name).select_from(T), selection, judge_id)
    with db.session() as session:
        return judge_id, [TrajectoryKey(*row) for row in session.execute(query)]
