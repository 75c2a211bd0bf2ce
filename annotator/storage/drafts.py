"""Model drafts of steps' labels (`annotator.domain.drafts`): which steps to ask about, storing the answers, reading
them back with the steps, and the statistics of what people made of the drafts they accepted.

A step has at most one draft per model and prompt (the unique key `uq_step_drafts_step_model_prompt`); a draft is
stored with INSERT ... ON CONFLICT DO NOTHING, so two processes drafting the same steps at once both succeed and
the step keeps the first answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from annotator.domain.drafts import DRAFT_STAGES, Draft
from annotator.domain.reply_text import capped_optional
from annotator.domain.trajectory import TrajectoryStatus
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.writing import insert_skipping, writing

D, S, T, R = models.StepDraft, models.Step, models.Trajectory, models.LabelRevision
_IN_CHUNK = 500  # ids per IN (...) list: SQLite allows a few thousand parameters per statement


@dataclass(frozen=True)
class DraftTarget:
    """A step to draft: the trajectory it belongs to, and its place there."""

    trajectory_id: int
    step_id: int
    index: int


def draft_of(row: models.StepDraft) -> Draft:
    return Draft(
        id=row.id,
        model=row.model,
        prompt_name=row.prompt_name,
        think=row.think,
        action_text=row.action_text,
        tool_call=row.tool_call,
        matches_executed=bool(row.matches_executed),
        problem=row.problem,
        created_at=row.created_at,
        prompt_sha256=row.prompt_sha256,
        reply=row.reply,
    )


def _chunks(ids: Sequence[int]) -> Iterable[Sequence[int]]:
    for start in range(0, len(ids), _IN_CHUNK):
        yield ids[start : start + _IN_CHUNK]


def drafts_by_step(session: Session, step_ids: Sequence[int]) -> dict[int, tuple[Draft, ...]]:
    """The drafts of these steps, oldest first, by step id (steps without drafts are left out)."""
    found: dict[int, list[Draft]] = {}
    for chunk in _chunks(list(step_ids)):
        rows = session.scalars(select(D).where(D.step_id.in_(chunk)).order_by(D.created_at, D.id))
        for row in rows:
            found.setdefault(row.step_id, []).append(draft_of(row))
    return {step_id: tuple(drafts) for step_id, drafts in found.items()}


def step_draft(db: Database, step_id: int, draft_id: int) -> Draft:
    """One draft of one step; LookupError when the step has no draft with that id."""
    with db.session() as session:
        row = session.get(D, draft_id)
        if row is None or row.step_id != step_id:
            raise LookupError(f"step {step_id} has no draft {draft_id}")
        return draft_of(row)


def app_names(db: Database) -> list[str]:
    with db.session() as session:
        return list(session.scalars(select(models.App.name).order_by(models.App.name)))


def stored_trajectory_ids(db: Database, ids: Sequence[int]) -> set[int]:
    with db.session() as session:
        return set(session.scalars(select(T.id).where(T.id.in_(list(ids))))) if ids else set()


def steps_to_draft(db: Database, *, app: str | None = None, trajectory_ids: Sequence[int] = ()) -> list[DraftTarget]:
    """The steps nobody has labelled yet (no stage holds anything), as collected on the phone and kept, with an
    executed action to compare a draft with, of trajectories no longer being recorded; of `app` and of
    `trajectory_ids` when given. In trajectory and step order."""
    query = (
        select(S.trajectory_id, S.id, S.index)
        .join(T, S.trajectory_id == T.id)
        .where(
            S.origin.is_(None),
            S.removed.is_(False),
            S.raw_tool_call.is_not(None),
            S.think.is_(None),
            S.action_text.is_(None),
            S.tool_call.is_(None),
            T.status != TrajectoryStatus.COLLECTING.value,
        )
        .order_by(S.trajectory_id, S.index)
    )
    if app is not None:
        query = query.join(models.Instruction, T.instruction_id == models.Instruction.id).join(
            models.App, models.Instruction.app_id == models.App.id
        )
        query = query.where(models.App.name == app)
    if trajectory_ids:
        query = query.where(S.trajectory_id.in_(list(trajectory_ids)))
    with db.session() as session:
        return [DraftTarget(*row) for row in session.execute(query)]


def drafted_steps(db: Database, model: str, prompt_sha256: str, step_ids: Sequence[int]) -> set[int]:
    """Which of these steps have a draft by `model` with this prompt already."""
    found: set[int] = set()
    with db.session() as session:
        for chunk in _chunks(list(step_ids)):
            query = select(D.step_id).where(D.model == model, D.prompt_sha256 == prompt_sha256, D.step_id.in_(chunk))
            found.update(session.scalars(query))
    return found


def store_draft(db: Database, step_id: int, draft: Draft) -> bool:
    """Store a step's draft; False when the step already has one from this model and prompt (another process
    asked at the same time: its draft stays)."""
    values: dict[str, Any] = {
        "step_id": step_id,
        "model": draft.model,
        "prompt_name": draft.prompt_name,
        "prompt_sha256": draft.prompt_sha256,
        "think": capped_optional(draft.think),
        "action_text": capped_optional(draft.action_text),
        "tool_call": draft.tool_call,
        "matches_executed": draft.matches_executed,
        "problem": draft.problem,
        "reply": capped_optional(draft.reply),
        "created_at": models.utcnow(),  # a runaway reply: head and tail
    }
    with writing(db) as session:
        inserted = session.execute(insert_skipping(session, D).values(**values).returning(D.id)).scalar()
    return inserted is not None


# statistics -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TakenStage:
    """One stage a person took from a draft: the value the draft gave it, and the label's value now."""

    step_id: int
    stage: str
    accepted: Any
    now: Any


@dataclass(frozen=True)
class DraftCounts:
    drafts: int = 0
    matched: int = 0  # drafts whose action matched the executed one
    unreadable: int = 0  # replies that could not be read (flagged with a problem)
    steps_with_drafts: int = 0
    steps_with_matched_drafts: int = 0


def draft_counts(db: Database) -> DraftCounts:
    matched = D.matches_executed.is_(True) & D.problem.is_(None)
    with db.session() as session, session.begin():
        return DraftCounts(
            drafts=session.scalar(select(func.count()).select_from(D)) or 0,
            matched=session.scalar(select(func.count()).select_from(D).where(matched)) or 0,
            unreadable=session.scalar(select(func.count()).select_from(D).where(D.problem.is_not(None))) or 0,
            steps_with_drafts=session.scalar(select(func.count(func.distinct(D.step_id)))) or 0,
            steps_with_matched_drafts=session.scalar(select(func.count(func.distinct(D.step_id))).where(matched)) or 0,
        )


def taken_stages(db: Database) -> list[TakenStage]:
    """Each stage a person filled from a draft (its newest such revision), with what the label holds now."""
    query = (
        select(R.id, R.step_id, R.field, R.new_value, S.think, S.action_text, S.tool_call)
        .join(S, R.step_id == S.id)
        .where(R.draft_id.is_not(None), R.field.in_(DRAFT_STAGES))
        .order_by(R.id)
    )
    newest: dict[tuple[int, str], TakenStage] = {}
    with db.session() as session:
        for _id, step_id, stage, accepted, think, action_text, tool_call in session.execute(query):
            now = {"think": think, "action_text": action_text, "tool_call": tool_call}[stage]
            newest[(step_id, stage)] = TakenStage(step_id, stage, accepted, now)
    return list(newest.values())
