"""Validation studies of a judge: create one (a stratified sample, its raters, the rubric), follow it, adjudicate
items without a majority, and report the judge's agreement with the human consensus.

Blindness: while a study is open (some rater has not scored every item) none of its raters gets its report (it
shows the judge's scores and the other raters'), finished or not; the rating itself goes through
annotator.services.blind_rating, which never reads a judge score. Which trajectories' judge results a person may
not see elsewhere is storage.studies.hidden_judging; who asks on the command line, storage.studies.person_asking
(a name given there must be someone the workspace knows).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from annotator.domain.judge_settings import rubric_text
from annotator.judge.agreement_consensus import RatedItem, TieRule, check_level, consensus
from annotator.judge.sampling import Candidate, stratified_sample
from annotator.services.roles import REVIEW_ROLES, check_acting, check_role
from annotator.storage import studies as stored
from annotator.storage.database import Database
from annotator.storage.people import person_names
from annotator.storage.studies import HiddenJudging, StoredStudy, StudyNameTaken

if TYPE_CHECKING:
    from annotator.judge.agreement import AgreementReport


class StudyError(ValueError):
    """A study request that cannot be done as asked; the message says why and what to do."""


class NotYetError(PermissionError):
    """What was asked would show a rater still rating the judge's or the other raters' scores."""


def stratum(study: StoredStudy, item: stored.StoredItem) -> int:
    """The judge's score an item was sampled at; NotYetError where the database hides it from this login (a rater
    of the study while it is open)."""
    if item.judge_reward is None:
        raise NotYetError(
            f"the judge's scores of study {study.name!r} are hidden from your login until every rater has finished"
        )
    return item.judge_reward


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
    show_differences_early: bool = False  # a rater who finished sees their differences before the others finish

    @property
    def finished(self) -> bool:
        return all(rater.finished for rater in self.raters)

    def rater(self, name: str) -> RaterProgress | None:
        return next((rater for rater in self.raters if rater.name == name), None)

    def differences_for(self, name: str) -> bool:
        """May rater `name` see where they and the judge differ now: after every rater finished, or, when the
        owner chose so at creation, as soon as they themselves did."""
        mine = self.rater(name)
        return mine is not None and mine.finished and (self.finished or self.show_differences_early)


def order_seed(seed: int, rater: str) -> int:
    """Where a rater's own shuffled order of a study's items starts (one per study seed and rater)."""
    return random.Random(f"{seed}:{rater}").randrange(2**31)


def known_people(db: Database) -> list[str]:
    """The names a study may take as raters: everyone on the workspace's list of people."""
    return person_names(db)


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
    show_differences_early: bool = False,
) -> StudyInfo:
    """Sample `size` trajectories scored by judge `judge_id`, stratified by its levels (and apps). The raters must be
    people the workspace knows (known_people), else UnknownRaters and nothing is written.
    `show_differences_early`: a rater who finished sees their differences from the judge at once, rather than
    when every rater has finished."""
    names = [rater.strip() for rater in raters if rater.strip()]
    if not name.strip():
        raise StudyError("a study needs a name")
    if created_by:
        check_acting(db, created_by)  # on a team database the creator is the login's person, not a typed name
    if not names or len(set(names)) != len(names):
        raise StudyError(f"a study needs one or more raters, each named once (got {raters})")
    prompt = stored.judge_prompt(db, judge_id)
    candidates = [Candidate(item.trajectory_id, item.judge_reward, item.app) for item in stored.scored_by(db, judge_id)]
    if not candidates:
        raise StudyError(f"judge {judge_id} has scored no trajectory yet; run `annotator judge run` first")
    sample = stratified_sample(candidates, size, seed, by_app=by_app)
    try:
        study = stored.insert_study(
            db,
            name.strip(),
            judge_id,
            seed=seed,
            size=size,
            by_app=by_app,
            rubric=rubric or rubric_text(prompt),
            created_by=created_by,
            items=[stored.NewItem(c.trajectory_id, c.level, c.app) for c in sample],
            raters=[(rater, order_seed(seed, rater)) for rater in names],
            show_differences_early=show_differences_early,
        )
    except StudyNameTaken as error:
        raise StudyError(str(error)) from None
    return _info(study)


def progress(study: StoredStudy) -> tuple[RaterProgress, ...]:
    """Each rater's count of rated items."""
    counts = Counter(rater for scores in study.ratings.values() for rater in scores)
    return tuple(RaterProgress(rater.name, counts[rater.name], len(study.items)) for rater in study.raters)


def _info(study: StoredStudy) -> StudyInfo:
    ratings, raters = study.ratings, len(study.raters)
    flagged = sum(
        1
        for item in study.items
        if item.adjudicated is None
        and len(ratings.get(item.id, {})) == raters
        and consensus(ratings[item.id].values()).flagged
    )
    return StudyInfo(
        study.id,
        study.name,
        study.config_id,
        study.judge,
        study.seed,
        len(study.items),
        study.sample_size,
        study.by_app,
        dict(sorted(Counter(i.judge_reward for i in study.items if i.judge_reward is not None).items())),
        progress(study),
        flagged,
        sum(item.adjudicated is not None for item in study.items),
        study.created_at,
        study.show_differences_early,
    )


def study_info(db: Database, name: str) -> StudyInfo:
    return _info(stored.load_study(db, name))


def list_studies(db: Database) -> list[StudyInfo]:
    return [_info(study) for study in stored.load_studies(db)]


def adjudicate(db: Database, name: str, trajectory_id: int, label: int | None, note: str, adjudicator: str) -> None:
    """Set (or, with None, clear) the final label of an item; it replaces the raters' consensus in the report."""
    if label is not None:
        check_level(label, "the adjudicated label")
    study = stored.load_study(db, name)
    item = next((item for item in study.items if item.trajectory_id == trajectory_id), None)
    if item is None:
        raise LookupError(f"trajectory {trajectory_id} is not in study {name!r}")
    refuse_pending_rater(study, adjudicator, "adjudicate")
    check_role(db, adjudicator, REVIEW_ROLES, "adjudicate study items")
    stored.set_adjudication(db, study.id, item.id, label, note.strip() or None, adjudicator)


def refuse_pending_rater(study: StoredStudy, viewer: str | None, what: str) -> None:
    """NotYetError while the study is open and `viewer` rates it (finished or not: nobody sees the others' or the
    judge's scores before every rater has given theirs), or is unnamed."""
    found = progress(study)
    pending = [f"{rater.name} {rater.rated}/{rater.total}" for rater in found if not rater.finished]
    if not pending:
        return
    if viewer is None:
        raise NotYetError(
            f"study {study.name!r} is still being rated ({', '.join(pending)}); to {what} now, say who you are "
            "(someone who is not rating it), so that no rater sees the judge's scores before every rater finished"
        )
    mine = next((rater for rater in found if rater.name == viewer), None)
    if mine is not None:
        done = f"{viewer} has rated all {mine.total} items" if mine.finished else f"{viewer} is still rating"
        raise NotYetError(
            f"{done} of study {study.name!r}, which is still being rated ({', '.join(pending)}); a rater may "
            f"{what} once every rater has finished: until then the judge's and the other raters' scores stay hidden"
        )


def hidden_judging(db: Database, person: str | None) -> HiddenJudging:
    """Which trajectories' judge results are hidden from `person` (storage.studies.hidden_judging: the rule)."""
    return stored.hidden_judging(db, person)


def rated_items(db: Database, name: str, viewer: str | None) -> tuple[list[RatedItem], dict[str, int]]:
    """The study as the agreement module reads it (item = trajectory id), and the adjudicated labels."""
    study = stored.load_study(db, name)
    refuse_pending_rater(study, viewer, "see the report")
    raters = [rater.name for rater in study.raters]
    items = [
        RatedItem(
            str(item.trajectory_id),
            stratum(study, item),
            {rater: study.ratings.get(item.id, {}).get(rater) for rater in raters},
        )
        for item in study.items
    ]
    adjudicated = {str(item.trajectory_id): item.adjudicated for item in study.items if item.adjudicated is not None}
    return items, adjudicated


def study_report(
    db: Database, name: str, viewer: str | None, *, tie_rule: TieRule = "median", seed: int = 0, n_boot: int = 2000
) -> AgreementReport:
    from annotator.judge.agreement import agreement_report  # scipy and friends load for a report, not before

    items, adjudicated = rated_items(db, name, viewer)
    return agreement_report(items, tie_rule=tie_rule, seed=seed, n_boot=n_boot, adjudicated=adjudicated)
