"""Recording training runs and their events; each function is one short transaction.

A run is recorded when its process has started (`start_run`), owned by the process that follows it. Its events
come in as the follower reads them from `events.jsonl` (`add_events`): the copy is keyed by the byte offset it
starts from, so two followers (the `train` command and a `runs show` refreshing) never copy a line twice. A run
ends once (`finish_run` only moves a run that is still running or cancelling), so a cancel and the follower that
sees the process end agree on one outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update

from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.models import utcnow
from annotator.storage.owners import Owner, this_process
from annotator.storage.writing import rows_changed, writing

R, E = models.TrainingRun, models.TrainingEvent
RUNNING, CANCELLING = "running", "cancelling"
LIVE = (RUNNING, CANCELLING)
ENDED = ("complete", "failed", "cancelled")
REWARD_KEYS = ("reward", "rewards/mean")


class RunNotFoundError(LookupError):
    """No training run has this id."""


@dataclass(frozen=True)
class NewRun:
    """What a launch records before its process starts."""

    recipe: str
    script: str
    stage: str
    config: dict[str, Any]
    data_dir: str
    manifest_sha256: str | None
    model: str | None
    output_dir: str
    command: list[str]
    launch: dict[str, Any]
    resumed_from: int | None = None


@dataclass(frozen=True)
class RunInfo:
    id: int
    recipe: str
    script: str
    stage: str
    config: dict[str, Any]
    data_dir: str
    manifest_sha256: str | None
    model: str | None
    output_dir: str
    command: list[str]
    launch: dict[str, Any]
    status: str
    message: str | None
    log_tail: str | None
    pid: int | None
    pid_started: float | None
    exit_code: int | None
    events_offset: int
    max_steps: int | None
    last_step: int | None
    last_loss: float | None
    last_reward: float | None
    eta_s: float | None
    resumed_from: int | None
    started_at: datetime
    ended_at: datetime | None
    owner_host: str | None = None
    owner_pid: int | None = None

    @property
    def live(self) -> bool:
        return self.status in LIVE


@dataclass(frozen=True)
class EventRecord:
    """One line of `events.jsonl`: `event`, `time`, `step` and everything else in `data`."""

    event: str
    time: datetime
    step: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


def _info(row: models.TrainingRun) -> RunInfo:
    return RunInfo(**{name: getattr(row, name) for name in RunInfo.__dataclass_fields__})


def start_run(db: Database, new: NewRun, pid: int, pid_started: float, events_offset: int = 0) -> int:
    """Record a run whose process (`pid`, started at `pid_started`) is running, owned by this process; its events
    are read from `events_offset` of the events file on."""
    with writing(db) as session:
        row = R(
            **new.__dict__,
            pid=pid,
            pid_started=pid_started,
            status=RUNNING,
            events_offset=events_offset,
            **this_process().columns(),
        )
        session.add(row)
        session.flush()
        return row.id


def take_over(db: Database, run_id: int, owner: Owner | None = None) -> None:
    """This process (or `owner`) follows the run from now on (a detached run's follower)."""
    with writing(db) as session:
        session.execute(update(R).where(R.id == run_id).values(**(owner or this_process()).columns()))


def _summary(events: list[EventRecord]) -> dict[str, Any]:
    """The run's columns that the newest events change: steps, loss, reward, ETA."""
    changes: dict[str, Any] = {}
    for record in events:
        if record.event == "start" and record.data.get("max_steps"):
            changes["max_steps"] = int(record.data["max_steps"])
        if record.event != "log":
            continue
        if record.step is not None:
            changes["last_step"] = record.step
        if isinstance(record.data.get("loss"), (int, float)):
            changes["last_loss"] = float(record.data["loss"])
        reward = next((record.data[key] for key in REWARD_KEYS if isinstance(record.data.get(key), (int, float))), None)
        if reward is not None:
            changes["last_reward"] = float(reward)
        if "eta_s" in record.data:
            changes["eta_s"] = record.data["eta_s"]
    return changes


def add_events(db: Database, run_id: int, offset: int, new_offset: int, events: list[EventRecord]) -> bool:
    """Store the events read from `offset` to `new_offset` of the run's events file; False (nothing stored) when
    another follower copied from `offset` first."""
    with writing(db) as session:
        moved = rows_changed(
            session,
            update(R)
            .where(R.id == run_id, R.events_offset == offset)
            .values(events_offset=new_offset, heartbeat_at=utcnow(), **_summary(events)),
        )
        if not moved:
            return False
        session.add_all(E(run_id=run_id, event=e.event, step=e.step, data=e.data, time=e.time) for e in events)
        return True


def request_cancel(db: Database, run_id: int) -> bool:
    """Mark a running run as being cancelled; False when it is not running (ended, or cancelled already)."""
    with writing(db) as session:
        asked = update(R).where(R.id == run_id, R.status == RUNNING).values(status=CANCELLING)
        return bool(rows_changed(session, asked))


def finish_run(
    db: Database,
    run_id: int,
    status: str,
    *,
    message: str | None = None,
    log_tail: str | None = None,
    exit_code: int | None = None,
) -> bool:
    """End a run that is still running or cancelling; False when it had ended already (the first outcome stays).
    A run that was being cancelled ends cancelled whatever its process said on the way out."""
    if status not in ENDED:
        raise ValueError(f"a run ends {', '.join(ENDED)}, not {status!r}")
    with writing(db) as session:
        row = session.get(R, run_id)
        if row is None or row.status not in LIVE:
            return False
        if row.status == CANCELLING:  # how the process went down is the cancel's doing, not a failure
            status, message, log_tail = "cancelled", message if status == "cancelled" else "cancelled", None
        row.status, row.message, row.log_tail = status, message, log_tail
        row.exit_code, row.ended_at = exit_code, utcnow()
        return True


def get_run(db: Database, run_id: int) -> RunInfo:
    with db.session() as session:
        row = session.get(R, run_id)
        if row is None:
            raise RunNotFoundError(f"no training run {run_id}")
        return _info(row)


def list_runs(db: Database, statuses: tuple[str, ...] = ()) -> list[RunInfo]:
    """The runs, newest first (only those in `statuses` when given)."""
    query = select(R).order_by(R.id.desc())
    if statuses:
        query = query.where(R.status.in_(statuses))
    with db.session() as session:
        return [_info(row) for row in session.scalars(query)]


def run_events(db: Database, run_id: int, kinds: tuple[str, ...] = ()) -> list[EventRecord]:
    """The run's stored events in the order they were written (only those of `kinds` when given)."""
    query = select(E).where(E.run_id == run_id).order_by(E.id)
    if kinds:
        query = query.where(E.event.in_(kinds))
    with db.session() as session:
        return [EventRecord(e.event, _as_utc(e.time), e.step, e.data) for e in session.scalars(query)]


def _as_utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite gives back naive UTC times
