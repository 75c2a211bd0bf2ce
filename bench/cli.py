"""Benchmark the command line's start: `annotator --help` and `--version` against `python -c "import click"`.

Each command is a new process, as a user starts it; the commands are run in turn, round after round, so that
a busy machine slows them alike, and each figure is the median of its rounds. `annotator db info` (on a fresh
workspace) and `trainer-bridge --help` are reported beside them. Prints one JSON object as its last line
(docs/architecture.md#benchmarks).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from common import machine, run_in_workdir

BIN = Path(sys.executable).parent


def log(message: str) -> None:
    print(f"[bench cli] {message}", file=sys.stderr, flush=True)


def script(name: str) -> list[str]:
    """The installed console script, as a user types it (the module through this Python when not installed)."""
    installed = BIN / name
    return [str(installed)] if installed.exists() else [sys.executable, "-m", name.replace("-", "_")]


def commands(data_dir: Path) -> dict[str, list[str]]:
    return {
        "bare_click": [sys.executable, "-c", "import click"],
        "help": [*script("annotator"), "--help"],
        "version": [*script("annotator"), "--version"],
        "db_info": [*script("annotator"), "--data-dir", str(data_dir), "db", "info"],
        "bridge_help": [*script("trainer-bridge"), "--help"],
    }


def timed_ms(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return (time.perf_counter() - started) * 1000


def measure(work: Path, repeats: int) -> dict[str, Any]:
    runs = commands(work / "data")
    subprocess.run([*script("annotator"), "--data-dir", str(work / "data"), "db", "upgrade"], check=True)
    for command in runs.values():  # warm the page cache and the bytecode cache, untimed
        subprocess.run(command, check=True, capture_output=True)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for round_number in range(repeats):
        for name, command in runs.items():
            times[name].append(timed_ms(command))
        log(f"round {round_number + 1}/{repeats}: " + ", ".join(f"{n} {t[-1]:.0f} ms" for n, t in times.items()))
    figures: dict[str, Any] = {f"{name}_ms": round(statistics.median(found), 1) for name, found in times.items()}
    for name in ("help", "version", "db_info"):
        figures[f"{name}_vs_bare_click"] = round(figures[f"{name}_ms"] / figures["bare_click_ms"], 2)
    return figures | {"repeats": repeats}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 rounds, about 15 s")
    parser.add_argument("--repeats", type=int, help="rounds (default 20; 5 with --quick)")
    parser.add_argument("--workdir", type=Path, help="where the work folder goes (default: system temp)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args(argv)
    repeats = args.repeats or (5 if args.quick else 20)

    def run(work: Path) -> dict[str, Any]:
        figures = measure(work, repeats)
        goal = {"name": "cli_help_vs_bare_click", "value": figures["help_vs_bare_click"], "target": 3}
        goals = [goal | {"unit": "x", "better": "lower"}]
        return {"bench": "cli", "machine": machine(), "figures": figures, "goals": goals}

    return run_in_workdir("cli", args.workdir, args.keep, run, log)


if __name__ == "__main__":
    sys.exit(main())
