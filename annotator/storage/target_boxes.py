"""A step's suggested target box as its columns, and suggestions filled in after the fact: steps recorded with a UI
hierarchy before suggestions existed (an older workspace, an older bundle). The suggestion itself is worked out
above storage (device.hierarchy). No imaging here: `annotator db` commands import this and stay light."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from annotator.domain.target_box import COORDINATE_ACTIONS, SuggestedBox
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.writing import writing


def suggestion_columns(suggestion: SuggestedBox | None) -> dict[str, Any]:
    """A suggested target box as the step's columns."""
    if suggestion is None:
        return {"suggested_box": None, "suggested_box_source": None}
    return {"suggested_box": suggestion.box.as_list(), "suggested_box_source": suggestion.source}


@dataclass(frozen=True)
class UnsuggestedStep:
    step_id: int
    hierarchy_sha256: str
    tool_call: dict[str, Any]


def unsuggested_steps(db: Database, trajectory_ids: Sequence[int] | None = None) -> list[UnsuggestedStep]:
    """Collected coordinate steps with a stored hierarchy and no suggested box (maybe none can be found)."""
    Step = models.Step
    query = select(Step.id, Step.hierarchy_sha256, Step.raw_tool_call).where(
        Step.suggested_box.is_(None),
        Step.hierarchy_sha256.is_not(None),
        Step.origin.is_(None),
        Step.raw_action.in_(COORDINATE_ACTIONS),
    )
    if trajectory_ids is not None:
        query = query.where(Step.trajectory_id.in_(list(trajectory_ids)))
    with db.session() as session:
        return [UnsuggestedStep(*row) for row in session.execute(query.order_by(Step.id))]


def fill_suggestions(db: Database, suggestions: dict[int, SuggestedBox]) -> int:
    """Set the suggested box of steps that have none (one that got one meanwhile keeps it); how many were set."""
    filled = 0
    with writing(db) as session:
        for step_id, suggestion in suggestions.items():
            step = session.get(models.Step, step_id)
            if step is not None and step.suggested_box is None:
                for name, value in suggestion_columns(suggestion).items():
                    setattr(step, name, value)
                filled += 1
    return filled
