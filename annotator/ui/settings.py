"""The user's GUI settings (window layout, language, shortcuts) in one INI file.

An INI file rather than the registry or a plist, so that "shortcuts are kept in the settings file" holds
on every platform and a person can read or delete it. ``make_app`` sets the organisation and application
names that decide where it lives; tests point ``QSettings.setPath`` at a temporary folder.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QSettings

ORGANIZATION = "mobile-annotator"
APPLICATION = "Mobile Annotator"

LANGUAGE = "ui/language"  # "" = follow the system locale
GEOMETRY = "window/geometry"
STATE = "window/state"
CURRENT_VIEW = "window/view"
SHORTCUT_GROUP = "shortcuts"


def settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


def text(key: str, default: str = "") -> str:
    value = settings().value(key, default)
    return value if isinstance(value, str) else default


def json_object(key: str) -> dict[str, Any]:
    """A setting kept as a JSON object; {} when it is missing or not one (a settings file edited by hand)."""
    try:
        stored = json.loads(text(key) or "{}")
    except json.JSONDecodeError:
        return {}
    return stored if isinstance(stored, dict) else {}
