"""Benchmark agent collection on virtual phones with the scripted endpoint: per-step time split into
observe / decide (of which the model) / act / record, and the app's own overhead per step, that is the
step's time minus what the phone (observe, act) and the model's API took; on 1 phone, then on N at once.

The collection is the app's own (`annotator.services.parallel_collecting`: one worker per phone, each with its
agent). The phones and the scripted endpoint run in a child process, so that their rendering does not hold this
process's interpreter lock: what is measured here is the app's part. How long a phone waited for the other
phones' writes before recording its step (`record_wait`: its turn at the write lock, `annotator.collect.write_turns`)
is set beside how long a write held SQLite's lock (timed from the outside with SQLAlchemy's cursor events, with
SQLite's own wait for it, `BEGIN IMMEDIATE`), so "no phone waits on another's write longer than the write" shows in
figures.

Goal `overhead_8_vs_1` compares the app's own part of a step (`own_overhead_ms`: the worker's CPU time outside
the phone's commands, plus its waits for the other phones' writes) at 8 phones with 1. The wall-time overhead is
reported beside it (`wall_overhead_ratio`): on a small machine the 8 virtual phones' rendering takes the cores
the steps need, which grows every wall-time figure whatever the app does.

Prints one JSON object as its last line (docs/architecture.md#benchmarks).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event

from annotator.collect.session import Settings, Task
from annotator.services.collecting import AgentEndpoint
from annotator.services.parallel_collecting import collect_on_phones, open_devices
from annotator.storage import collection
from annotator.storage.workspace import Workspace

PARTS = ("observe_total", "decide", "model", "act", "record", "total")
APPS = ("settings", "shop", "video")


def overhead_ms(timings: dict[str, float]) -> float:
    """Everything but the phone and the model: prompt building, parsing, recording, the loop itself (wall time)."""
    return timings["total"] - timings["observe_total"] - timings["act"] - timings["model"]


def own_overhead_ms(timings: dict[str, float]) -> float:
    """The app's part of a step: its own CPU work (the worker thread's CPU time outside the phone's commands,
    `cpu_app`) plus the time it waited for the other phones' writes. Unlike the wall time, this does not count
    the time the step's thread was ready but the machine's cores were busy elsewhere: here, the phones' own
    rendering and PNG encoding, which real phones do on their own chips."""
    return timings["cpu_app"] + timings["record_wait"]


def serve_phones(count: int, line: Connection) -> None:
    """The child process: `count` virtual phones on one adb server and the scripted endpoint, until told to stop."""
    from annotator.demo.phone.adb_server import VirtualAdbServer
    from annotator.demo.phone.phone import VirtualPhone
    from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint

    phones = [VirtualPhone(serial=f"bench-{number}") for number in range(1, count + 1)]
    packages = {app.label: package for package, app in phones[0].apps.items()}
    with VirtualAdbServer(phones) as server, ScriptedEndpoint(seed=1) as endpoint:
        line.send((server.port, endpoint.base_url, packages))
        line.recv()


class WriteLock:
    """The write transactions' lock waits and hold times, per thread, from the engine's cursor events."""

    def __init__(self, engine: Engine) -> None:
        self.waits_ms: list[float] = []
        self.holds_ms: list[float] = []
        self._local = threading.local()
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "after_cursor_execute", self._after)
        event.listen(engine, "commit", self._commit)

    def _before(self, _connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.startswith("BEGIN IMMEDIATE"):
            self._local.asked = time.perf_counter()

    def _after(self, _connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.startswith("BEGIN IMMEDIATE"):
            self._local.held = time.perf_counter()
            self.waits_ms.append((self._local.held - self._local.asked) * 1000)

    def _commit(self, _connection: Any) -> None:
        held = getattr(self._local, "held", None)
        if held is not None:
            self.holds_ms.append((time.perf_counter() - held) * 1000)
            self._local.held = None


def tasks_for(workspace: Workspace, count: int) -> list[Task]:
    from annotator.demo.phone.instructions import all_instructions

    chosen = [item for item in all_instructions() if item.uid.startswith(APPS)][:count]
    return [Task(collection.add_instruction(workspace.database, i.app, i.text), i.text, i.app) for i in chosen]


def collect(phones: int, instructions: int, folder: Path) -> dict[str, Any]:
    """Collect `instructions` tasks on `phones` phones at once; the figures of that run."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    child = context.Process(target=serve_phones, args=(phones, theirs), daemon=True)
    child.start()
    try:
        port, base_url, packages = ours.recv()
        with Workspace.open(folder / f"workspace-{phones}") as workspace:
            devices = open_devices([f"bench-{number}" for number in range(1, phones + 1)], port)
            for device in devices:
                collection.save_device(workspace.database, device.serial, {}, app_packages=packages)
            tasks = tasks_for(workspace, instructions)
            lock = WriteLock(workspace.database.engine)
            started = time.perf_counter()
            endpoint = AgentEndpoint(base_url, "scripted")
            result = collect_on_phones(workspace, devices, endpoint, tasks, settings=Settings())
            wall_s = time.perf_counter() - started
    finally:
        ours.send("stop")
        child.join(30)
    timings = [step for run in result.results for step in run.timings_ms]
    return figures_of(phones, timings, lock, wall_s) | {"runs": result.summary()}


def figures_of(phones: int, timings: list[dict[str, float]], lock: WriteLock, wall_s: float) -> dict[str, Any]:
    overheads = sorted(overhead_ms(t) for t in timings)
    figures: dict[str, Any] = {"phones": phones, "steps": len(timings)}
    figures |= {f"{part}_ms_median": round(statistics.median(t[part] for t in timings), 1) for part in PARTS}
    figures |= {"overhead_ms_median": round(statistics.median(overheads), 1)}
    figures |= {"overhead_ms_p90": round(overheads[int(0.9 * (len(overheads) - 1))], 1)}
    owns = sorted(own_overhead_ms(t) for t in timings)
    figures |= {"own_overhead_ms_median": round(statistics.median(owns), 1)}
    figures |= {"own_overhead_ms_p90": round(owns[int(0.9 * (len(owns) - 1))], 1)}
    figures |= {"record_ms_max": round(max(t["record"] for t in timings), 1)}
    turns = sorted(t["record_wait"] for t in timings)  # waiting for the other phones' writes, in this process
    figures |= {"record_wait_ms_median": round(statistics.median(turns), 2), "record_wait_ms_max": round(turns[-1], 1)}
    figures |= {"sqlite_lock_wait_ms_max": round(max(lock.waits_ms), 1)}
    figures |= {"write_hold_ms_median": round(statistics.median(lock.holds_ms), 1)}
    figures |= {"write_hold_ms_max": round(max(lock.holds_ms), 1), "writes": len(lock.waits_ms)}
    return figures | {"steps_per_s": round(len(timings) / wall_s, 2), "wall_s": round(wall_s, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 instructions on 1 phone, 1 per phone on N; ~1 min")
    parser.add_argument("--instructions", type=int, help="instructions on 1 phone (default 5; 2 with --quick)")
    parser.add_argument("--devices", type=int, default=8, help="N: after 1 phone, N at once (default 8; 1: only 1)")
    parser.add_argument("--per-phone", type=int, help="instructions on each of the N (default 2; 1 with --quick)")
    args = parser.parse_args(argv)
    count = args.instructions or (2 if args.quick else 5)
    per_phone = args.per_phone or (1 if args.quick else 2)  # the default: medians over ~35 and ~110 steps
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-collect-") as folder:
        runs = [collect(1, count, Path(folder))]
        if args.devices > 1:
            runs.append(collect(args.devices, args.devices * per_phone, Path(folder)))
    one = runs[0]
    figures: dict[str, Any] = {key: value for key, value in one.items() if key != "phones"} | {"instructions": count}
    goals = [{"name": "overhead_ms_per_step", "value": one["overhead_ms_median"], "target": 50.0}]
    goals[0] |= {"unit": "ms", "better": "lower"}
    if len(runs) > 1:
        many = runs[1]
        figures[f"at_{many['phones']}_phones"] = many
        ratio = many["own_overhead_ms_median"] / one["own_overhead_ms_median"]
        name = "overhead_8_vs_1" if many["phones"] == 8 else f"overhead_{many['phones']}_vs_1"
        goals.append({"name": name, "value": round(ratio, 2), "target": 1.5, "unit": "x", "better": "lower"})
        # the same in wall time, for the record: on a machine whose cores the phones' rendering shares, it also
        # counts the time the steps waited for a core
        figures["wall_overhead_ratio"] = round(many["overhead_ms_median"] / one["overhead_ms_median"], 2)
    figures["wall_s"] = round(time.perf_counter() - started, 1)
    machine = {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count()}
    print(json.dumps({"bench": "collect", "machine": machine, "figures": figures, "goals": goals}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
