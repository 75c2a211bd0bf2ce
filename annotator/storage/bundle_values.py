"""Values as a bundle's manifest writes them: times in ISO 8601, and the error a value that is not one raises."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


class BundleError(RuntimeError):
    """A bundle that cannot be read; the message says what and where."""


def iso(moment: datetime | None) -> str | None:
    """UTC without an offset, as SQLite gives times back; PostgreSQL's (with the session's offset) are written alike,
    so that a bundle says the same from either database."""
    if moment is None:
        return None
    return (moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment).isoformat()


def parse_time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise BundleError(f"{where}: {value!r} is not an ISO date-time") from None
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)  # not PostgreSQL's session zone
