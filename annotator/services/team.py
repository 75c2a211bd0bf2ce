"""A team's work: the list of people and their roles, assignments (admin only), and each person's queue.

The rules (who may, what a role is, what happens before a workspace has an admin) are in services.roles and
docs/adr/0008-people-and-roles.md. An assignment gives a person trajectories or an app's instructions (its
instruction set) to label or to review, or a study to rate; it is done when a reviewer accepts the trajectory
(label and review), when a reviewer decides on it (review) or when the rater has scored every item (rate).

Queues: a trajectory assigned to someone leaves everyone else's queue and comes first in its holder's; what
nobody holds stays in everyone's, as before assignments existed.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotator.domain.trajectory import ReviewStatus
from annotator.services import studies
from annotator.services.roles import REVIEW_ROLES, NotAllowed, check_role, require_admin
from annotator.storage import assignments, logins, people
from annotator.storage import studies as stored_studies
from annotator.storage.assignments import LABEL, RATE, REVIEW, Assigned, AssignmentRecord, Target
from annotator.storage.reviews import QueueItem, QueueRule, queue_page
from annotator.storage.workspace import Workspace

LABEL_STATES = (ReviewStatus.REJECTED, ReviewStatus.IN_PROGRESS, ReviewStatus.UNLABELLED)
QUEUE_LIMIT = 500  # trajectories of a queue read at once; `Queue.total` says how many it holds


@dataclass(frozen=True)
class Queue:
    """The first part of a queue (`total` in all); `assigned` maps those of `items` given to its person to who
    gave them (None: unknown)."""

    items: list[QueueItem]
    assigned: dict[int, str | None]
    total: int = 0


@dataclass(frozen=True)
class StudyToRate:
    name: str
    rated: int
    total: int


@dataclass(frozen=True)
class PersonalQueue:
    """Everything waiting for one person: to label, to review (reviewers and admins), to rate, instruction sets."""

    person: str
    role: str | None
    label: Queue
    review: Queue | None
    rate: list[StudyToRate]
    instruction_sets: list[AssignmentRecord]


# people ----------------------------------------------------------------------------------------------------------


ON_SQLITE = (
    "logins are a team database's (PostgreSQL): on SQLite whoever can write the file can do anything, and roles "
    "are a workflow aid"
)


def add_person(
    workspace: Workspace,
    name: str,
    role: str,
    *,
    by: str | None,
    login: str | None = None,
    password: str | None = None,
) -> str | None:
    """Put someone on the list; once it has an admin only an admin may (the first admin is named by anyone). On a
    team database `login` makes their PostgreSQL login (or adopts an existing one) in the same transaction; the
    password made for a new login is returned, to be handed over once (None: none was made, or it was given)."""
    db = workspace.database
    if people.workspace_has_admin(db) or logins.verified(db) is not None:
        require_admin(db, by, "add people")
    if login is None:
        people.add_person(db, name, role)
        return None
    return _give_login(workspace, name, login, role, password, add=True)


def give_login(
    workspace: Workspace, name: str, login: str, *, by: str | None, password: str | None = None
) -> str | None:
    """Tie someone on the list to a PostgreSQL login (made if new); from then on that login is who they are."""
    require_admin(workspace.database, by, "give people logins")
    role = people.role_of(workspace.database, name)
    if role is None:
        raise LookupError(f"no person named {name!r} on this workspace's list (`annotator people list`)")
    return _give_login(workspace, name, login, role, password, add=False)


def _give_login(
    workspace: Workspace, name: str, login: str, role: str, password: str | None, *, add: bool
) -> str | None:
    if not logins.is_team_database(workspace.database):
        raise ValueError(ON_SQLITE)
    chosen = password or logins.new_password()
    made = logins.give_login(workspace.database, name, login, role, chosen, add=add)
    return chosen if made and password is None else None


def set_role(workspace: Workspace, name: str, role: str, *, by: str | None) -> str:
    """Change someone's role (returns the old one); once the list has an admin only an admin may. A login gets or
    loses an admin's powers with it (making people's logins)."""
    db = workspace.database
    if people.workspace_has_admin(db) or logins.verified(db) is not None:
        require_admin(db, by, "change roles")
    old = people.set_role(db, name, role)
    logins.sync_admin_powers(db, name, role)
    return old


# assignments -----------------------------------------------------------------------------------------------------


def default_task(role: str, target: Target) -> str:
    """A study is rated; trajectories and instruction sets are labelled by annotators, reviewed by the others."""
    if target.kind() == "study":
        return RATE
    return LABEL if role == people.ANNOTATOR else REVIEW


def assign(workspace: Workspace, person: str, target: Target, *, by: str | None, task: str | None = None) -> Assigned:
    """Give `target` to `person` (admins only); a trajectory or app someone else held for the task moves."""
    db = workspace.database
    require_admin(db, by, "assign work")
    role = people.role_of(db, person)
    if role is None:
        raise LookupError(f"no person named {person!r} on this workspace's list: `annotator people add NAME --role`")
    task = task or default_task(role, target)
    if (task == RATE) != (target.kind() == "study"):
        raise ValueError("a study is assigned for rating, trajectories and instruction sets for labelling or review")
    if task == REVIEW:
        check_role(db, person, REVIEW_ROLES, "review trajectories")
    seed = 0
    if target.study is not None:
        seed = studies.order_seed(stored_studies.load_study(db, target.study).seed, person.strip())
    return assignments.add(db, person, task, target, by, order_seed=seed)


def unassign(workspace: Workspace, person: str, target: Target, *, by: str | None) -> int:
    require_admin(workspace.database, by, "take work back")
    return assignments.remove(workspace.database, person, target)


# queues ----------------------------------------------------------------------------------------------------------


def _queue(workspace: Workspace, rule: QueueRule, limit: int) -> Queue:
    page = queue_page(workspace.database, rule, limit)
    held = assignments.assigned_trajectories(workspace.database, rule.task, [i.trajectory_id for i in page.items])
    mine = {i: by for i, (holder, by) in held.items() if holder == rule.person}
    return Queue(page.items, mine, page.total)


def work_queue(workspace: Workspace, person: str, limit: int = QUEUE_LIMIT) -> Queue:
    """A person's labelling: their rejected work first (with the comment), then work in progress, then what
    nobody started; within each, what was assigned to them first. Others' assignments are left out."""
    return _queue(workspace, QueueRule(LABEL_STATES, (ReviewStatus.UNLABELLED,), LABEL, person), limit)


def review_queue(workspace: Workspace, person: str | None, limit: int = QUEUE_LIMIT) -> Queue:
    """Annotated trajectories waiting for a reviewer: those assigned to `person` first; others' left out."""
    waiting = (ReviewStatus.ANNOTATED,)
    return _queue(workspace, QueueRule(waiting, waiting, REVIEW, person), limit)


def studies_to_rate(workspace: Workspace, person: str) -> list[StudyToRate]:
    """The studies `person` rates and has not finished."""
    found = []
    for info in studies.list_studies(workspace.database):
        mine = info.rater(person)
        if mine is not None and not mine.finished:
            found.append(StudyToRate(info.name, mine.rated, mine.total))
    return found


def person_queue(workspace: Workspace, person: str, limit: int = QUEUE_LIMIT) -> PersonalQueue:
    """What `person` has to do (the first `limit` of each queue); LookupError when the list does not know them."""
    db = workspace.database
    role = people.role_of(db, person)
    if role is None:
        raise LookupError(f"no person named {person!r} on this workspace's list (`annotator people list`)")
    held = assignments.records(db, person)
    reviews = role in REVIEW_ROLES or any(record.task == REVIEW for record in held)
    return PersonalQueue(
        person=person,
        role=role,
        label=work_queue(workspace, person, limit),
        review=review_queue(workspace, person, limit) if reviews else None,
        rate=studies_to_rate(workspace, person),
        instruction_sets=[record for record in held if record.kind == "app"],
    )


__all__ = ["NotAllowed", "Queue", "Target", "add_person", "assign", "person_queue", "set_role", "unassign"]
