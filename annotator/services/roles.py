"""Who may do what: the role checks of the service layer (docs/adr/0008-people-and-roles.md).

Roles are read from the workspace's list of people (`people` table), never from what the app's settings claim.
While the list has no admin (a single person's workspace, as before roles were managed) roles are self-declared
and nothing is refused; once it has one, reviewer-only actions need a reviewer or an admin, and managing people
and assignments needs an admin. A refusal is a NotAllowed with one line that says who, what they are and who
may.
"""

from __future__ import annotations

from annotator.storage import logins, people
from annotator.storage.database import Database
from annotator.storage.people import ADMIN, ANNOTATOR, REVIEWER

REVIEW_ROLES = (REVIEWER, ADMIN)
PLURALS = {"annotator": "annotators", "reviewer": "reviewers", "admin": "admins"}
RANK = {ANNOTATOR: 0, REVIEWER: 1, ADMIN: 2}


class NotAllowed(PermissionError):
    """The person's role does not allow what they asked; the message says who may."""


def _a(role: str) -> str:
    return f"an {role}" if role[:1] in "aeiou" else f"a {role}"


def check_acting(db: Database, person: str) -> None:
    """On a team database the login says who is acting: a name typed (--as, ANNOTATOR_PERSON, the app's dialog)
    may not say someone else."""
    found = logins.verified(db)
    if found is None or found.person == person.strip():
        return
    if found.person is None:
        raise NotAllowed(
            f"the login {found.login} is nobody's on this workspace's list, so it acts for no one: an admin gives "
            f"it to a person (`annotator people login NAME {found.login}`)"
        )
    raise NotAllowed(f"you are connected as {found.login}, which is {found.person}'s login: you cannot act as {person}")


def acting_role(db: Database, person: str, claimed: str) -> str:
    """The role `person` acts in: what they claim while roles are self-declared (no admin yet, no login vouching
    for them), else the stored one, or a lower one they claim (an admin acting as a reviewer), never higher."""
    if not people.workspace_has_admin(db) and logins.verified(db) is None:
        return claimed
    stored = people.role_of(db, person) or ANNOTATOR
    return claimed if RANK.get(claimed, 0) <= RANK.get(stored, 0) else stored


def check_role(db: Database, person: str, allowed: tuple[str, ...], action: str) -> None:
    """Refuse `action` (e.g. "accept trajectories") unless `person` is who the login says (on a team database) and
    their stored role is one of `allowed`; no role is refused while the workspace has no admin."""
    check_acting(db, person)
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
    found = logins.connected(db)
    if found is not None and found.verified:
        person = person if person and person.strip() else found.person
    elif found is not None and not (person and person.strip()):
        return  # the database's owner, speaking for no one: the DBA, whom every check trusts
    if not person or not person.strip():
        raise NotAllowed(f"only admins {action}: say who you are (--as NAME or ANNOTATOR_PERSON)")
    check_role(db, person.strip(), (ADMIN,), action)
