"""A run that stops because the workspace cannot be written (the disk full, a file size limit, a read-only folder,
the database kept busy): the steps stored before it stay, and the run ends with one line saying so instead of a
traceback, so that the other phones of a parallel collection end as cleanly.

The data folder's own one-line reasons (`storage.failures`) end in "nothing was changed", which holds for the one
write that failed, not for the run: its earlier steps are stored. `reason` leaves that part out.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from annotator.domain.trajectory import TrajectoryStatus
from annotator.storage import collection
from annotator.storage.database import Database
from annotator.storage.failures import WorkspaceError, plain_reason

log = logging.getLogger(__name__)
_NOTHING_CHANGED = re.compile(r"[;,] (so )?nothing was changed(: )?")


def reason(error: BaseException, data_dir: Path) -> str | None:
    """What could not be written, when `error` is the workspace failing; None for anything else (a bug, Ctrl+C)."""
    if isinstance(error, WorkspaceError):
        return str(error)
    found = plain_reason(error, data_dir) if isinstance(error, Exception) else None
    return None if found is None else _NOTHING_CHANGED.sub(lambda match: "; " if match.group(2) else "", found)


def mark_interrupted(db: Database, trajectory_id: int, why: str) -> None:
    """Mark the run interrupted if the database still takes that write. When it does not (the same failure, most
    likely), the run's recorded owner, this process, is gone once the command ends, and the next command that opens
    the workspace marks the run interrupted (storage.owners); it can be resumed or closed either way."""
    try:
        collection.finish_trajectory(db, trajectory_id, TrajectoryStatus.INTERRUPTED, stop_reason=why)
    except Exception as error:
        log.info("trajectory %s could not be marked interrupted: %s", trajectory_id, error)
