"""Refuse any flush that would change a step's raw (collected) part.

What was collected is never overwritten (docs/architecture.md#the-data-model): labels are
separate columns, so a change to a raw column of a stored step is a bug. The one
exception is derived, not collected: a suggested target box may be filled in where
a step has none yet (steps recorded before suggestions existed), never replaced.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

from annotator.storage.models import RAW_STEP_COLUMNS, Step

FILLABLE_COLUMNS = ("suggested_box", "suggested_box_source")


class RawStepChangedError(RuntimeError):
    pass


@event.listens_for(Session, "before_flush")
def _refuse_raw_step_changes(session: Session, _context, _instances) -> None:
    for obj in session.dirty:
        if not isinstance(obj, Step):
            continue
        state = inspect(obj)
        changed = [
            name
            for name in RAW_STEP_COLUMNS
            if state.attrs[name].history.has_changes() and not _filled_in(name, state.attrs[name].history)
        ]
        if changed:
            raise RawStepChangedError(
                f"step {obj.id}: the collected part ({', '.join(changed)}) is immutable; edit the label instead"
            )
    for obj in session.deleted:
        if isinstance(obj, Step):
            raise RawStepChangedError(f"step {obj.id}: collected steps are never deleted")


def _filled_in(name: str, history: Any) -> bool:
    """A suggested box (or its source) set where the step had none."""
    return name in FILLABLE_COLUMNS and all(old is None for old in history.deleted)
