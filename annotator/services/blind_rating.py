"""Blind rating of a study: what a rater sees and does, and nothing more.

A rater gets the study's items in an order of their own (shuffled with their seed), each as the judge saw it
(instruction, every step's screenshot, reasoning, action and tool call) and with their own score and note,
never the judge's score or reason nor another rater's score: nothing here reads them. Once every rater has
scored every item (or, when the study's owner chose so at creation, once this rater has), `disagreements`
shows where that rater and the judge differ most, with the judge's reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from annotator.judge.agreement_consensus import check_level
from annotator.judge.messages import JudgedTrajectory, judged_trajectory
from annotator.services.studies import NotYetError, progress, stratum
from annotator.storage import assignments
from annotator.storage import studies as stored
from annotator.storage.database import Database
from annotator.storage.studies import StoredRater, StoredStudy
from annotator.storage.trajectories import load_trajectory


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


def _rater(study: StoredStudy, name: str) -> StoredRater:
    rater = next((rater for rater in study.raters if rater.name == name), None)
    if rater is None:
        names = ", ".join(r.name for r in study.raters)
        raise PermissionError(f"{name} is not a rater of study {study.name!r} (raters: {names})")
    return rater


def _queue(db: Database, study: StoredStudy, rater_name: str) -> list[BlindEntry]:
    rater = _rater(study, rater_name)
    mine = stored.rater_ratings(db, rater.id)
    order = sorted(study.items, key=lambda item: item.position)
    random.Random(rater.order_seed).shuffle(order)
    return [
        BlindEntry(item.id, number, item.trajectory_id, *mine.get(item.id, (None, None)))
        for number, item in enumerate(order, start=1)
    ]


def rater_queue(db: Database, name: str, rater_name: str) -> list[BlindEntry]:
    return _queue(db, stored.load_study(db, name), rater_name)


def rubric(db: Database, name: str) -> str:
    return stored.load_study(db, name).rubric


def _item(study: StoredStudy, item_id: int) -> stored.StoredItem:
    item = next((item for item in study.items if item.id == item_id), None)
    if item is None:
        raise LookupError(f"item {item_id} is not in study {study.name!r}")
    return item


def blind_trajectory(db: Database, name: str, rater_name: str, item_id: int) -> JudgedTrajectory:
    """What the judge saw of an item's trajectory, for a rater of the study."""
    study = stored.load_study(db, name)
    _rater(study, rater_name)
    return judged_trajectory(load_trajectory(db, _item(study, item_id).trajectory_id))


def rate(db: Database, name: str, rater_name: str, item_id: int, score: int, note: str = "") -> None:
    """Store (or change) this rater's score of an item."""
    check_level(score, "the score")
    if score is None:
        raise ValueError("the score: give a level from 0 to 4")
    study = stored.load_study(db, name)
    rater = _rater(study, rater_name)
    item = _item(study, item_id)
    stored.save_rating(db, item.id, rater.id, score, note.strip() or None)
    rated = {rated_id for rated_id, scores in study.ratings.items() if rater_name in scores} | {item.id}
    if len(rated) >= len(study.items):  # the last item: this rater's assignment of the study is done
        assignments.finish_rating(db, study.id, rater_name)


def disagreements(db: Database, name: str, rater_name: str) -> list[Disagreement]:
    """The rater's items sorted by how far the judge is from the rater's score, largest first."""
    study = stored.load_study(db, name)
    queue = _queue(db, study, rater_name)
    missing = [entry.number for entry in queue if entry.score is None]
    if missing:
        raise NotYetError(f"{len(missing)} item(s) of study {name!r} are not rated yet (first: #{missing[0]})")
    pending = [f"{rater.name} {rater.rated}/{rater.total}" for rater in progress(study) if not rater.finished]
    if pending and not study.show_differences_early:
        raise NotYetError(
            f"where you and the judge differ in study {name!r} shows once every rater has finished "
            f"(still rating: {', '.join(pending)})"
        )
    items = {item.id: item for item in study.items}
    trajectory_ids = [item.trajectory_id for item in study.items]
    reasons = stored.judge_reasons(db, study.config_id, trajectory_ids)
    texts = stored.instruction_texts(db, trajectory_ids)
    found = [
        Disagreement(
            entry.trajectory_id,
            texts.get(entry.trajectory_id, ""),
            int(entry.score or 0),
            stratum(study, items[entry.item_id]),
            reasons.get(entry.trajectory_id),
        )
        for entry in queue
    ]
    return sorted(found, key=lambda d: (-d.gap, d.trajectory_id))
