"""What ``annotator stats`` reports: the workspace in the shape of Mobile-R1 Tables 2 and 6.

Counted by the module the statistics view and ``trainer-bridge stats`` use (``annotator.storage.statistics``,
where the definitions are). By default as the paper counts its dataset: the accepted trajectories, their
annotated steps, and the apps and instructions they come from. Counting every row instead, the apps and
instructions are the whole stored pool, run or not (``annotator.storage.workspace_statistics``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from annotator.domain.counting import Counting
from annotator.services.draft_stats import draft_stats
from annotator.storage.database import Database

if TYPE_CHECKING:
    import pandas as pd

NO_ACTION = "(none)"


def dataset_stats(db: Database, counting: Counting = Counting.PAPER) -> dict[str, Any]:
    """Counts of apps, instructions, trajectories and steps, steps per action (the labelled action when there is
    one) and per app, as `counting` says (its description is in the result)."""
    # Imported here: pandas loads when something is counted, not with every command of the CLI.
    from annotator.storage.workspace_statistics import load_counts

    counts = load_counts(db, counting)
    shape = counts.shape
    if counting is Counting.ROWS:
        per_app = _every_app(counts.pool, shape.per_app)
    else:
        per_app = {
            row.app: {
                "instructions": int(row.instructions),
                "trajectories": int(row.trajectories),
                "steps": int(row.steps),
            }
            for row in shape.per_app.itertuples(index=False)
        }
    actions = shape.actions
    return {
        "counting": str(counting),
        "counted": counting.description,
        "apps": len(per_app),
        "instructions": sum(row["instructions"] for row in per_app.values()),
        "trajectories": shape.totals.trajectories,
        "steps": shape.totals.steps,
        "steps_per_action": {
            action or NO_ACTION: int(steps) for action, steps in zip(actions["action"], actions["steps"], strict=True)
        },
        "steps_per_app": {app: row["steps"] for app, row in per_app.items()},
        "trajectories_per_review_status": {status: int(n) for status, n in counts.review.itertuples(index=False)},
        "per_app": per_app,
        "drafts": draft_stats(db),  # every draft and label revision, whatever `counting` says
    }


def _every_app(pool: pd.DataFrame, run: pd.DataFrame) -> dict[str, dict[str, int]]:
    """Every stored app by name: its instructions (run or not), and the trajectories and steps of those run."""
    runs = run.set_index("app")
    return {
        app: {
            "instructions": int(instructions),
            "trajectories": int(runs["trajectories"].get(app, 0)),
            "steps": int(runs["steps"].get(app, 0)),
        }
        for app, instructions in pool.itertuples(index=False)
    }
