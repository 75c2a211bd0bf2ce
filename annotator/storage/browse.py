"""Read queries behind the trajectory browser: pages, counts, filter choices, "next to work on".

The browser shows 100,000 trajectories without loading them: it asks for one page at a time, keyed on
the last row it holds (keyset pagination on ``(sort key, id)``), so a page costs the same at row 90,000 as
at row 0 and rows recorded meanwhile by a collection run neither repeat nor vanish. Sorting and filtering
run in the database, never over rows in memory. Each call uses its own short session, so it may run on a
worker thread. No Qt here: the CLI or a script can page through trajectories the same way.

The judge score column and filter read one judge's scores (the newest that scored anything, unless the filter
names one). The trajectories in the filter's `hidden` (storage.studies.hidden_judging of whoever looks) show no
score, sort with the unscored and match no score filter, so that neither the column nor a filter or an order
tells their scores.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, and_, case, exists, func, literal, or_, select
from sqlalchemy.orm import aliased

from annotator.domain.trajectory import ReviewStatus, TrajectoryStatus
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.selection import AnySelect

T, Ins, A, S, R = models.Trajectory, models.Instruction, models.App, models.Step, models.LabelRevision
JS = models.JudgeScore
Collector = aliased(models.Person, name="collector")
Phone = models.Device

SORT_COLUMNS: tuple[str, ...] = (
    "id",
    "app",
    "instruction",
    "steps",
    "collector",
    "phone",
    "status",
    "outcome",
    "review",
    "labelled_by",
    "started",
    "judge_score",
)
UNSCORED = -1  # the judge score filter's value for "not scored"
Want = Literal["unlabelled", "review"]
# What "next unlabelled" / "next needing review" look for: a trajectory still being recorded is not work yet.
WANTED_REVIEW_STATE: dict[Want, str] = {"unlabelled": ReviewStatus.UNLABELLED, "review": ReviewStatus.ANNOTATED}


@dataclass(frozen=True)
class BrowseFilter:
    """What the browser narrows to; None or "" means "any"."""

    app_id: int | None = None
    status: str | None = None
    review_status: str | None = None
    collector_kind: str | None = None
    labelled_by: int | None = None  # a person id: trajectories where they wrote at least one label revision
    text: str = ""  # matched in the instruction and the steps' labelled think / action text
    judge_id: int | None = None  # whose scores the column shows and the score filter reads (None: the newest)
    judge_score: int | None = None  # 0-4: trajectories the judge scored so; UNSCORED: those it has no score for
    hidden: frozenset[int] = frozenset()  # trajectories whose judge results the person looking may not see


@dataclass(frozen=True)
class Sort:
    column: str = "id"
    descending: bool = False

    def __post_init__(self) -> None:
        if self.column not in SORT_COLUMNS:
            raise ValueError(f"cannot sort by {self.column!r}; sortable columns: {', '.join(SORT_COLUMNS)}")


@dataclass(frozen=True)
class TrajectoryRow:
    id: int
    app: str
    instruction: str
    steps: int
    collector_kind: str
    collector: str  # the agent's model or the person's name
    status: str
    outcome: str | None
    review_status: str
    labelled_by: tuple[str, ...]
    started_at: datetime
    judge_score: int | None = None  # the judge's usable score; None also when hidden
    judge_hidden: bool = False  # the person looking may not see it (a study they rate is still being rated)
    phone: str = ""  # the serial of the phone it was recorded on ("" for imported trajectories)


Cursor = tuple[Any, int]  # the last row's (sort key, id)


@dataclass(frozen=True)
class Page:
    rows: list[TrajectoryRow]
    cursor: Cursor | None  # pass back to get the next page; None when this was the last one


@dataclass(frozen=True)
class Summary:
    total: int  # every trajectory in the workspace
    shown: int  # those matching the filter
    unlabelled: int  # of the shown ones, how many wait for labels
    awaiting_review: int  # of the shown ones, how many are annotated and wait for a reviewer


@dataclass(frozen=True)
class Choices:
    """What the filter menus offer: (id, name) pairs in name order."""

    apps: list[tuple[int, str]] = field(default_factory=list)
    people: list[tuple[int, str]] = field(default_factory=list)
    judge: tuple[int, str] | None = None  # the newest judge that scored anything: (id, "prompt · model")


def _step_count() -> ColumnElement[int]:
    return select(func.count()).where(S.trajectory_id == T.id).correlate(T).scalar_subquery()


def _first_labeller() -> ColumnElement[str]:
    """The alphabetically first person who labelled a step: a sort key for a column that holds several names."""
    first = (
        select(func.min(models.Person.name))
        .select_from(R)
        .join(S, S.id == R.step_id)
        .join(models.Person, models.Person.id == R.person_id)
        .where(S.trajectory_id == T.id)
        .correlate(T)
        .scalar_subquery()
    )
    return func.coalesce(first, "")


def _judge_score(where: BrowseFilter) -> ColumnElement[Any]:
    """The score of the filter's judge (the newest one by default), NULL where there is none or it is hidden."""
    judge = literal(where.judge_id) if where.judge_id is not None else select(func.max(JS.config_id)).scalar_subquery()
    score = select(JS.reward).where(JS.trajectory_id == T.id, JS.config_id == judge).correlate(T).scalar_subquery()
    return case((T.id.in_(sorted(where.hidden)), None), else_=score) if where.hidden else score


def _sort_key(column: str, where: BrowseFilter) -> ColumnElement[Any]:
    """Never NULL, so that keyset comparisons hold on every backend."""
    if column == "judge_score":
        return func.coalesce(_judge_score(where), UNSCORED)  # a hidden score sorts with the unscored
    keys: dict[str, Any] = {
        "id": T.id,
        "app": A.name,
        "instruction": Ins.text,
        "steps": _step_count(),
        "collector": func.coalesce(Collector.name, T.agent_model, ""),
        "phone": func.coalesce(Phone.serial, ""),
        "status": T.status,
        "outcome": func.coalesce(T.outcome, ""),
        "review": T.review_status,
        "labelled_by": _first_labeller(),
        "started": T.started_at,
    }
    return keys[column]


def _matching(query: AnySelect, where: BrowseFilter) -> AnySelect:
    """The joins every browser query shares, narrowed by the filter."""
    query = query.join(Ins, Ins.id == T.instruction_id).join(A, A.id == Ins.app_id)
    conditions: list[ColumnElement[bool]] = []
    if where.app_id is not None:
        conditions.append(Ins.app_id == where.app_id)
    if where.status:
        conditions.append(T.status == where.status)
    if where.review_status:
        conditions.append(T.review_status == where.review_status)
    if where.collector_kind:
        conditions.append(T.collector_kind == where.collector_kind)
    if where.labelled_by is not None:
        conditions.append(
            exists().where(S.trajectory_id == T.id, R.step_id == S.id, R.person_id == where.labelled_by).correlate(T)
        )
    text = where.text.strip()
    if text:
        in_labels = exists().where(
            S.trajectory_id == T.id,
            or_(S.think.icontains(text, autoescape=True), S.action_text.icontains(text, autoescape=True)),
        )
        conditions.append(or_(Ins.text.icontains(text, autoescape=True), in_labels.correlate(T)))
    if where.judge_score == UNSCORED:  # a hidden score is not "no score" either: it matches no score filter
        conditions.append(_judge_score(where).is_(None))
        if where.hidden:
            conditions.append(T.id.not_in(sorted(where.hidden)))
    elif where.judge_score is not None:
        conditions.append(_judge_score(where) == where.judge_score)
    return query.where(*conditions)


def fetch_page(db: Database, where: BrowseFilter, sort: Sort, after: Cursor | None = None, limit: int = 200) -> Page:
    """Up to `limit` rows after the cursor, in sort order with the id breaking ties."""
    key = _sort_key(sort.column, where).label("sort_key")
    query = (
        _matching(
            select(
                T.id,
                A.name,
                Ins.text,
                _step_count(),
                T.collector_kind,
                func.coalesce(Collector.name, T.agent_model, ""),
                T.status,
                T.outcome,
                T.review_status,
                T.started_at,
                key,
                _judge_score(where),
                func.coalesce(Phone.serial, ""),
            ).select_from(T),
            where,
        )
        .outerjoin(Collector, Collector.id == T.collector_person_id)
        .outerjoin(Phone, Phone.id == T.device_id)
    )
    expression = _sort_key(sort.column, where)
    if after is not None:
        last_key, last_id = after
        if sort.descending:
            query = query.where(or_(expression < last_key, and_(expression == last_key, T.id < last_id)))
        else:
            query = query.where(or_(expression > last_key, and_(expression == last_key, T.id > last_id)))
    # Ordering by the selected label reuses its value instead of computing a subquery key twice per row.
    query = query.order_by(key.desc(), T.id.desc()) if sort.descending else query.order_by(key.asc(), T.id.asc())
    with db.session() as session:
        results = session.execute(query.limit(limit)).all()
        labellers = _labellers(session, [row[0] for row in results])
    rows = [
        TrajectoryRow(
            id=r[0],
            app=r[1],
            instruction=r[2],
            steps=r[3],
            collector_kind=r[4],
            collector=r[5],
            status=r[6],
            outcome=r[7],
            review_status=r[8],
            labelled_by=labellers.get(r[0], ()),
            started_at=r[9],
            judge_score=r[11],
            judge_hidden=r[0] in where.hidden,
            phone=r[12],
        )
        for r in results
    ]
    cursor = (results[-1][10], results[-1][0]) if len(results) == limit else None
    return Page(rows=rows, cursor=cursor)


def _labellers(session: Any, trajectory_ids: list[int]) -> dict[int, tuple[str, ...]]:
    """Who labelled each of these trajectories: one query for the page, not one per row."""
    if not trajectory_ids:
        return {}
    pairs = session.execute(
        select(S.trajectory_id, models.Person.name)
        .distinct()
        .join(R, R.step_id == S.id)
        .join(models.Person, models.Person.id == R.person_id)
        .where(S.trajectory_id.in_(trajectory_ids))
    ).all()
    names: dict[int, list[str]] = defaultdict(list)
    for trajectory_id, name in pairs:
        names[trajectory_id].append(name)
    return {trajectory_id: tuple(sorted(found)) for trajectory_id, found in names.items()}


def summarize(db: Database, where: BrowseFilter) -> Summary:
    """The counts above the table: all, matching, and the two work queues within the matching ones."""
    review = T.review_status
    query = _matching(
        select(
            func.count(),
            func.count().filter(review == ReviewStatus.UNLABELLED),
            func.count().filter(review == ReviewStatus.ANNOTATED),
        ).select_from(T),
        where,
    )
    with db.session() as session:
        total = session.scalar(select(func.count()).select_from(T)) or 0
        shown, unlabelled, awaiting = session.execute(query).one()
    return Summary(total=total, shown=shown, unlabelled=unlabelled, awaiting_review=awaiting)


def next_trajectory(
    db: Database, want: Want, where: BrowseFilter | None = None, after_id: int | None = None
) -> int | None:
    """The next trajectory to label or review within the filter, after `after_id` and wrapping around.

    The filter's own review state is replaced by the wanted one (asking for the next unlabelled trajectory
    while showing accepted ones means "of this app, this collector, ..."). Trajectories still being
    collected are skipped: their steps are not all there yet.
    """
    narrowed = replace(where or BrowseFilter(), review_status=WANTED_REVIEW_STATE[want])
    query = _matching(select(T.id).select_from(T), narrowed).where(T.status != TrajectoryStatus.COLLECTING)
    with db.session() as session:
        if after_id is not None:
            found = session.scalar(query.where(T.id > after_id).order_by(T.id).limit(1))
            if found is not None:
                return found
        return session.scalar(query.order_by(T.id).limit(1))


def filter_choices(db: Database) -> Choices:
    """Apps that have trajectories and people who labelled anything, for the filter menus."""
    with db.session() as session:
        apps = session.execute(
            select(A.id, A.name).where(exists().where(Ins.app_id == A.id, T.instruction_id == Ins.id)).order_by(A.name)
        ).all()
        people = session.execute(
            select(models.Person.id, models.Person.name)
            .where(exists().where(R.person_id == models.Person.id))
            .order_by(models.Person.name)
        ).all()
        newest = session.scalar(select(func.max(JS.config_id)))
        judge = session.get(models.JudgeConfig, newest) if newest is not None else None
    named = (judge.id, f"{judge.prompt_name} · {judge.model}") if judge is not None else None
    return Choices(apps=[(i, n) for i, n in apps], people=[(i, n) for i, n in people], judge=named)
