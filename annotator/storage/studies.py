"""Validation studies as stored: a study with its items, raters and ratings, read in one snapshot, and the
writes that create a study, rate an item and adjudicate one. The rules of consensus and sampling are the
services' (annotator.services.studies, annotator.services.blind_rating).

One rule lives here, because every reader of judge results needs it, the trainer bridge too (which may not
import the services): which trajectories' judge results are hidden from a person (`hidden_judging`). A study
is open while some rater has not scored every item; its raters, finished or not, see no judge score or reason
of its trajectories anywhere (trajectory list, judge view, review, bundles, statistics filtered by score) until
it closes. Someone who has not said who they are is treated as a possible rater of every open study.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.strategy_options import _AbstractLoad

from annotator.domain.names import closest_name
from annotator.storage import logins, models
from annotator.storage.collection import ensure_person
from annotator.storage.database import Database
from annotator.storage.failures import NotPermitted
from annotator.storage.models import utcnow

St, It, Ra, Rt = models.Study, models.StudyItem, models.StudyRater, models.StudyRating
PERSON_ENV = "ANNOTATOR_PERSON"  # who runs a command, when it has no --as


class StudyNameTaken(ValueError):
    """A study of that name exists already."""


class UnknownRaters(LookupError):
    """Raters who are not on the workspace's list of people: a typo would add a rater who never rates, and the
    study would never finish. The message names each, with the known name it most likely misspells."""

    def __init__(self, unknown: Sequence[str], known: Sequence[str]) -> None:
        self.unknown = tuple(unknown)
        named = []
        for name in self.unknown:
            likely = closest_name(name, known)
            named.append(f"{name!r} (did you mean {likely!r}?)" if likely else repr(name))
        super().__init__(
            f"unknown rater{'s' if len(named) > 1 else ''} {', '.join(named)}: a rater must be on the workspace's "
            "list of people; add them first with `annotator people add NAME --role annotator`"
        )


@dataclass(frozen=True)
class StoredItem:
    id: int
    trajectory_id: int
    position: int
    judge_reward: int | None  # the judge's score when it was sampled (its stratum); None: hidden from this login
    app: str
    adjudicated: int | None


@dataclass(frozen=True)
class StoredRater:
    id: int
    name: str
    order_seed: int


@dataclass(frozen=True)
class StoredStudy:
    id: int
    name: str
    config_id: int
    judge: str  # the judge's prompt and model, for people
    seed: int
    sample_size: int  # the size asked for
    by_app: bool
    rubric: str
    created_at: datetime
    items: tuple[StoredItem, ...]  # in sampling order
    raters: tuple[StoredRater, ...]
    ratings: dict[int, dict[str, int]]  # item id -> rater name -> score
    show_differences_early: bool = False  # the owner's choice: a rater who finished sees their differences at once


@dataclass(frozen=True)
class NewItem:
    trajectory_id: int
    judge_reward: int
    app: str


def _ratings(session: Session, study_id: int) -> dict[int, dict[str, int]]:
    rows = session.execute(
        select(Rt.item_id, models.Person.name, Rt.score)
        .join(Ra, Ra.id == Rt.rater_id)
        .join(models.Person, models.Person.id == Ra.person_id)
        .join(It, It.id == Rt.item_id)
        .where(It.study_id == study_id)
    )
    found: dict[int, dict[str, int]] = {}
    for item, rater, score in rows:
        found.setdefault(item, {})[rater] = score
    return found


def strata(session: Session, item_ids: Iterable[int]) -> dict[int, int | None]:
    """Each item's stratum, the judge's score when it was sampled; None where a team database hides it from this
    login (a rater of the open study)."""
    view = models.STUDY_ITEM_STRATA
    wanted = list(item_ids)
    if not wanted:
        return {}
    rows = session.execute(select(view.c.item_id, view.c.judge_reward).where(view.c.item_id.in_(wanted)))
    return {item_id: reward for item_id, reward in rows}


def _stored(session: Session, study: models.Study) -> StoredStudy:
    judge = session.get(models.JudgeConfig, study.config_id)
    reward = strata(session, (i.id for i in study.items))
    return StoredStudy(
        study.id,
        study.name,
        study.config_id,
        f"{judge.prompt_name} · {judge.model}" if judge else "?",
        study.seed,
        study.sample_size,
        study.by_app,
        study.rubric,
        study.created_at,
        tuple(
            StoredItem(i.id, i.trajectory_id, i.position, reward.get(i.id), i.app, i.adjudicated) for i in study.items
        ),
        tuple(StoredRater(r.id, r.person.name, r.order_seed) for r in study.raters),
        _ratings(session, study.id),
        study.show_differences_early,
    )


def _loading() -> tuple[_AbstractLoad, ...]:
    return (selectinload(St.items), selectinload(St.raters).selectinload(Ra.person))


def load_study(db: Database, name: str) -> StoredStudy:
    with db.session() as session:
        study = session.scalar(select(St).where(St.name == name).options(*_loading()))
        if study is None:
            known = ", ".join(session.scalars(select(St.name).order_by(St.id))) or "none yet"
            raise LookupError(f"no study named {name!r} (studies: {known})")
        return _stored(session, study)


def load_studies(db: Database) -> list[StoredStudy]:
    with db.session() as session:
        return [_stored(session, study) for study in session.scalars(select(St).order_by(St.id).options(*_loading()))]


def judge_prompt(db: Database, judge_id: int) -> str:
    with db.session() as session:
        judge = session.get(models.JudgeConfig, judge_id)
        if judge is None:
            raise LookupError(f"no judge {judge_id}; `annotator judge list` shows them")
        return judge.prompt_text


def scored_by(db: Database, judge_id: int) -> list[NewItem]:
    """Every trajectory the judge gave a usable score, with its app: what a study samples from."""
    S, T, Ins, A = models.JudgeScore, models.Trajectory, models.Instruction, models.App
    query = (
        select(S.trajectory_id, S.reward, A.name)
        .join(T, T.id == S.trajectory_id)
        .join(Ins, Ins.id == T.instruction_id)
        .join(A, A.id == Ins.app_id)
        .where(S.config_id == judge_id, S.reward.is_not(None))
    )
    with db.session() as session:
        rows = session.execute(query)
        return [NewItem(trajectory, reward, app) for trajectory, reward, app in rows if reward is not None]


def insert_study(
    db: Database,
    name: str,
    judge_id: int,
    *,
    seed: int,
    size: int,
    by_app: bool,
    rubric: str,
    created_by: str | None,
    items: Sequence[NewItem],
    raters: Sequence[tuple[str, int]],
    show_differences_early: bool = False,
) -> StoredStudy:
    """Write a study with its sampled items (in order) and its raters (name, order seed). The raters must be on the
    list of people (UnknownRaters, and nothing written, when one is not)."""
    with db.session() as session:
        rater_ids = _rater_ids(session, [rater for rater, _seed in raters])
        creator = ensure_person(session, created_by, "reviewer").id if created_by else None
        study = St(
            name=name,
            config_id=judge_id,
            seed=seed,
            sample_size=size,
            by_app=by_app,
            rubric=rubric,
            created_by_id=creator,
            show_differences_early=show_differences_early,
        )
        study.items = [
            It(trajectory_id=item.trajectory_id, position=n, judge_reward=item.judge_reward, app=item.app)
            for n, item in enumerate(items)
        ]
        study.raters = [Ra(person_id=rater_ids[rater], order_seed=order_seed) for rater, order_seed in raters]
        session.add(study)
        try:
            session.commit()
        except IntegrityError:
            raise StudyNameTaken(f"a study named {name!r} exists already; choose another name") from None
        return _stored(session, study)


def _rater_ids(session: Session, names: Sequence[str]) -> dict[str, int]:
    """name -> person id of each rater; UnknownRaters when the list lacks any of them."""
    P = models.Person
    found = {name: id_ for name, id_ in session.execute(select(P.name, P.id).where(P.name.in_(names)))}
    unknown = [name for name in names if name not in found]
    if unknown:
        raise UnknownRaters(unknown, session.scalars(select(P.name)).all())
    return found


def set_adjudication(
    db: Database, study_id: int, item_id: int, label: int | None, note: str | None, adjudicator: str
) -> None:
    """Set (or, with None, clear) an item's final label, by whom and when."""
    with db.session() as session, session.begin():
        item = session.get(It, item_id)
        if item is None or item.study_id != study_id:
            raise LookupError(f"item {item_id} is not in study {study_id}")
        item.adjudicated, item.adjudication_note = label, note
        item.adjudicator_id = ensure_person(session, adjudicator, "reviewer").id if label is not None else None
        item.adjudicated_at = utcnow() if label is not None else None


def rater_ratings(db: Database, rater_id: int) -> dict[int, tuple[int, str | None]]:
    """One rater's ratings: item id -> (score, note)."""
    with db.session() as session:
        return {
            row.item_id: (row.score, row.note) for row in session.scalars(select(Rt).where(Rt.rater_id == rater_id))
        }


def save_rating(db: Database, item_id: int, rater_id: int, score: int, note: str | None) -> None:
    """Store, or change, one rater's score of one item."""
    with db.session() as session, session.begin():
        row = session.scalar(select(Rt).where(Rt.item_id == item_id, Rt.rater_id == rater_id))
        if row is None:
            session.add(Rt(item_id=item_id, rater_id=rater_id, score=score, note=note))
        else:
            row.score, row.note, row.updated_at = score, note, utcnow()


def judge_reasons(db: Database, judge_id: int, trajectory_ids: Sequence[int]) -> dict[int, str | None]:
    S = models.JudgeScore
    query = select(S.trajectory_id, S.reason).where(S.config_id == judge_id, S.trajectory_id.in_(trajectory_ids))
    with db.session() as session:
        return {trajectory_id: reason for trajectory_id, reason in session.execute(query)}


def instruction_texts(db: Database, trajectory_ids: Sequence[int]) -> dict[int, str]:
    T, Ins = models.Trajectory, models.Instruction
    query = select(T.id, Ins.text).join(Ins, Ins.id == T.instruction_id).where(T.id.in_(trajectory_ids))
    with db.session() as session:
        return {trajectory_id: text for trajectory_id, text in session.execute(query)}


# who may see judge results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenStudy:
    """A study some rater has not finished: its name, its trajectories and its raters."""

    name: str
    trajectory_ids: frozenset[int]
    raters: tuple[str, ...]


@dataclass(frozen=True)
class HiddenJudging:
    """The trajectories whose judge results (scores, reasons) a person must not see, and the open studies that
    hide them. Empty (false) when nothing is hidden."""

    person: str | None  # None: nobody said who they are
    studies: tuple[OpenStudy, ...] = ()

    @property
    def trajectory_ids(self) -> frozenset[int]:
        return frozenset().union(*(study.trajectory_ids for study in self.studies))

    @property
    def study_names(self) -> tuple[str, ...]:
        return tuple(study.name for study in self.studies)

    def __contains__(self, trajectory_id: object) -> bool:
        return any(trajectory_id in study.trajectory_ids for study in self.studies)

    def __bool__(self) -> bool:
        return any(study.trajectory_ids for study in self.studies)

    def hidden_of(self, trajectory_ids: Iterable[int]) -> set[int]:
        return {trajectory_id for trajectory_id in trajectory_ids if trajectory_id in self}

    def why(self) -> str:
        """For a command's note: "小王 rates '试点', which is still being rated"."""
        names = ", ".join(repr(name) for name in self.study_names)
        verb = "is" if len(self.studies) == 1 else "are"
        if self.person is None:
            return f"nobody said who asks (--as NAME), and {names} {verb} still being rated"
        return f"{self.person} rates {names}, which {verb} still being rated"


def open_studies(db: Database) -> list[OpenStudy]:
    """Every study that some rater has not finished (scored each of its items)."""
    rated = (
        select(Ra.study_id, models.Person.name, func.count(Rt.id))
        .join(models.Person, models.Person.id == Ra.person_id)
        .outerjoin(Rt, Rt.rater_id == Ra.id)
        .group_by(Ra.id, Ra.study_id, models.Person.name)
        .order_by(Ra.id)
    )
    with db.session() as session:
        names = dict(session.execute(select(St.id, St.name)).all())
        items: dict[int, set[int]] = {}
        for study_id, trajectory_id in session.execute(select(It.study_id, It.trajectory_id)):
            items.setdefault(study_id, set()).add(trajectory_id)
        progress: dict[int, list[tuple[str, int]]] = {}
        for study_id, rater, count in session.execute(rated):
            progress.setdefault(study_id, []).append((rater, int(count)))
    found = []
    for study_id, name in sorted(names.items()):
        total, raters = len(items.get(study_id, ())), progress.get(study_id, [])
        if any(count < total for _rater, count in raters):
            found.append(OpenStudy(name, frozenset(items[study_id]), tuple(rater for rater, _count in raters)))
    return found


def hidden_judging(db: Database, person: str | None) -> HiddenJudging:
    """Which trajectories' judge results are hidden from `person`: those of every open study they rate (finished
    with it or not: nobody's scores are seen before every rater has given theirs); for None, someone who has not
    said who they are, those of every open study. The owner's early-differences option shows a finished rater
    their own differences in the Studies view (annotator.services.blind_rating), and nothing else."""
    studies = tuple(study for study in open_studies(db) if person is None or person in study.raters)
    return HiddenJudging(person, studies)


def is_known_person(db: Database, name: str) -> bool:
    with db.session() as session:
        return session.scalar(select(models.Person.id).where(models.Person.name == name)) is not None


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (some containers)
        return ""


def person_asking(db: Database, named: str | None) -> str | None:
    """Who runs a command: `named` (its --as), else the ANNOTATOR_PERSON variable, else the login name (what the
    desktop app suggests at first start) when someone of that name works here; None when nobody is known. A name
    given (option or variable) must be someone who works here, else LookupError: an invented name would pass
    for someone who is not rating."""
    given = (named or "").strip() or os.environ.get(PERSON_ENV, "").strip()
    found = logins.verified(db)
    if found is not None:  # a team database's login says who asks; a name may only repeat it
        if given and given != found.person:
            raise NotPermitted(
                f"you are connected as {found.login}, which is {found.person or 'nobody'}'s login on this "
                f"workspace: you cannot ask as {given}"
            )
        return found.person
    if given:
        if not is_known_person(db, given):
            raise LookupError(
                f"nobody called {given!r} works in this workspace; name a person it knows "
                f"(--as or {PERSON_ENV}): who labelled, reviewed, rated or created a study"
            )
        return given
    login = _login_name()
    return login if login and is_known_person(db, login) else None


def trajectory_uids(db: Database, trajectory_ids: Iterable[int]) -> dict[int, str]:
    """id -> uid: a bundle names trajectories by uid."""
    wanted = sorted(set(trajectory_ids))
    if not wanted:
        return {}
    T = models.Trajectory
    with db.session() as session:
        return dict(session.execute(select(T.id, T.uid).where(T.id.in_(wanted))).all())
