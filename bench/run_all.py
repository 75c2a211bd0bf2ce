"""Every benchmark in one go: runs each bench/*.py, writes bench/results.json and prints one table against the goals.

Each bench runs in its own process with a timeout; its last stdout line is its JSON (docs/architecture.md#benchmarks).
Without a flag each bench runs at its default size, the size where its goals are judged (BENCH_ARGS adds what a
bench needs for that): a goal not met prints a line starting `MISSED`. With `--quick` each bench runs at its smoke
size, where fixed costs weigh more than the goals allow for: the goals are not judged, a goal not met prints
`smoke` in the table and a line starting `SMOKE`. A bench that crashed, timed out or printed no JSON prints a line
starting `FAILED` either way; the exit status is 1 when there is a `MISSED` or a `FAILED` line.
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
DEFAULT_TIMEOUT_S = 1200
# What a run without --quick adds to a bench's own arguments (bench/README.md, `run_all.py`, says why per bench).
BENCH_ARGS: dict[str, tuple[str, ...]] = {
    "scale": ("--sizes", "10000,100000"),  # 1M steps take ~15 minutes to grow and time; 100k shows the growth
    "store": ("--no-zip",),  # the zip round (~40 s) has no goal
    "train": ("--gpu-only",),  # without a GPU: 20 minutes of CPU figures whose noise is wider than the goal
}


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


def bench_command(script: Path, quick: bool) -> list[str]:
    """The bench's command line: `--quick`, or the arguments of its default run (BENCH_ARGS)."""
    extra = ("--quick",) if quick else BENCH_ARGS.get(script.stem, ())
    return [sys.executable, str(script), *extra]


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
    started = time.monotonic()
    try:
        done = subprocess.run(
            bench_command(script, quick), capture_output=True, text=True, timeout=timeout_s, cwd=BENCH_DIR.parent
        )
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
    """Whether the goal's value reaches its target; a value of None (nothing reached it, as learn's time to an
    accuracy never attained) is not met."""
    if goal["value"] is None:
        return False
    if goal["better"] == "lower":
        return bool(goal["value"] <= goal["target"])
    if goal["better"] == "higher":
        return bool(goal["value"] >= goal["target"])
    raise ValueError(f"goal {goal['name']}: 'better' is {goal['better']!r}, not 'lower' or 'higher'")


def _number(value: Any) -> str:
    return str(round(value, 4)) if isinstance(value, float) else str(value)


def report_lines(runs: list[BenchRun], smoke: bool = False) -> list[str]:
    """One table row per goal (bench, goal, value, target, met), then a line per goal not met (`MISSED`, or
    `SMOKE` for a smoke run: not judged), a SKIPPED line per bench that measured nothing here (no PostgreSQL
    server, no GPU: its figures say why) and a FAILED line per bench that gave no result."""
    rows = [("bench", "goal", "value", "target", "unit", "met")]
    missed = []
    for run in runs:
        for goal in (run.result or {}).get("goals", []):
            met = goal_met(goal)
            sign = "<=" if goal["better"] == "lower" else ">="
            value, target = _number(goal["value"]), f"{sign} {_number(goal['target'])}"
            verdict = "yes" if met else "smoke" if smoke else "NO"
            rows.append((run.name, goal["name"], value, target, goal.get("unit", ""), verdict))
            if not met:
                missed.append(f"{'SMOKE' if smoke else 'MISSED'} {run.name}.{goal['name']}: {value} (goal {target})")
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    table = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    if smoke:
        table.insert(0, "--quick: smoke sizes; the goals are set for the default sizes and not judged here")
    skipped = [
        f"SKIPPED {run.name}: {run.result['figures']['skipped']}"
        for run in runs
        if run.result is not None and isinstance(run.result["figures"], dict) and "skipped" in run.result["figures"]
    ]
    failed = [f"FAILED {run.name}: {run.failure}" for run in runs if run.failure]
    return table + missed + skipped + failed


def exit_status(lines: list[str]) -> int:
    """1 when a goal was missed (never at smoke sizes: those lines start SMOKE) or a bench failed."""
    return 1 if any(line.startswith(("MISSED", "FAILED")) for line in lines) else 0


def results_document(runs: list[BenchRun], machine: dict[str, Any], quick: bool) -> dict[str, Any]:
    """What bench/results.json holds: the machine, when, whether the goals were judged (not at --quick, smoke
    sizes), the total and per bench its wall time and figures or failure."""
    benches = {}
    for run in runs:
        entry: dict[str, Any] = {"wall_s": round(run.wall_s, 2)}
        if run.result is not None:
            entry |= {key: run.result.get(key) for key in ("machine", "figures", "goals")}
        benches[run.name] = entry
    failures = {run.name: run.failure for run in runs if run.failure}
    when = datetime.now(UTC).isoformat(timespec="seconds")
    total_s = round(sum(run.wall_s for run in runs), 1)
    return {
        "when": when,
        "quick": quick,
        "goals_judged": not quick,
        "total_s": total_s,
        "machine": machine,
        "benches": benches,
        "failures": failures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="each bench with --quick: a smoke run, goals not judged (~6 minutes)"
    )
    parser.add_argument("--only", help="comma-separated bench names (default: all)")
    parser.add_argument(
        "--timeout", type=float, help=f"seconds per bench (default {QUICK_TIMEOUT_S} quick, else {DEFAULT_TIMEOUT_S})"
    )
    parser.add_argument("--out", type=Path, default=BENCH_DIR / "results.json", help="where the results go")
    args = parser.parse_args(argv)
    timeout_s = args.timeout or (QUICK_TIMEOUT_S if args.quick else DEFAULT_TIMEOUT_S)
    scripts = bench_scripts()
    if args.only:
        wanted = set(args.only.split(","))
        scripts = [script for script in scripts if script.stem in wanted]
    runs = []
    for script in scripts:
        print(
            f"running {' '.join([script.name, *bench_command(script, args.quick)[2:]])}…", file=sys.stderr, flush=True
        )
        runs.append(run_bench(script, args.quick, timeout_s))
        print(
            f"  {runs[-1].wall_s:.1f} s{'' if runs[-1].failure is None else ': ' + runs[-1].failure}", file=sys.stderr
        )
    import common  # bench/common.py, beside this script

    document = results_document(runs, common.machine(), args.quick)
    args.out.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    lines = report_lines(runs, smoke=args.quick)
    print("\n".join(lines))
    print(f"{len(runs)} benches in {document['total_s']:.0f} s", file=sys.stderr)
    return exit_status(lines)


if __name__ == "__main__":
    sys.exit(main())
