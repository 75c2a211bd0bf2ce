"""Who is working: a name and a role, asked once at first start and kept in the settings file.

Every label revision and review is written under this name, so the history pane and the per-person
statistics say who did what. On a team database the login says who is working (`vouch`): the kept name counts
no more, and the kept role may only narrow the one on the workspace's list (an admin working as a reviewer).
"""

from __future__ import annotations

from annotator.storage import logins
from annotator.storage.database import Database
from annotator.ui import settings as keys

NAME = "person/name"
ROLE = "person/role"
ROLES = ("annotator", "reviewer", "admin")
_vouched: dict[str, tuple[str, str] | None] = {"person": None}  # (name, role) the open workspace's login says


def vouch(person: tuple[str, str] | None) -> None:
    """The open workspace's database says who is working (a person's own login), or None: nobody vouches."""
    _vouched["person"] = person


def vouch_for(db: Database) -> str | None:
    """Take who is working from the open workspace's login (a team database); returns a login that is nobody's on
    its list, to be told."""
    found = logins.verified(db)
    vouch((found.person, found.role or "annotator") if found is not None and found.person else None)
    return found.login if found is not None and found.person is None else None


def vouched() -> tuple[str, str] | None:
    return _vouched["person"]


def current_person() -> tuple[str, str]:
    """(name, role); ("", "") until the person has said who they are. A vouched name wins over the kept one, and
    the kept role counts only where it is not above the vouched one."""
    name = keys.text(NAME).strip()
    role = keys.text(ROLE, "annotator")
    role = role if role in ROLES else "annotator"
    found = vouched()
    if found is not None:
        name, highest = found
        role = role if ROLES.index(role) <= ROLES.index(highest if highest in ROLES else "annotator") else highest
    return (name, role) if name else ("", "")


def remember(name: str, role: str) -> None:
    if not name.strip():
        raise ValueError("a name is needed: every change is saved under it")
    if role not in ROLES:
        raise ValueError(f"role {role!r} is not one of {', '.join(ROLES)}")
    stored = keys.settings()
    stored.setValue(NAME, name.strip())
    stored.setValue(ROLE, role)
    stored.sync()


def remember_role(role: str) -> None:
    """Keep the role alone (working under a team database's login, whose name is not the settings')."""
    if role not in ROLES:
        raise ValueError(f"role {role!r} is not one of {', '.join(ROLES)}")
    stored = keys.settings()
    stored.setValue(ROLE, role)
    stored.sync()
