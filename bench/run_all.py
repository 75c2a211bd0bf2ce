"""Every benchmark in one go: runs each bench/*.py, writes bench/results.json and prints one table against the goals.

Each bench runs in its own process with a timeout; its last stdout line is its JSON object (DESIGN.md section 6).
A goal not met prints a line starting `MISSED`, a bench that crashed, timed out or printed no JSON one starting
`FAILED`; the exit status is 1 when there is either.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
QUICK_TIMEOUT_S = 600
FULL_TIMEOUT_S = 3600


@dataclass
class BenchRun:
    """One bench's outcome: its JSON object, or why there is none."""

    name: str
    wall_s: float
    result: dict[str, Any] | None = None
    failure: str | None = None


def bench_scripts(folder: Path = BENCH_DIR) -> list[Path]:
    """The benches: scripts with a `--quick` option. Helpers (common.py, the child processes of gui.py and
    judge.py, this script) have none, so a new bench is picked up without a list to keep."""
    return [
        script
        for script in sorted(folder.glob("*.py"))
        if script.name != Path(__file__).name and '"--quick"' in script.read_text(encoding="utf-8")
    ]


def last_json_line(stdout: str) -> dict[str, Any]:
    """The bench's result: its last stdout line, a JSON object with figures and goals (ValueError otherwise)."""
    lines = stdout.strip().splitlines()
    if not lines:
        raise ValueError("printed nothing")
    result = json.loads(lines[-1])
    if not isinstance(result, dict) or not {"figures", "goals"} <= result.keys():
        raise ValueError("its last line is not a JSON object with figures and goals")
    return result


def run_bench(script: Path, quick: bool, timeout_s: float) -> BenchRun:
    command = [sys.executable, str(script), *(["--quick"] if quick else [])]
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, cwd=BENCH_DIR.parent)
    except subprocess.TimeoutExpired:
        return BenchRun(script.stem, time.monotonic() - started, failure=f"timed out after {timeout_s:.0f} s")
    wall_s = time.monotonic() - started
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return BenchRun(script.stem, wall_s, failure=f"exit status {done.returncode}: {last}")
    try:
        return BenchRun(script.stem, wall_s, result=last_json_line(done.stdout))
    except ValueError as error:
        return BenchRun(script.stem, wall_s, failure=str(error))


def goal_met(goal: dict[str, Any]) -> bool:
    if goal["better"] == "lower":
        return bool(goal["value"] <= goal["target"])
    if goal["better"] == "higher":
        return bool(goal["value"] >= goal["target"])
    raise ValueError(f"goal {goal['name']}: 'better' is {goal['better']!r}, not 'lower' or 'higher'")


def _number(value: Any) -> str:
    return str(round(value, 4)) if isinstance(value, float) else str(value)


def report_lines(runs: list[BenchRun]) -> list[str]:
    """One table row per goal (bench, goal, value, target, met), then a MISSED line per goal not met and a
    FAILED line per bench that gave no result."""
    rows = [("bench", "goal", "value", "target", "unit", "met")]
    missed = []
    for run in runs:
        for goal in (run.result or {}).get("goals", []):
            met = goal_met(goal)
            sign = "<=" if goal["better"] == "lower" else ">="
            value, target = _number(goal["value"]), f"{sign} {_number(goal['target'])}"
            rows.append((run.name, goal["name"], value, target, goal.get("unit", ""), "yes" if met else "NO"))
            if not met:
                missed.append(f"MISSED {run.name}.{goal['name']}: {value} (goal {target})")
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    table = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    failed = [f"FAILED {run.name}: {run.failure}" for run in runs if run.failure]
    return table + missed + failed


def results_document(runs: list[BenchRun], machine: dict[str, Any], quick: bool) -> dict[str, Any]:
    """What bench/results.json holds: the machine, when, and per bench its wall time and figures or failure."""
    benches = {}
    for run in runs:
        entry: dict[str, Any] = {"wall_s": round(run.wall_s, 2)}
        if run.result is not None:
            entry |= {key: run.result.get(key) for key in ("machine", "figures", "goals")}
        benches[run.name] = entry
    failures = {run.name: run.failure for run in runs if run.failure}
    when = datetime.now(UTC).isoformat(timespec="seconds")
    return {"when": when, "quick": quick, "machine": machine, "benches": benches, "failures": failures}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="each bench with --quick (about 10 minutes in all)")
    parser.add_argument("--only", help="comma-separated bench names (default: all)")
    parser.add_argument(
        "--timeout", type=float, help=f"seconds per bench (default {QUICK_TIMEOUT_S} quick, else {FULL_TIMEOUT_S})"
    )
    parser.add_argument("--out", type=Path, default=BENCH_DIR / "results.json", help="where the results go")
    args = parser.parse_args(argv)
    timeout_s = args.timeout or (QUICK_TIMEOUT_S if args.quick else FULL_TIMEOUT_S)
    scripts = bench_scripts()
    if args.only:
        wanted = set(args.only.split(","))
        scripts = [script for script in scripts if script.stem in wanted]
    runs = []
    for script in scripts:
        print(f"running {script.name}…", file=sys.stderr, flush=True)
        runs.append(run_bench(script, args.quick, timeout_s))
        print(
            f"  {runs[-1].wall_s:.1f} s{'' if runs[-1].failure is None else ': ' + runs[-1].failure}", file=sys.stderr
        )
    import common  # bench/common.py, beside this script

    document = results_document(runs, common.machine(), args.quick)
    args.out.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    lines = report_lines(runs)
    print("\n".join(lines))
    return 1 if any(line.startswith(("MISSED", "FAILED")) for line in lines) else 0


if __name__ == "__main__":
    sys.exit(main())
