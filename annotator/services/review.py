"""Review: the reviewers' queue, an annotator's own queue, and the decisions (accept, fix-and-accept, reject).

A decision is a ``Review`` row (who, when, status, comment); the newest one is mirrored in the trajectory's
``review_status``. Fix-and-accept is an accept whose comment says the reviewer edited the labels: the edits
themselves are label revisions written under the reviewer's name by ``annotation.Editor``.
"""

from __future__ import annotations

from datetime import datetime

from annotator.domain.trajectory import ReviewStatus
from annotator.services import team
from annotator.services.changes import Changes
from annotator.services.roles import REVIEW_ROLES, check_role
from annotator.storage import assignments
from annotator.storage.labels import set_review
from annotator.storage.reviews import QueueItem, steps_labelled_by
from annotator.storage.workspace import Workspace

FIXED_NOTE = "fixed by the reviewer"


def review_queue(workspace: Workspace) -> list[QueueItem]:
    """The first trajectories waiting for a reviewer that nobody holds (services.team.review_queue)."""
    return team.review_queue(workspace, None).items


def work_queue(workspace: Workspace, person: str) -> list[QueueItem]:
    """The first of an annotator's queue: their rejected work first (with the comment), then their work in
    progress, then what nobody has started; what others hold left out (services.team.work_queue)."""
    return team.work_queue(workspace, person).items


def own_steps(workspace: Workspace, trajectory_id: int, reviewer: str, before: datetime | None = None) -> int:
    """How many of the trajectory's steps the reviewer labelled themselves (before `before`, when given): accepting
    one's own labels is a self-review, which the app asks about first."""
    return steps_labelled_by(workspace.database, trajectory_id, reviewer.strip(), before)


def accept(
    workspace: Workspace, trajectory_id: int, reviewer: str, comment: str | None = None, fixed: bool = False
) -> Changes:
    if not reviewer.strip():
        raise ValueError("say who you are first: a review is saved under the reviewer's name")
    note = comment.strip() if comment and comment.strip() else None
    check_role(workspace.database, reviewer.strip(), REVIEW_ROLES, "accept trajectories")
    if fixed:
        note = f"{FIXED_NOTE}: {note}" if note else FIXED_NOTE
    set_review(workspace.database, trajectory_id, ReviewStatus.ACCEPTED, reviewer=reviewer.strip(), comment=note)
    assignments.finish(workspace.database, trajectory_id, (assignments.LABEL, assignments.REVIEW))  # work done
    return Changes.of([trajectory_id], review=True)


def reject(workspace: Workspace, trajectory_id: int, reviewer: str, comment: str) -> Changes:
    if not reviewer.strip():
        raise ValueError("say who you are first: a review is saved under the reviewer's name")
    if not comment or not comment.strip():
        raise ValueError("a rejection needs a comment that tells the annotator what to fix")
    who, note = reviewer.strip(), comment.strip()
    check_role(workspace.database, who, REVIEW_ROLES, "reject trajectories")
    set_review(workspace.database, trajectory_id, ReviewStatus.REJECTED, reviewer=who, comment=note)
    assignments.finish(workspace.database, trajectory_id, (assignments.REVIEW,))  # the label work comes back
    return Changes.of([trajectory_id], review=True)
