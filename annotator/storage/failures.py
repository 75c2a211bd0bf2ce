"""What went wrong with the data folder, in one line a person can act on.

A database file that is not one, a read-only folder and a full disk reach us as OSError or as SQLAlchemy's
wrapping of sqlite3 errors; each becomes one line that names the file (or the folder, or the database) and says
nothing was changed (every write is one transaction, and imports remove the files they wrote). A write that finds
no room (ENOSPC, a quota, EFBIG from a file size limit) names the file it was writing: storage.blobs and the
exports add the name, which a failed write() does not carry.
"""

from __future__ import annotations

import errno
from pathlib import Path

from sqlalchemy.exc import DBAPIError


class WorkspaceError(RuntimeError):
    """The workspace cannot be opened, or written, as asked; the message says why. Nothing was changed."""


class NotPermitted(WorkspaceError, PermissionError):
    """The database (a team server's own checks) or the verified identity refused what was asked; nothing was
    changed. The message is the one line that says who may."""


def plain_reason(error: BaseException, data_dir: Path) -> str | None:
    """One line for `error` (or what caused it) when it is one of the data folder's known failures, else None (a
    bug: let it show)."""
    cause: BaseException | None = error
    while cause is not None:
        reason = _reason(cause, data_dir)
        if reason is not None:
            return reason
        cause = cause.__cause__
    return None


NO_ROOM = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)  # a full disk, a quota, a limit on a file's size


def _reason(error: BaseException, data_dir: Path) -> str | None:
    if isinstance(error, OSError):
        if error.errno in NO_ROOM:
            return no_room(error.filename or data_dir, error.strerror or str(error))
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            where = error.filename or data_dir
            return f"cannot write {where}: {error.strerror} (is the data folder read-only?); nothing was changed"
        return None
    if isinstance(error, DBAPIError):
        message = str(error.orig)
        if "disk is full" in message or "disk I/O error" in message:
            return no_room(f"the database in {data_dir}", message)
        if "readonly database" in message or "read-only" in message:
            return read_only(data_dir)
        if "file is not a database" in message:
            return f"{data_dir} holds a file that is not an annotator database ({message}); nothing was changed"
        if "malformed" in message:  # "database disk image is malformed", "malformed database schema (...)"
            return damaged(data_dir, message)
        if "password authentication failed" in message or "no password supplied" in message:
            return refused_login(message)
    return None


def refused_login(message: str) -> str:
    """A team server that would not let this login in: the server's own reason, in one line."""
    reason = next((line.split("FATAL:", 1)[-1].strip() for line in message.splitlines() if "FATAL" in line), message)
    return (
        f"the team database refused the connection ({reason}); each person connects with their own login and its "
        "password (in ~/.pgpass, or the URL); nothing was changed"
    )


def damaged(data_dir: Path, detail: str) -> str:
    """A database file that is cut short or overwritten in part; SQLite may find out only at a later query."""
    return (
        f"the database in {data_dir} is damaged ({detail}); nothing was changed: restore it from a backup "
        "(upgrades leave annotator.backup-*.sqlite beside it) or recover it with `sqlite3 annotator.sqlite .recover`"
    )


def no_room(where: Path | str, detail: str) -> str:
    """A write that found no room: the disk is full, or a file may not grow that large (EFBIG)."""
    return f"could not write {where}: {detail}; nothing was changed: free some space and try again"


def read_only(data_dir: Path) -> str:
    return f"the data folder {data_dir} is read-only; this command writes to it, so nothing was changed"
