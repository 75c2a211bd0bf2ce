"""Dataset statistics in the shape of Mobile-R1 Tables 2 and 6."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from annotator.storage import models
from annotator.storage.database import Database

NO_ACTION = "(none)"


def _count(session, model) -> int:  # type: ignore[no-untyped-def]
    return session.scalar(select(func.count()).select_from(model)) or 0


def dataset_stats(db: Database) -> dict[str, Any]:
    """Counts of everything, steps per action (labelled action when there is one) and per app."""
    with db.session() as session:
        action = func.coalesce(models.Step.label_action, models.Step.raw_action)
        per_action = session.execute(select(action, func.count()).group_by(action)).all()
        per_app_steps = session.execute(
            select(models.App.name, func.count(models.Step.id))
            .join(models.Instruction, models.Instruction.app_id == models.App.id)
            .join(models.Trajectory, models.Trajectory.instruction_id == models.Instruction.id)
            .join(models.Step, models.Step.trajectory_id == models.Trajectory.id)
            .group_by(models.App.name)
        ).all()
        per_app_instructions = session.execute(
            select(models.App.name, func.count(models.Instruction.id))
            .join(models.Instruction, models.Instruction.app_id == models.App.id)
            .group_by(models.App.name)
        ).all()
        per_app_trajectories = session.execute(
            select(models.App.name, func.count(models.Trajectory.id))
            .join(models.Instruction, models.Instruction.app_id == models.App.id)
            .join(models.Trajectory, models.Trajectory.instruction_id == models.Instruction.id)
            .group_by(models.App.name)
        ).all()
        per_review = session.execute(
            select(models.Trajectory.review_status, func.count()).group_by(models.Trajectory.review_status)
        ).all()
        app_names = list(session.scalars(select(models.App.name).order_by(models.App.name)))
        totals = {
            "apps": _count(session, models.App),
            "instructions": _count(session, models.Instruction),
            "trajectories": _count(session, models.Trajectory),
            "steps": _count(session, models.Step),
        }
    steps_by_app = dict(per_app_steps)
    instructions_by_app = dict(per_app_instructions)
    trajectories_by_app = dict(per_app_trajectories)
    return {
        **totals,
        "steps_per_action": {name or NO_ACTION: n for name, n in sorted(per_action, key=lambda r: -r[1])},
        "steps_per_app": {name: steps_by_app.get(name, 0) for name in app_names},
        "trajectories_per_review_status": dict(per_review),
        "per_app": {
            name: {
                "instructions": instructions_by_app.get(name, 0),
                "trajectories": trajectories_by_app.get(name, 0),
                "steps": steps_by_app.get(name, 0),
            }
            for name in app_names
        },
    }
