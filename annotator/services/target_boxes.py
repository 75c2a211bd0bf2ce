"""Fill in the target boxes suggested by stored UI hierarchies where steps have none (`annotator db upgrade`, and
the trajectories a bundle brings)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from annotator.device.hierarchy import hierarchy_box
from annotator.domain.target_box import SuggestedBox
from annotator.storage.target_boxes import fill_suggestions, unsuggested_steps
from annotator.storage.workspace import Workspace

BATCH = 500  # steps per write: a long backfill holds the write lock in short turns


def suggest_missing_boxes(
    workspace: Workspace,
    trajectory_ids: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Suggest a box for each collected coordinate step whose hierarchy holds a clickable element under its
    point; how many steps got one."""
    pending = unsuggested_steps(workspace.database, trajectory_ids)
    filled = 0
    for start in range(0, len(pending), BATCH):
        found: dict[int, SuggestedBox] = {}
        for step in pending[start : start + BATCH]:
            xml = (
                workspace.blobs.read_bytes(step.hierarchy_sha256)
                if workspace.blobs.exists(step.hierarchy_sha256)
                else None
            )
            suggestion = hierarchy_box(xml, step.tool_call)
            if suggestion is not None:
                found[step.step_id] = suggestion
        filled += fill_suggestions(workspace.database, found)
        if progress:
            progress(min(start + BATCH, len(pending)), len(pending))
    return filled
