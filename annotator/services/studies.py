"""Validation studies of a judge: create one (a stratified sample, its raters, the rubric), follow it, adjudicate
items without a majority, and report the judge's agreement with the human consensus.

Blindness: a rater who has not finished rating a study gets no report of it (it shows the judge's scores and
the other raters'); the rating itself goes through annotator.services.blind_rating, which never reads a
judge score.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from annotator.domain.judge_settings import rubric_text
from annotator.judge.agreement_consensus import RatedItem, TieRule, check_level, consensus
from annotator.judge.sampling import Candidate, stratified_sample
from annotator.storage import models
from annotator.storage.collection import ensure_person
from annotator.storage.database import Database
from annotator.storage.models import utcnow

if TYPE_CHECKING:
    from annotator.judge.agreement import AgreementReport

St, It, Ra, Rt = models.Study, models.StudyItem, models.StudyRater, models.StudyRating


class StudyError(ValueError):
    """A study request that cannot be done as asked; the message says why and what to do."""


class NotYetError(PermissionError):
    """What was asked would show a rater still rating the judge's or the other raters' scores."""


@dataclass(frozen=True)
class RaterProgress:
    name: str
    rated: int
    total: int

    @property
    def finished(self) -> bool:
        return self.rated >= self.total


@dataclass(frozen=True)
class StudyInfo:
    id: int
    name: str
    judge_id: int
    judge: str  # prompt and model, for people
    seed: int
    size: int  # items sampled
    asked: int  # the size asked for
    by_app: bool
    levels: dict[int, int]  # items per judge level
    raters: tuple[RaterProgress, ...]
    flagged: int  # items whose ratings are complete and have no unique majority, not adjudicated
    adjudicated: int
    created_at: datetime

    @property
    def finished(self) -> bool:
        return all(rater.finished for rater in self.raters)


def find_study(session: Session, name: str) -> models.Study:
    study = session.scalar(select(St).where(St.name == name))
    if study is None:
        known = ", ".join(session.scalars(select(St.name).order_by(St.id))) or "none yet"
        raise LookupError(f"no study named {name!r} (studies: {known})")
    return study


def _candidates(session: Session, judge_id: int) -> list[Candidate]:
    S, T, Ins, A = models.JudgeScore, models.Trajectory, models.Instruction, models.App
    rows = session.execute(
        select(S.trajectory_id, S.reward, A.name)
        .join(T, T.id == S.trajectory_id).join(Ins, Ins.id == T.instruction_id).join(A, A.id == Ins.app_id)
        .where(S.config_id == judge_id, S.reward.is_not(None))
    )  # fmt: skip
    return [Candidate(trajectory, reward, app) for trajectory, reward, app in rows]


def _order_seed(seed: int, rater: str) -> int:
    return random.Random(f"{seed}:{rater}").randrange(2**31)


def create_study(
    db: Database,
    name: str,
    judge_id: int,
    size: int,
    raters: list[str],
    *,
    seed: int = 0,
    by_app: bool = False,
    rubric: str | None = None,
    created_by: str | None = None,
) -> StudyInfo:
    """Sample `size` trajectories scored by judge `judge_id`, stratified by its levels (and apps)."""
    names = [rater.strip() for rater in raters if rater.strip()]
    if not name.strip():
        raise StudyError("a study needs a name")
    if not names or len(set(names)) != len(names):
        raise StudyError(f"a study needs one or more raters, each named once (got {raters})")
    with db.session() as session:
        judge = session.get(models.JudgeConfig, judge_id)
        if judge is None:
            raise LookupError(f"no judge {judge_id}; `annotator judge list` shows them")
        candidates = _candidates(session, judge_id)
        if not candidates:
            raise StudyError(f"judge {judge_id} has scored no trajectory yet; run `annotator judge run` first")
        sample = stratified_sample(candidates, size, seed, by_app=by_app)
        creator = ensure_person(session, created_by, "reviewer").id if created_by else None
        study = St(
            name=name.strip(), config_id=judge_id, seed=seed, sample_size=size, by_app=by_app,
            rubric=rubric or rubric_text(judge.prompt_text), created_by_id=creator,
        )  # fmt: skip
        study.items = [
            It(trajectory_id=c.trajectory_id, position=i, judge_reward=c.level, app=c.app) for i, c in enumerate(sample)
        ]
        study.raters = [Ra(person_id=ensure_person(session, rater, "annotator").id, order_seed=_order_seed(seed, rater))
                        for rater in names]  # fmt: skip
        session.add(study)
        try:
            session.commit()
        except IntegrityError:
            raise StudyError(f"a study named {name!r} exists already; choose another name") from None
        return _info(session, study)


def _progress(study: models.Study, ratings: dict[int, dict[str, int]]) -> tuple[RaterProgress, ...]:
    """Each rater's count of rated items, from the study's `_ratings`."""
    counts = Counter(rater for scores in ratings.values() for rater in scores)
    total = len(study.items)
    return tuple(RaterProgress(rater.person.name, counts[rater.person.name], total) for rater in study.raters)


def _ratings(session: Session, study: models.Study) -> dict[int, dict[str, int]]:
    """item id -> rater name -> score."""
    rows = session.execute(
        select(Rt.item_id, models.Person.name, Rt.score)
        .join(Ra, Ra.id == Rt.rater_id).join(models.Person, models.Person.id == Ra.person_id)
        .join(It, It.id == Rt.item_id).where(It.study_id == study.id)
    )  # fmt: skip
    found: dict[int, dict[str, int]] = {}
    for item, rater, score in rows:
        found.setdefault(item, {})[rater] = score
    return found


def _info(session: Session, study: models.Study) -> StudyInfo:
    judge = session.get(models.JudgeConfig, study.config_id)
    ratings = _ratings(session, study)
    raters = len(study.raters)
    flagged = sum(
        1 for item in study.items
        if item.adjudicated is None and len(ratings.get(item.id, {})) == raters
        and consensus(ratings[item.id].values()).flagged
    )  # fmt: skip
    return StudyInfo(
        study.id, study.name, study.config_id, f"{judge.prompt_name} · {judge.model}" if judge else "?",
        study.seed, len(study.items), study.sample_size, study.by_app,
        dict(sorted(Counter(item.judge_reward for item in study.items).items())), _progress(study, ratings),
        flagged, sum(item.adjudicated is not None for item in study.items), study.created_at,
    )  # fmt: skip


def study_info(db: Database, name: str) -> StudyInfo:
    with db.session() as session:
        return _info(session, find_study(session, name))


def list_studies(db: Database) -> list[StudyInfo]:
    with db.session() as session:
        return [_info(session, study) for study in session.scalars(select(St).order_by(St.id))]


def adjudicate(db: Database, name: str, trajectory_id: int, label: int | None, note: str, adjudicator: str) -> None:
    """Set (or, with None, clear) the final label of an item; it replaces the raters' consensus in the report."""
    if label is not None:
        check_level(label, "the adjudicated label")
    with db.session() as session:
        study = find_study(session, name)
        item = next((item for item in study.items if item.trajectory_id == trajectory_id), None)
        if item is None:
            raise LookupError(f"trajectory {trajectory_id} is not in study {name!r}")
        _refuse_pending_rater(study, _ratings(session, study), adjudicator, "adjudicate")
        item.adjudicated, item.adjudication_note = label, note.strip() or None
        item.adjudicator_id = ensure_person(session, adjudicator, "reviewer").id if label is not None else None
        item.adjudicated_at = utcnow() if label is not None else None
        session.commit()


def _refuse_pending_rater(
    study: models.Study, ratings: dict[int, dict[str, int]], viewer: str | None, what: str
) -> None:
    progress = _progress(study, ratings)
    if viewer is not None:
        mine = next((rater for rater in progress if rater.name == viewer), None)
        if mine is not None and not mine.finished:
            raise NotYetError(
                f"{viewer} is still rating study {study.name!r} ({mine.rated}/{mine.total}); finish first, then "
                f"{what}: until then the judge's and the other raters' scores stay hidden"
            )
        return
    pending = [f"{rater.name} {rater.rated}/{rater.total}" for rater in progress if not rater.finished]
    if pending:
        raise NotYetError(
            f"study {study.name!r} is still being rated ({', '.join(pending)}); to {what} now, say who you are "
            "(someone who is not rating it), so that no rater sees the judge's scores before finishing"
        )


def rated_items(db: Database, name: str, viewer: str | None) -> tuple[list[RatedItem], dict[str, int]]:
    """The study as the agreement module reads it (item = trajectory id), and the adjudicated labels."""
    with db.session() as session:
        study = find_study(session, name)
        ratings = _ratings(session, study)
        _refuse_pending_rater(study, ratings, viewer, "see the report")
        raters = [rater.person.name for rater in study.raters]
        items = [
            RatedItem(str(item.trajectory_id), item.judge_reward,
                      {rater: ratings.get(item.id, {}).get(rater) for rater in raters})
            for item in study.items
        ]  # fmt: skip
        adjudicated = {
            str(item.trajectory_id): item.adjudicated for item in study.items if item.adjudicated is not None
        }
        return items, adjudicated


def study_report(
    db: Database, name: str, viewer: str | None, *, tie_rule: TieRule = "median", seed: int = 0, n_boot: int = 2000
) -> AgreementReport:
    from annotator.judge.agreement import agreement_report  # scipy and friends load for a report, not before

    items, adjudicated = rated_items(db, name, viewer)
    return agreement_report(items, tie_rule=tie_rule, seed=seed, n_boot=n_boot, adjudicated=adjudicated)
