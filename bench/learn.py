"""Benchmark learning: how fast the tiny model learns the demo's labelled steps on this machine, and how good it gets.

From scratch: the demo workspace (`annotator demo --no-gui`; its shortest accepted trajectory, 6 steps; `--full`:
all 4, 28 steps), then the demo's own loop (`DemoLoop`: export with `--preset tiny`, `tiny-sft`, `tiny-grpo` from it,
offline evaluations of the untrained model, the SFT result and the GRPO result), each step a `trainer-bridge`
command. Then each SFT checkpoint is evaluated in order: the wall time to the first one at 0.9 step accuracy or more
is counted from the SFT run's start (its events.jsonl). Goals: accuracy 0.9 or more after SFT and after GRPO, none
before, and, with `--full` only, that time within 5 minutes (set for the demo's 28 steps: on 6 it is a figure, not a
goal). Prints one JSON object last.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from common import machine, run_in_workdir

from annotator.demo.workspace.build import build_demo, demo_db_url
from annotator.demo.workspace.loop import EVALUATED, DemoLoop
from annotator.storage import evaluations
from annotator.storage.database import open_database
from annotator.storage.workspace import Workspace

GOAL_SECONDS, GOAL_ACCURACY, UNTRAINED_AT_MOST = 300, 0.9, 0.1


def log(message: str) -> None:
    print(f"[bench learn] {message}", file=sys.stderr, flush=True)


def keep_only_shortest_accepted(data_dir: Path) -> None:
    """Without --full: the shortest accepted trajectory stays accepted, the others go back to awaiting review."""
    from annotator.domain.trajectory import ReviewStatus
    from annotator.storage import labels
    from annotator.storage.selection import TrajectorySelection, selected_ids
    from annotator.storage.trajectories import load_trajectory

    with Workspace.open(data_dir, demo_db_url(data_dir)) as workspace:
        db = workspace.database
        accepted = selected_ids(db, TrajectorySelection(review_states=("accepted",)))
        steps = {key: len(load_trajectory(db, key).executed) for key in accepted}
        for trajectory_id in sorted(steps, key=steps.__getitem__)[1:]:
            labels.set_review(db, trajectory_id, ReviewStatus.ANNOTATED, reviewer="bench")


def accuracies(data_dir: Path) -> dict[str, float]:
    database = open_database(demo_db_url(data_dir), migrate=False)
    try:
        found = {e.name: e for e in evaluations.list_evaluations(database, "offline") if e.status == "complete"}
    finally:
        database.dispose()
    return {name: float(found[name].summary["step_accuracy"]) for name, _, _ in EVALUATED if name in found}


def online_success(data_dir: Path) -> dict[str, Any] | None:
    """The trained agent on the virtual phone over the trained tasks: done and claimed, and tail success (done)."""
    from annotator.demo.workspace.loop import ONLINE_NAME

    database = open_database(demo_db_url(data_dir), migrate=False)
    try:
        found = [e for e in evaluations.list_evaluations(database, "online") if e.name == ONLINE_NAME]
    finally:
        database.dispose()
    summary = found[-1].summary if found and found[-1].summary else None
    return {key: summary.get(key) for key in ("claimed_and_done", "tail_success", "rollouts")} if summary else None


def checkpoint_accuracy(data_dir: Path, checkpoint: Path, export: Path) -> float:
    command = [
        sys.executable,
        "-m",
        "trainer_bridge",
        "eval",
        "--model-path",
        str(checkpoint),
        "--export",
        str(export),
        "--name",
        f"bench: {checkpoint.name}",
        "--max-new-tokens",
        "128",
        "--new",
        "--json",
        "--data-dir",
        str(data_dir),
        "--db",
        demo_db_url(data_dir),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return float(json.loads(done.stdout.strip().splitlines()[-1])["summary"]["step_accuracy"])


def seconds_to_learned(data_dir: Path, run: Path, export: Path) -> tuple[float | None, list[dict[str, Any]]]:
    """The wall time from the SFT run's start to its first checkpoint at GOAL_ACCURACY, and every checkpoint seen."""
    events = [json.loads(line) for line in (run / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    started = datetime.fromisoformat(next(e["time"] for e in events if e["event"] == "start"))
    saved = {e["step"]: datetime.fromisoformat(e["time"]) for e in events if e["event"] == "checkpoint"}
    seen = []
    for step in sorted(saved):
        accuracy = checkpoint_accuracy(data_dir, run / f"checkpoint-{step}", export)
        elapsed = (saved[step] - started).total_seconds()
        seen.append({"step": step, "seconds": round(elapsed, 1), "step_accuracy": accuracy})
        log(f"checkpoint {step} at {elapsed:.0f} s: step accuracy {accuracy:.3f}")
        if accuracy >= GOAL_ACCURACY:
            return elapsed, seen
    return None, seen


def measure(work: Path, full: bool) -> dict[str, Any]:
    data_dir = work / "demo"
    built = build_demo(data_dir, trajectories=12, seed=0)
    if not full:
        keep_only_shortest_accepted(data_dir)
    log(f"demo built in {built.seconds} s")
    loop = DemoLoop(
        data_dir,
        lambda progress: log(f"{progress.step}: {progress.state}"),
        settings=("save_steps=100", "save_total_limit=100"),
    )
    report = loop.run()
    found = accuracies(data_dir)
    untrained, after_sft, after_grpo = (found.get(name) for name, _, _ in EVALUATED)
    learned_s, checkpoints = seconds_to_learned(data_dir, loop.paths.run("tiny-sft"), loop.paths.exports["grpo-action"])
    figures = {
        "loop_s": report.total_s,
        "steps_s": report.seconds,
        "untrained_step_accuracy": untrained,
        "sft_step_accuracy": after_sft,
        "grpo_step_accuracy": after_grpo,
        "sft_checkpoints": checkpoints,
        "seconds_to_0.9": learned_s,
        "online": online_success(data_dir),
    }
    timed = {
        "name": "seconds_to_0.9_step_accuracy",
        "value": round(learned_s, 1) if learned_s is not None else None,
        "target": GOAL_SECONDS,
        "unit": "s",
        "better": "lower",
    }
    goals = [timed] if full else []
    goals += [
        {"name": "sft_step_accuracy", "value": after_sft, "target": GOAL_ACCURACY, "unit": "", "better": "higher"},
        {"name": "grpo_step_accuracy", "value": after_grpo, "target": GOAL_ACCURACY, "unit": "", "better": "higher"},
        {
            "name": "untrained_step_accuracy",
            "value": untrained,
            "target": UNTRAINED_AT_MOST,
            "unit": "",
            "better": "lower",
        },
    ]
    return {"bench": "learn", "machine": machine() | {"full": full}, "figures": figures, "goals": goals}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="The default's size: learning is not measured in less.")
    parser.add_argument(
        "--full", action="store_true", help="The demo's 4 trajectories (28 steps) and the time goal: 6-11 minutes."
    )
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--keep", action="store_true", help="Keep the work folder.")
    given = parser.parse_args()
    return run_in_workdir("learn", given.workdir, given.keep, lambda work: measure(work, given.full), log)


if __name__ == "__main__":
    sys.exit(main())
