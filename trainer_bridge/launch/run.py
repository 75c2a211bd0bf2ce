"""Launching a training run, following it into the database, and ending it: complete, failed (with the last
lines of its log) or cancelled.

The training process (`accelerate launch`) leads a process group of its own and writes `train.log` and
`events.jsonl` in its output folder. A follower (the `train` command itself, or `runs follow`, which
`train --detach` starts in the background) copies the new events into the database as they come and records
the outcome when the process ends; `runs show` copies what is new too, so a run is never further behind than the
file. Cancelling stops the whole group (terminate, wait, kill) and the run ends cancelled.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from annotator.storage import training_runs
from annotator.storage.database import Database
from annotator.storage.training_runs import EventRecord, NewRun, RunInfo
from trainer_bridge.launch.command import Topology, launch_argv
from trainer_bridge.launch.process import GRACE_S, leader_alive, start_group, stop_group
from trainer_bridge.launch.settings import manifest_sha256, write_resolved

EVENTS, LOG = "events.jsonl", "train.log"  # written by trainer_bridge.train.events (not imported: it loads torch)
TAIL_LINES = 40
POLL_S = 1.0
ACCELERATE = (sys.executable, "-m", "accelerate.commands.launch")  # this interpreter's accelerate, whatever PATH says


@dataclass(frozen=True)
class Plan:
    """A run to launch: the recipe (name or file), its resolved configuration, the export, model and output."""

    recipe: str
    config: dict[str, Any]
    data: Path
    output_dir: Path
    topology: Topology
    model: str | None = None
    notes: tuple[str, ...] = ()  # what the launch changed or could not do, said before it starts

    def argv(self, accelerate: tuple[str, ...] = ("accelerate", "launch")) -> list[str]:
        config = self.output_dir / "recipe.yaml"
        return launch_argv(
            self.topology, self.config["script"], config, str(self.data), str(self.output_dir), self.model, accelerate
        )


def launch(db: Database, plan: Plan, resumed_from: int | None = None) -> tuple[int, Any]:
    """Write the resolved recipe, start the process group and record the run; the run's id and the process."""
    write_resolved(plan.output_dir, plan.config)
    argv = plan.argv(ACCELERATE)
    new = NewRun(
        recipe=plan.recipe,
        script=plan.config["script"],
        stage=str(plan.config.get("stage", "")),
        config=plan.config,
        data_dir=str(plan.data),
        manifest_sha256=manifest_sha256(plan.data),
        model=plan.model,
        output_dir=str(plan.output_dir),
        command=argv,
        launch=plan.topology.as_dict(),
        resumed_from=resumed_from,
    )
    return start(db, new)


def start(db: Database, new: NewRun) -> tuple[int, Any]:
    """Start `new.command` and record it; its events are read from where the events file ends now (a resumed run
    leaves the earlier run's events to that run)."""
    output = Path(new.output_dir)
    events = output / EVENTS
    offset = events.stat().st_size if events.exists() else 0
    env = os.environ | {"PYTHONUNBUFFERED": "1"}  # the log shows what happened up to the moment it died
    process, started = start_group(new.command, output / LOG, env)
    try:
        run_id = training_runs.start_run(db, new, process.pid, started, events_offset=offset)
    except BaseException:
        stop_group(process.pid, started)  # a run nobody recorded must not train on unseen
        process.wait()
        raise
    return run_id, process


def resume(db: Database, run_id: int) -> tuple[int, Any]:
    """Launch an ended run again with its command and resolved configuration: the script goes on from the output
    folder's last checkpoint. A new run, `resumed_from` the old one."""
    old = training_runs.get_run(db, run_id)
    if old.live:
        raise ValueError(f"training run {run_id} is {old.status}; cancel it first or follow it (`runs follow`)")
    write_resolved(Path(old.output_dir), old.config)
    fields = {name: getattr(old, name) for name in NewRun.__dataclass_fields__ if name != "resumed_from"}
    return start(db, NewRun(**fields, resumed_from=run_id))


def read_events(path: Path, offset: int) -> tuple[list[EventRecord], int]:
    """The whole lines of `path` after `offset` as events, and the offset after them (a line still being written
    waits for the next read)."""
    if not path.exists():
        return [], offset
    with open(path, "rb") as file:
        file.seek(offset)
        chunk = file.read()
    whole = chunk[: chunk.rfind(b"\n") + 1]
    records = []
    for line in whole.decode("utf-8", errors="replace").splitlines():
        try:
            fields = json.loads(line)
        except ValueError:
            continue  # not an event (a line cut by a crash): the file keeps it for a person to read
        if isinstance(fields, dict) and "event" in fields:
            records.append(_record(fields))
    return records, offset + len(whole)


def _record(fields: dict[str, Any]) -> EventRecord:
    event, stamp = str(fields.pop("event")), fields.pop("time", None)
    try:
        moment = datetime.fromisoformat(stamp) if stamp else datetime.now(UTC)
    except ValueError:
        moment = datetime.now(UTC)
    step = fields.get("step")
    return EventRecord(event, moment, step if isinstance(step, int) else None, fields)


def sync(db: Database, run_id: int) -> list[EventRecord]:
    """Copy the run's new events into the database; the ones this call copied."""
    run = training_runs.get_run(db, run_id)
    events, offset = read_events(Path(run.output_dir) / EVENTS, run.events_offset)
    if offset == run.events_offset:
        return []
    return events if training_runs.add_events(db, run_id, run.events_offset, offset, events) else []


def log_tail(output_dir: str, lines: int = TAIL_LINES) -> str:
    """The last `lines` lines of the run's log."""
    path = Path(output_dir) / LOG
    if not path.exists():
        return ""
    with open(path, "rb") as file:
        file.seek(max(0, path.stat().st_size - 64_000))  # 40 lines fit well within; a log can be gigabytes
        text = file.read().decode("utf-8", errors="replace")
    return "\n".join(text.splitlines()[-lines:])


def settle(db: Database, run_id: int, exit_code: int | None) -> RunInfo:
    """Record how the ended process went: complete when it exited 0 (or, not being its parent, the events say the
    training ended complete); else failed, with the exit status and the log's tail. A run being cancelled ends
    cancelled."""
    sync(db, run_id)
    run = training_runs.get_run(db, run_id)
    ends = training_runs.run_events(db, run_id, ("end",))
    completed = bool(ends) and ends[-1].data.get("status") == "complete"
    if exit_code == 0 or (exit_code is None and completed):
        training_runs.finish_run(db, run_id, "complete", exit_code=exit_code)
    else:
        tail = log_tail(run.output_dir)
        training_runs.finish_run(
            db, run_id, "failed", message=_failure(exit_code, tail), log_tail=tail, exit_code=exit_code
        )
    return training_runs.get_run(db, run_id)


def _failure(exit_code: int | None, tail: str) -> str:
    if exit_code is None:
        how = "the training process ended without finishing"
    elif exit_code < 0:
        how = f"the training process was killed by signal {-exit_code}"
    else:
        how = f"the training process exited with status {exit_code}"
    last = next((line.strip() for line in reversed(tail.splitlines()) if line.strip()), "")
    return f"{how}: {last}" if last else how


def follow(
    db: Database,
    run_id: int,
    process: Any = None,
    on_events: Callable[[list[EventRecord]], None] | None = None,
    poll_s: float = POLL_S,
) -> RunInfo:
    """Copy events as they come until the process ends, then settle the run. `process` is the Popen when this
    process started it (its exit status then decides); without it the run's pid is watched. Ctrl+C cancels."""
    run = training_runs.get_run(db, run_id)
    try:
        while True:
            new = sync(db, run_id)
            if new and on_events is not None:
                on_events(new)
            exit_code = process.poll() if process is not None else None
            if exit_code is not None or (process is None and not leader_alive(run.pid or 0, run.pid_started)):
                break
            time.sleep(poll_s)
    except KeyboardInterrupt:
        return cancel(db, run_id, process=process)
    return settle(db, run_id, exit_code)


def cancel(db: Database, run_id: int, grace_s: float = GRACE_S, process: Any = None) -> RunInfo:
    """Stop the run's whole process group (SIGTERM, up to `grace_s`, SIGKILL) and end the run cancelled."""
    run = training_runs.get_run(db, run_id)
    if not run.live:
        return run
    training_runs.request_cancel(db, run_id)
    if run.pid is not None:
        stop_group(run.pid, run.pid_started, grace_s)
    exit_code = process.wait() if process is not None else None
    sync(db, run_id)
    training_runs.finish_run(
        db, run_id, "cancelled", message="cancelled: the process group was stopped", exit_code=exit_code
    )
    return training_runs.get_run(db, run_id)


def owned_elsewhere(run: RunInfo) -> bool:
    """Whether another live process follows the run (then that one records its outcome)."""
    return run.owner_pid not in (None, os.getpid()) and leader_alive(run.owner_pid or 0, None)
