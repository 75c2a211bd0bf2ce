"""The phones of one process take turns at the database's write lock, in the process, not in SQLite.

SQLite has one writer at a time. A transaction that finds the lock taken waits in SQLite's busy handler, which
sleeps in growing steps (1, 2, 5, ... up to 100 ms) and so often wakes long after the lock was free again: with
eight phones recording at once, a phone waited up to 200 ms while writes held the lock 14 ms at the median
(bench/collect.py). Taking a turn on a lock of this process first means a waiting phone starts the moment the
write before it commits; SQLite's own waiting is left for writers in other processes.
"""

from __future__ import annotations

import threading

from annotator.storage.database import Database

_turns: dict[int, threading.Lock] = {}
_turns_guard = threading.Lock()


def write_turn(db: Database) -> threading.Lock:
    """The lock the collection runs of this process writing to `db` take turns on (one per open database)."""
    with _turns_guard:
        return _turns.setdefault(id(db), threading.Lock())
