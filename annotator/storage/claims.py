"""Work claimed in the database, so that processes sharing a workspace do a piece of shared work once: two
`annotator collect --all-pending` on phones of their own, on one machine or on several, each collect a pending
instruction's run only when no other live process is collecting it.

A claim is one row of `work_claims`, keyed by the work (`collect_key`: an instruction's run), naming the process
that holds it (host, pid and start time, as a run's owner: `storage.owners`) and how long it holds without being
renewed (`lease_until`). Taking one is atomic: an INSERT that skips a key already there, else an UPDATE of that row
that compares the owner and the lease it read, so of two processes that try at once one gets it. A row is taken
over when its process is gone (on this host no live process has its pid and start time: owners.gone_reason) or its
lease ran out (a process on another host, or one that hangs, stopped renewing it); a live holder's claim is left
alone, this process's own included. The holder renews the lease while it works (`Holding`) and removes the row
when it is done (`release`), whatever the outcome, so work left unfinished is free for any process again.

On SQLite the write lock (`writing`) serialises the takers. On PostgreSQL writers run side by side, and the
UPDATE's comparison serialises them: a second UPDATE of the row waits for the first to commit, then finds the row
changed and changes nothing.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from annotator.domain.trajectory import TrajectoryStatus
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.models import utcnow
from annotator.storage.models_team import WorkClaim
from annotator.storage.owners import Owner, gone_reason, same_owner, this_process
from annotator.storage.writing import insert_skipping, retrying, rows_changed

log = logging.getLogger(__name__)
LEASE = timedelta(minutes=5)  # a claim not renewed for this long is free: its process hangs, or is out of sight
RENEW_EVERY_S = 60.0  # well inside the lease: a renewal may wait on a busy database and still be in time
TAKE_TRIES = 3  # a row released between our INSERT and our read is tried again, so a free key is never refused


@dataclass(frozen=True)
class Claim:
    key: str
    owner: Owner


@dataclass(frozen=True)
class Attempt:
    """A claim taken (`claim`), or why not (`why`: who holds it, or that the work is done already)."""

    claim: Claim | None
    why: str = ""
    taken_over: str | None = None  # why the claim that was there could be taken: its process is gone, ...


def collect_key(instruction_id: int, number: int) -> str:
    """The key of an instruction's `number`-th run (1, 2, ...) of a collection of its pending runs."""
    return f"collect:{instruction_id}:{number}"


def take(db: Database, key: str, *, owner: Owner | None = None, lease: timedelta = LEASE) -> Attempt:
    """Claim the work `key` for this process (or `owner`) unless a live process holds it."""
    holder = owner or this_process()
    return retrying(db, lambda session: _take(session, key, holder, lease))


def take_collect_run(
    db: Database, instruction_id: int, number: int, *, owner: Owner | None = None, lease: timedelta = LEASE
) -> Attempt:
    """Claim the instruction's `number`-th run, taken only while it has fewer complete runs than `number`: a run
    another process finished (and released) is not collected again."""
    holder, key = owner or this_process(), collect_key(instruction_id, number)

    def work(session: Session) -> Attempt:
        attempt = _take(session, key, holder, lease)
        if attempt.claim is None:
            return attempt
        # Read after the claim is ours: a holder commits its run before it releases, so this sees that run.
        done = _complete_runs(session, instruction_id)
        if done < number:
            return attempt
        session.execute(delete(WorkClaim).where(WorkClaim.work_key == key))
        return Attempt(None, f"it has {done} complete run{'s' if done != 1 else ''} already")

    return retrying(db, work)


def renew(db: Database, claim: Claim, *, lease: timedelta = LEASE) -> bool:
    """Push the claim's lease on; False when it is no longer this holder's (taken over meanwhile)."""

    def work(session: Session) -> bool:
        now = utcnow()
        renewed = update(WorkClaim).where(*_held_by(claim)).values(heartbeat_at=now, lease_until=now + lease)
        return rows_changed(session, renewed) == 1

    return retrying(db, work)


def release(db: Database, claim: Claim) -> None:
    """The work is done with: its row goes (unless another process took it over meanwhile)."""
    retrying(db, lambda session: session.execute(delete(WorkClaim).where(*_held_by(claim))))


class Holding:
    """`with Holding(db, claim):` renews the claim on a thread of its own while the block runs, and releases it
    when the block ends. A renewal or release that fails (the database gone or full) is logged, not raised: the
    claim then runs out, or is taken over once this process is gone."""

    def __init__(self, db: Database, claim: Claim, *, every_s: float = RENEW_EVERY_S) -> None:
        self.db, self.claim, self.every_s = db, claim, every_s
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._renew, name=f"claim-{claim.key}", daemon=True)

    def __enter__(self) -> Holding:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        try:
            release(self.db, self.claim)
        except Exception as error:  # a full disk, a lost server: the claim lapses by itself
            log.info("the claim on %s was left to lapse: %s", self.claim.key, error)

    def _renew(self) -> None:
        while not self._done.wait(self.every_s):
            try:
                if not renew(self.db, self.claim):
                    log.warning("the claim on %s was taken over by another process", self.claim.key)
                    return
            except Exception as error:  # tried again at the next tick
                log.info("the claim on %s was not renewed: %s", self.claim.key, error)


def _take(session: Session, key: str, owner: Owner, lease: timedelta) -> Attempt:
    now = utcnow()
    values = owner.columns() | {"heartbeat_at": now, "claimed_at": now, "lease_until": now + lease}
    for _ in range(TAKE_TRIES):
        # RETURNING tells an insert from a skipped one (rowcount does not, for an ORM insert on PostgreSQL)
        inserted = insert_skipping(session, WorkClaim).values(work_key=key, **values).returning(WorkClaim.work_key)
        if session.execute(inserted).first() is not None:
            return Attempt(Claim(key, owner))
        row = session.scalars(
            select(WorkClaim).where(WorkClaim.work_key == key).execution_options(populate_existing=True)
        ).first()
        if row is None:
            continue  # released since the INSERT: try it again
        why = _gone(row, now)
        if why is None:
            return Attempt(None, _holder(row))
        unchanged = [WorkClaim.work_key == key, WorkClaim.lease_until == row.lease_until, *same_owner(WorkClaim, row)]
        if rows_changed(session, update(WorkClaim).where(*unchanged).values(**values)):
            return Attempt(Claim(key, owner), taken_over=why)
        return Attempt(None, "another process took it over first")
    return Attempt(None, "it was claimed and released again and again meanwhile")


def _gone(row: WorkClaim, now: datetime) -> str | None:
    """Why the claim is free to take, or None while its holder may be at work."""
    lease_until = _as_utc(row.lease_until)
    if lease_until < now:
        return f"its lease ran out at {lease_until:%Y-%m-%d %H:%M:%S} UTC"
    return gone_reason(row, now)


def _holder(row: WorkClaim) -> str:
    return f"pid {row.owner_pid} on {row.owner_host} is on it (claimed {_as_utc(row.claimed_at):%H:%M:%S} UTC)"


def _held_by(claim: Claim) -> list[Any]:
    owner = claim.owner
    return [
        WorkClaim.work_key == claim.key,
        WorkClaim.owner_host == owner.host,
        WorkClaim.owner_pid == owner.pid,
        WorkClaim.owner_started == owner.started,
    ]


def _complete_runs(session: Session, instruction_id: int) -> int:
    T = models.Trajectory
    complete = select(func.count()).where(
        T.instruction_id == instruction_id, T.status == str(TrajectoryStatus.COMPLETE)
    )
    return int(session.scalar(complete) or 0)


def _as_utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite gives back naive UTC times
