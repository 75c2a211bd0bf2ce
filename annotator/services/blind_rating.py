"""Blind rating of a study: what a rater sees and does, and nothing more.

A rater gets the study's items in an order of their own (shuffled with their seed), each as the judge saw it
(instruction, every step's screenshot, reasoning, action and tool call) and with their own score and note,
never the judge's score or reason nor another rater's score: nothing here reads them. Once a rater has
scored every item, `disagreements` shows where that rater and the judge differ most, with the judge's reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from annotator.judge.agreement_consensus import check_level
from annotator.judge.messages import JudgedTrajectory, judged_trajectory
from annotator.services.studies import NotYetError, find_study
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.models import utcnow
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

It, Ra, Rt = models.StudyItem, models.StudyRater, models.StudyRating


@dataclass(frozen=True)
class BlindEntry:
    """One item in a rater's queue: where it is in their order, and their own score so far."""

    item_id: int
    number: int  # 1-based, in this rater's order
    trajectory_id: int
    score: int | None
    note: str | None


@dataclass(frozen=True)
class Disagreement:
    trajectory_id: int
    instruction: str
    yours: int
    judge: int
    judge_reason: str | None

    @property
    def gap(self) -> int:
        return abs(self.judge - self.yours)


def _rater(study: models.Study, name: str) -> models.StudyRater:
    rater = next((rater for rater in study.raters if rater.person.name == name), None)
    if rater is None:
        names = ", ".join(r.person.name for r in study.raters)
        raise PermissionError(f"{name} is not a rater of study {study.name!r} (raters: {names})")
    return rater


def _queue(session: Session, study: models.Study, rater_name: str) -> list[BlindEntry]:
    rater = _rater(study, rater_name)
    mine = {row.item_id: row for row in session.scalars(select(Rt).where(Rt.rater_id == rater.id))}
    order = sorted(study.items, key=lambda item: item.position)
    random.Random(rater.order_seed).shuffle(order)
    return [
        BlindEntry(item.id, number, item.trajectory_id, getattr(mine.get(item.id), "score", None),
                   getattr(mine.get(item.id), "note", None))
        for number, item in enumerate(order, start=1)
    ]  # fmt: skip


def rater_queue(db: Database, name: str, rater_name: str) -> list[BlindEntry]:
    with db.session() as session:
        return _queue(session, find_study(session, name), rater_name)


def rubric(db: Database, name: str) -> str:
    with db.session() as session:
        return find_study(session, name).rubric


def blind_trajectory(workspace: Workspace, name: str, rater_name: str, item_id: int) -> JudgedTrajectory:
    """What the judge saw of an item's trajectory, for a rater of the study."""
    with workspace.database.session() as session:
        study = find_study(session, name)
        _rater(study, rater_name)
        item = next((item for item in study.items if item.id == item_id), None)
        if item is None:
            raise LookupError(f"item {item_id} is not in study {name!r}")
        trajectory_id = item.trajectory_id
    return judged_trajectory(load_trajectory(workspace.database, trajectory_id))


def rate(db: Database, name: str, rater_name: str, item_id: int, score: int, note: str = "") -> None:
    """Store (or change) this rater's score of an item."""
    check_level(score, "the score")
    if score is None:
        raise ValueError("the score: give a level from 0 to 4")
    with db.session() as session:
        study = find_study(session, name)
        rater = _rater(study, rater_name)
        if item_id not in {item.id for item in study.items}:
            raise LookupError(f"item {item_id} is not in study {name!r}")
        row = session.scalar(select(Rt).where(Rt.item_id == item_id, Rt.rater_id == rater.id))
        if row is None:
            session.add(Rt(item_id=item_id, rater_id=rater.id, score=score, note=note.strip() or None))
        else:
            row.score, row.note, row.updated_at = score, note.strip() or None, utcnow()
        session.commit()


def disagreements(db: Database, name: str, rater_name: str) -> list[Disagreement]:
    """The rater's items sorted by how far the judge is from the rater's score, largest first."""
    with db.session() as session:
        study = find_study(session, name)
        queue = _queue(session, study, rater_name)
        missing = [entry.number for entry in queue if entry.score is None]
        if missing:
            raise NotYetError(f"{len(missing)} item(s) of study {name!r} are not rated yet (first: #{missing[0]})")
        items = {item.id: item for item in study.items}
        trajectory_ids = [item.trajectory_id for item in study.items]
        reasons = dict(
            session.execute(
                select(models.JudgeScore.trajectory_id, models.JudgeScore.reason).where(
                    models.JudgeScore.config_id == study.config_id, models.JudgeScore.trajectory_id.in_(trajectory_ids)
                )
            ).all()
        )
        texts = dict(
            session.execute(
                select(models.Trajectory.id, models.Instruction.text)
                .join(models.Instruction, models.Instruction.id == models.Trajectory.instruction_id)
                .where(models.Trajectory.id.in_(trajectory_ids))
            ).all()
        )
    found = [
        Disagreement(entry.trajectory_id, texts.get(entry.trajectory_id, ""), int(entry.score or 0),
                     items[entry.item_id].judge_reward, reasons.get(entry.trajectory_id))
        for entry in queue
    ]  # fmt: skip
    return sorted(found, key=lambda d: (-d.gap, d.trajectory_id))
