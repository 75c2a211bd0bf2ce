"""Who runs a collection or judge run, and whether that process is gone.

A run records its owner (host, pid and the process's start time) when it starts or is taken over, and a
heartbeat as it goes (each recorded step, each judge answer). On the owner's host the owner is gone when no
live process has its pid, or the one that has it started at another time (the pid was reused). A process on
another host cannot be seen: its run counts as abandoned once its heartbeat is older than LEASE.

An abandoned collection run becomes `interrupted` (resumable and closable like one stopped with Ctrl+C), an
abandoned judge run `stopped`, an abandoned training run `failed` once its training process is gone too;
opening a workspace for writing does this (reap_abandoned), so every listing shows them as they are. Updates
compare the owner they saw, so a run taken over meanwhile is left alone.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update

from annotator.domain.trajectory import TrajectoryStatus
from annotator.storage import models
from annotator.storage.database import Database
from annotator.storage.models import utcnow
from annotator.storage.processes import process_alive, this_process_start
from annotator.storage.writing import rows_changed

LEASE = timedelta(minutes=30)  # longer than a step or a judge answer can take, retries included
OWNER_COLUMNS = ("owner_host", "owner_pid", "owner_started")
JUDGE_RUNNING, JUDGE_STOPPED = "running", "stopped"


@dataclass(frozen=True)
class Owner:
    host: str
    pid: int
    started: float

    def columns(self) -> dict[str, Any]:
        """The owner columns of a run this process takes, with a fresh heartbeat."""
        return {"owner_host": self.host, "owner_pid": self.pid, "owner_started": self.started, "heartbeat_at": utcnow()}


def this_process() -> Owner:
    pid, started = this_process_start()
    return Owner(socket.gethostname(), pid, started)


def _as_utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite gives back naive UTC times


def gone_reason(run: models.OwnedRun, now: datetime | None = None) -> str | None:
    """Why the process that owns `run` is gone, or None while it may be alive."""
    if run.owner_host is None or run.owner_pid is None:
        return "no process owns it (it was started before owners were recorded)"
    if run.owner_host == socket.gethostname():
        if process_alive(run.owner_pid, run.owner_started):
            return None
        return f"its process (pid {run.owner_pid} on {run.owner_host}) is gone"
    beat = _as_utc(run.heartbeat_at) if run.heartbeat_at else None
    if beat is not None and (now or utcnow()) - beat <= LEASE:
        return None
    heard = f"since {beat:%Y-%m-%d %H:%M} UTC" if beat else "ever"
    return f"its process (pid {run.owner_pid} on {run.owner_host}) has not been heard from {heard}"


def same_owner(model: type[models.OwnedRun], run: models.OwnedRun) -> list[Any]:
    """Conditions that hold while `run` still has the owner it was read with (NULLs compare equal)."""
    return [getattr(model, name).is_not_distinct_from(getattr(run, name)) for name in OWNER_COLUMNS]


def reap_abandoned(db: Database) -> list[str]:
    """Mark the collection runs left `collecting`, and the judge runs and evaluations left `running`, by a process
    that is gone as interrupted and stopped; one line for each."""
    T = models.Trajectory
    notes = []
    with db.session() as session, session.begin():
        for trajectory in session.scalars(select(T).where(T.status == str(TrajectoryStatus.COLLECTING))).all():
            reason = gone_reason(trajectory)
            if reason is None:
                continue
            changed = rows_changed(
                session,
                update(T)
                .where(T.id == trajectory.id, T.status == str(TrajectoryStatus.COLLECTING), *same_owner(T, trajectory))
                .values(status=str(TrajectoryStatus.INTERRUPTED), stop_reason=f"process gone: {reason}"),
            )
            if changed:
                notes.append(f"trajectory {trajectory.id} was left collecting: {reason}; it is interrupted now")
        notes += _stop_abandoned(session, models.JudgeRun, "ended_at", "judge run", _stored_judge_counts)
        notes += _stop_abandoned(session, models.Evaluation, "finished_at", "evaluation")
        notes += _fail_abandoned_training(session)
    return notes


def _fail_abandoned_training(session: Any) -> list[str]:
    """Training runs left running (or cancelling) become `failed` once both the process that followed them and
    the training process itself are gone; a training process that lives on is left for `runs show` to follow."""
    T, notes = models.TrainingRun, []
    for run in session.scalars(select(T).where(T.status.in_(("running", "cancelling")))).all():
        reason = gone_reason(run)
        if reason is None or (run.pid is not None and process_alive(run.pid, run.pid_started)):
            continue
        changed = rows_changed(
            session,
            update(T)
            .where(T.id == run.id, T.status == run.status, *same_owner(T, run))
            .values(
                status="failed", message=f"process gone: {reason}; the training process ended unseen", ended_at=utcnow()
            ),
        )
        if changed:
            notes.append(f"training run {run.id} was left {run.status}: {reason}; it is failed now")
    return notes


def _stored_judge_counts(session: Any, run: models.JudgeRun) -> dict[str, int]:
    """What a judge run did, from the answers it stored: a killed run never wrote its counts (the runner writes
    them when it ends), so its row would say it scored nothing."""
    S = models.JudgeScore
    usable, answered = session.execute(select(func.count(S.reward), func.count(S.id)).where(S.run_id == run.id)).one()
    return {"scored": usable, "failed": answered - usable}


def _stop_abandoned(
    session: Any, model: Any, ended_column: str, label: str, counts: Callable[[Any, Any], dict[str, int]] | None = None
) -> list[str]:
    """Runs of `model` left `running` by a process that is gone become `stopped` (the same command goes on);
    `counts`: the run's count columns as far as it got, from what it stored."""
    notes = []
    for run in session.scalars(select(model).where(model.status == JUDGE_RUNNING)).all():
        reason = gone_reason(run)
        if reason is None:
            continue
        done = counts(session, run) if counts is not None else {}
        changed = rows_changed(
            session,
            update(model)
            .where(model.id == run.id, model.status == JUDGE_RUNNING, *same_owner(model, run))
            .values(status=JUDGE_STOPPED, message=f"process gone: {reason}", **{ended_column: utcnow()}, **done),
        )
        if changed:
            so_far = f" ({done['scored']} scored, {done['failed']} without a usable score)" if done else ""
            notes.append(f"{label} {run.id} was left running: {reason}; it is stopped now{so_far}")
    return notes
