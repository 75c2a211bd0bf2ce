"""Refuse any flush that would change a step's raw (collected) part.

What was collected is never overwritten (DESIGN.md section 3): labels are
separate columns, so a change to a raw column of a stored step is a bug.
"""

from __future__ import annotations

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

from annotator.storage.models import RAW_STEP_COLUMNS, Step


class RawStepChangedError(RuntimeError):
    pass


@event.listens_for(Session, "before_flush")
def _refuse_raw_step_changes(session: Session, _context, _instances) -> None:
    for obj in session.dirty:
        if not isinstance(obj, Step):
            continue
        state = inspect(obj)
        changed = [name for name in RAW_STEP_COLUMNS if state.attrs[name].history.has_changes()]
        if changed:
            raise RawStepChangedError(
                f"step {obj.id}: the collected part ({', '.join(changed)}) is immutable; edit the label instead"
            )
    for obj in session.deleted:
        if isinstance(obj, Step):
            raise RawStepChangedError(f"step {obj.id}: collected steps are never deleted")
