"""Benchmark agent collection on the virtual phone with the scripted endpoint: per-step time split into
observe / decide (of which the model) / act / record, and the app's own overhead per step, that is the
step's time minus what the phone (observe, act) and the model's API took.

Prints one JSON object as its last line (DESIGN.md section 6).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from annotator.collect.agent import AgentDecider
from annotator.collect.session import CollectionRun, Settings, Task
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import all_instructions
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.device.adb import adb_client
from annotator.device.android import AndroidDevice
from annotator.domain.trajectory import CollectorKind
from annotator.llm.client import LLMClient, LLMConfig
from annotator.storage import collection
from annotator.storage.workspace import Workspace

PARTS = ("observe_total", "decide", "model", "act", "record", "total")


def overhead_ms(timings: dict[str, float]) -> float:
    """Everything but the phone and the model: prompt building, parsing, recording, the loop itself."""
    return timings["total"] - timings["observe_total"] - timings["act"] - timings["model"]


def collect(count: int, folder: Path) -> tuple[list[dict[str, float]], list[str]]:
    phone = VirtualPhone(serial="bench-1")
    packages = {app.label: package for package, app in phone.apps.items()}
    instructions = [item for item in all_instructions() if item.uid.startswith(("settings", "shop"))][:count]
    timings: list[dict[str, float]] = []
    outcomes: list[str] = []
    with (
        VirtualAdbServer([phone]) as server,
        ScriptedEndpoint(seed=1) as endpoint,
        Workspace.open(folder / "workspace") as workspace,
    ):
        device = AndroidDevice(adb_client(port=server.port), phone.serial)
        client = LLMClient(LLMConfig(base_url=endpoint.base_url, model="scripted"))
        collector = collection.Collector(CollectorKind.AGENT, agent_model="scripted", agent_endpoint=endpoint.base_url)
        for instruction in instructions:
            phone.reset()
            row = collection.add_instruction(workspace.database, instruction.app, instruction.text)
            decider = AgentDecider(client)
            run = CollectionRun(workspace, device, decider, settings=Settings(), packages=packages)
            result = run.start(Task(row, instruction.text, instruction.app), collector)
            decider.close()
            timings += result.timings_ms
            outcomes.append(f"{instruction.uid}: {result.status} {result.outcome} after {result.steps} steps")
    return timings, outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 instructions, under a minute")
    parser.add_argument("--instructions", type=int, help="how many instructions to run (default 10; 3 with --quick)")
    args = parser.parse_args(argv)
    count = args.instructions or (3 if args.quick else 10)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-collect-") as folder:
        timings, outcomes = collect(count, Path(folder))
    figures: dict[str, Any] = {"instructions": count, "steps": len(timings)}
    figures |= {f"{part}_ms_median": round(statistics.median(t[part] for t in timings), 1) for part in PARTS}
    overheads = [overhead_ms(t) for t in timings]
    figures |= {"overhead_ms_median": round(statistics.median(overheads), 1)}
    figures |= {"overhead_ms_p90": round(sorted(overheads)[int(0.9 * (len(overheads) - 1))], 1)}
    figures |= {"wall_s": round(time.perf_counter() - started, 1), "runs": outcomes}
    goals = [{"name": "overhead_ms_per_step", "value": figures["overhead_ms_median"], "target": 50.0}]
    goals[0] |= {"unit": "ms", "better": "lower"}
    machine = {"platform": platform.platform(), "python": platform.python_version()}
    print(json.dumps({"bench": "collect", "machine": machine, "figures": figures, "goals": goals}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
