"""Values as a bundle's manifest writes them: times in ISO 8601, and the error a value that is not one raises."""

from __future__ import annotations

from datetime import datetime
from typing import Any


class BundleError(RuntimeError):
    """A bundle that cannot be read; the message says what and where."""


def iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def parse_time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise BundleError(f"{where}: {value!r} is not an ISO date-time") from None
