"""Who is working: a name and a role, asked once at first start and kept in the settings file.

Every label revision and review is written under this name, so the history pane and the per-person
statistics say who did what.
"""

from __future__ import annotations

from annotator.ui import settings as keys

NAME = "person/name"
ROLE = "person/role"
ROLES = ("annotator", "reviewer", "admin")


def current_person() -> tuple[str, str]:
    """(name, role); ("", "") until the person has said who they are."""
    name = keys.text(NAME).strip()
    role = keys.text(ROLE, "annotator")
    return (name, role if role in ROLES else "annotator") if name else ("", "")


def remember(name: str, role: str) -> None:
    if not name.strip():
        raise ValueError("a name is needed: every change is saved under it")
    if role not in ROLES:
        raise ValueError(f"role {role!r} is not one of {', '.join(ROLES)}")
    stored = keys.settings()
    stored.setValue(NAME, name.strip())
    stored.setValue(ROLE, role)
    stored.sync()
