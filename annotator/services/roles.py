"""Who may do what: the role checks of the service layer (docs/adr/0008-people-and-roles.md).

Roles are read from the workspace's list of people (`people` table), never from what the app's settings claim.
While the list has no admin (a single person's workspace, as before roles were managed) roles are self-declared
and nothing is refused; once it has one, reviewer-only actions need a reviewer or an admin, and managing people
and assignments needs an admin. A refusal is a NotAllowed with one line that says who, what they are and who
may.
"""

from __future__ import annotations

from annotator.storage import people
from annotator.storage.database import Database
from annotator.storage.people import ADMIN, REVIEWER

REVIEW_ROLES = (REVIEWER, ADMIN)
PLURALS = {"annotator": "annotators", "reviewer": "reviewers", "admin": "admins"}


class NotAllowed(PermissionError):
    """The person's role does not allow what they asked; the message says who may."""


def _a(role: str) -> str:
    return f"an {role}" if role[:1] in "aeiou" else f"a {role}"


def check_role(db: Database, person: str, allowed: tuple[str, ...], action: str) -> None:
    """Refuse `action` (e.g. "accept trajectories") unless `person`'s stored role is one of `allowed`; nothing is
    refused while the workspace has no admin."""
    if not people.workspace_has_admin(db):
        return
    role = people.role_of(db, person)
    who = " and ".join(PLURALS.get(r, r) for r in allowed)
    if role is None:
        raise NotAllowed(
            f"{person} is not on this workspace's list of people: only {who} {action} "
            f"(an admin adds people: `annotator people add NAME --role ROLE`)"
        )
    if role not in allowed:
        raise NotAllowed(f"{person} is {_a(role)}: only {who} {action}")


def require_admin(db: Database, person: str | None, action: str) -> None:
    """Refuse `action` unless `person` is an admin on the list (which then has one)."""
    if not people.workspace_has_admin(db):
        raise NotAllowed(
            f"only admins {action}, and this workspace has none yet: name one with "
            "`annotator people add NAME --role admin`"
        )
    if not person or not person.strip():
        raise NotAllowed(f"only admins {action}: say who you are (--as NAME or ANNOTATOR_PERSON)")
    check_role(db, person.strip(), (ADMIN,), action)
