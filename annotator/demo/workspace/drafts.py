"""The demo's model drafts: one trajectory that waits for an annotator gets drafts from the scripted endpoint, as a
team would pre-annotate new work (`annotator draft`), so the Annotate view shows a draft to accept out of the box."""

from __future__ import annotations

from collections.abc import Sequence

from annotator.demo.phone.scripted_endpoint import MODEL, ScriptedEndpoint
from annotator.demo.workspace.labels import ToLabel
from annotator.domain.trajectory import ReviewStatus
from annotator.services.drafting import draft_steps
from annotator.storage.workspace import Workspace


def draft_one_unlabelled(workspace: Workspace, items: Sequence[ToLabel], reviews: Sequence[ReviewStatus]) -> int:
    """Drafts for the steps of the first trajectory nobody labelled; how many steps got one (0 when every
    trajectory is labelled)."""
    waiting = [
        item.trajectory_id for item, review in zip(items, reviews, strict=True) if review == ReviewStatus.UNLABELLED
    ]
    if not waiting:
        return 0
    with ScriptedEndpoint() as endpoint:
        summary = draft_steps(workspace, base_url=endpoint.base_url, model=MODEL, trajectory_ids=waiting[:1])
    return summary.kept + summary.flagged
