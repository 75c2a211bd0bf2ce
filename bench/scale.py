"""Benchmark a team's scale: a PostgreSQL workspace grown to 10k, 100k and 1M steps, and at each size what people
do interactively and an export's throughput.

Needs a PostgreSQL server where a database may be made (ANNOTATOR_BENCH_POSTGRES_URL, else the tests'
ANNOTATOR_TEST_POSTGRES_URL); without one it says so and measures nothing. Rows only: trajectories of 1-12 steps
(mean ~5.3, as Mobile-R1's), 28 apps, 60 % accepted and fully labelled (think, action, tool call, verdict, a
label revision each, a review), the rest across the other review states; every screenshot is one of 8 small PNGs.
The workspace grows in place, ANALYZEd at each size, where each measure is the median of --repeats after one
warm-up:
- the browser's first page and its counts (`storage.browse.fetch_page`, `summarize`), and a page filtered by app
  and review state;
- a person's queue (`services.team.person_queue`), `annotator stats` (`services.stats.dataset_stats`: its warm-up
  counts the trajectories grown since the last size, which the kept counts hold from then on), and a label save
  followed by `stats` (`save_then_stats`: the stats count that trajectory again);
- opening a trajectory (`storage.trajectories.load_trajectory`) and saving a label (`storage.labels.update_label`);
- `annotator db check`'s rows (`storage.integrity.check`; the 8 blob files cost nothing);
- an SFT export of one app's accepted steps (`trainer-bridge export --format jsonl --app`), steps per second.
Goals: each interactive measure under 500 ms at the largest size, and the export's throughput there within 1.5x of
its throughput at the smallest. The growth ratio (largest / smallest) of each is printed too.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import common
from common import run_in_workdir
from sqlalchemy import create_engine, insert
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from annotator.services import team
from annotator.services.stats import dataset_stats
from annotator.storage import browse, integrity, labels, models
from annotator.storage.collection import blob_row
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

SIZES = (10_000, 100_000, 1_000_000)
QUICK_SIZES = (2_000, 10_000, 40_000)
APPS = [f"应用{n:02d}" for n in range(28)]
PEOPLE = (("小王", "annotator"), ("张审核", "reviewer"), ("主管", "admin"))
REVIEW_STATES = ["accepted"] * 12 + ["annotated"] * 2 + ["in_progress"] * 2 + ["unlabelled"] * 3 + ["rejected"]
CHUNK = 20_000  # steps per insert round: memory stays flat
INTERACTIVE = ("first_page", "counts", "filtered_page", "queue", "stats", "open", "save", "save_then_stats", "db_check")
INTERACTIVE_MS = 500.0


def log(*parts: object) -> None:
    print("[bench scale]", *parts, file=sys.stderr, flush=True)


def server_url() -> str | None:
    return os.environ.get("ANNOTATOR_BENCH_POSTGRES_URL") or os.environ.get("ANNOTATOR_TEST_POSTGRES_URL") or None


class Grower:
    """Adds rows to reach a number of steps; remembers where it is."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace, self.rng = workspace, random.Random(31)
        self.steps = self.trajectories = 0
        self.screens: list[str] = []

    def start(self) -> None:
        db, blobs = self.workspace.database, self.workspace.blobs
        for name, role in PEOPLE:
            team.add_person(self.workspace, name, role, by="主管" if name != "主管" else None)
        rows = []
        for seed in range(8):
            png = common.render_screen(seed, 270, 600)
            self.screens.append(blobs.put_bytes(png).sha256)
            rows.append(blob_row(self.screens[-1], len(png), "image/png", (270, 600)))
        with db.engine.begin() as connection:
            connection.execute(insert(models.Blob), rows)
            connection.execute(insert(models.App), [{"id": n + 1, "name": name} for n, name in enumerate(APPS)])
            instructions = [
                {"id": n + 1, "uid": f"i-{n}", "app_id": n % len(APPS) + 1, "text": f"在{APPS[n % len(APPS)]}做 {n}"}
                for n in range(3000)
            ]
            connection.execute(insert(models.Instruction), instructions)

    def grow_to(self, target: int) -> None:
        while self.steps < target:
            self._chunk(min(CHUNK, target - self.steps))
            log(f"  {self.steps:,} steps")
        with self.workspace.database.engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE")

    def _chunk(self, steps: int) -> None:
        rng, made = self.rng, {"trajectories": [], "steps": [], "revisions": [], "reviews": []}
        while steps > 0:
            length = min(steps, max(1, min(12, round(rng.gauss(5.3, 2.2)))))
            self._trajectory(length, made)
            steps -= length
        with self.workspace.database.engine.begin() as connection:
            for table, key in (
                (models.Trajectory, "trajectories"),
                (models.Step, "steps"),
                (models.LabelRevision, "revisions"),
                (models.Review, "reviews"),
            ):
                if made[key]:
                    connection.execute(insert(table), made[key])

    def _trajectory(self, length: int, made: dict[str, list[dict[str, Any]]]) -> None:
        self.trajectories += 1
        t, review = self.trajectories, self.rng.choice(REVIEW_STATES)
        made["trajectories"].append(
            {
                "id": t,
                "uid": f"t-{t}",
                "instruction_id": self.rng.randint(1, 3000),
                "run_number": 1 + t // 3000,
                "collector_kind": "agent",
                "agent_model": "qwen2.5-vl-7b",
                "status": "complete",
                "outcome": "success",
                "review_status": review,
                "label_outcome": "success" if review != "unlabelled" else None,
            }
        )
        labelled = review not in ("unlabelled",)
        for index in range(length):
            self.steps += 1
            last = index == length - 1
            call = (
                {"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}
                if last
                else {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [100 + index, 300]}}
            )
            step = {
                "id": self.steps,
                "trajectory_id": t,
                "index": index,
                "screen_width": 270,
                "screen_height": 600,
                "screenshot_sha256": self.screens[self.steps % 8],
                "raw_tool_call": call,
                "raw_action": call["arguments"]["action"],
                "think": None,
                "action_text": None,
                "tool_call": None,
                "label_action": None,
                "verdict": None,
                "label_version": 0,
            }  # every row the same keys (executemany)
            if labelled:
                action = call["arguments"]["action"]
                step |= {
                    "think": f"第 {index} 步，目标在屏幕上方",
                    "action_text": "点击目标",
                    "tool_call": call,
                    "label_action": action,
                    "verdict": "correct",
                    "label_version": 1,
                }
                made["revisions"].append(
                    {
                        "step_id": self.steps,
                        "trajectory_id": t,
                        "field": "think",
                        "person_id": 1,
                        "new_value": step["think"],
                    }
                )
            made["steps"].append(step)
        if review in ("accepted", "rejected"):
            made["reviews"].append({"trajectory_id": t, "status": review, "reviewer_id": 2, "comment": "好"})


def timed(repeats: int, action: Callable[[], object]) -> float:
    action()  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 1)


def measure_size(workspace: Workspace, grower: Grower, url: str, work: Path, repeats: int) -> dict[str, Any]:
    db = workspace.database
    middle_trajectory, step_id = grower.trajectories // 2, grower.steps // 2
    saves = iter(range(10**9))

    def save() -> None:
        labels.update_label(db, step_id, {"think": f"改 {next(saves)}"}, person="小王")

    figures = {
        "first_page": timed(repeats, lambda: browse.fetch_page(db, browse.BrowseFilter(), browse.Sort())),
        "counts": timed(repeats, lambda: browse.summarize(db, browse.BrowseFilter())),
        "filtered_page": timed(
            repeats,
            lambda: browse.fetch_page(db, browse.BrowseFilter(app_id=5, review_status="annotated"), browse.Sort()),
        ),
        "queue": timed(repeats, lambda: team.person_queue(workspace, "小王")),
        "stats": timed(repeats, lambda: dataset_stats(db)),
        "open": timed(repeats, lambda: load_trajectory(db, middle_trajectory)),
        "save": timed(repeats, save),
        "save_then_stats": timed(repeats, lambda: (save(), dataset_stats(db))),
        "db_check": timed(repeats, lambda: integrity.check(db, workspace.blobs)),
    }
    return figures | {"export_steps_per_s": export_rate(url, work)}


def export_rate(url: str, work: Path) -> float:
    """Steps per second of an SFT export of one app's accepted steps (about 1/28 of the workspace's)."""
    from click.testing import CliRunner

    from trainer_bridge.cli.root import cli

    out = work / f"export-{uuid.uuid4().hex[:6]}"
    args = ["export", "--stage", "sft", "--format", "jsonl", "--app", APPS[3], "--out", str(out)]
    started = time.perf_counter()
    result = CliRunner().invoke(cli, [*args, "--data-dir", str(work / "ws"), "--db", url], catch_exceptions=False)
    seconds = time.perf_counter() - started
    if result.exit_code != 0:
        raise RuntimeError(result.output)
    rows = sum(1 for path in out.rglob("*.jsonl") for _ in path.open(encoding="utf-8"))
    return round(rows / seconds, 1)


def goals(by_size: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    sizes = sorted(by_size)
    smallest, largest = by_size[sizes[0]], by_size[sizes[-1]]
    found = [
        {
            "name": f"{key}_ms_at_{sizes[-1]}",
            "value": largest[key],
            "target": INTERACTIVE_MS,
            "unit": "ms",
            "better": "lower",
        }
        for key in INTERACTIVE
    ]
    slowdown = smallest["export_steps_per_s"] / largest["export_steps_per_s"]
    found.append(
        {
            "name": "export_throughput_smallest_vs_largest",
            "value": round(slowdown, 2),
            "target": 1.5,
            "unit": "x",
            "better": "lower",
        }
    )
    return found


def run_sizes(work: Path, base: str, sizes: tuple[int, ...], repeats: int) -> dict[str, Any]:
    name = f"bench_scale_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = make_url(base).set(database=name).render_as_string(hide_password=False)
    try:
        with Workspace.open(work / "ws", url) as workspace:
            grower = Grower(workspace)
            grower.start()
            by_size = {}
            for size in sizes:
                started = time.perf_counter()
                grower.grow_to(size)
                log(f"{size:,} steps in {grower.trajectories:,} trajectories ({time.perf_counter() - started:.0f} s)")
                by_size[size] = measure_size(workspace, grower, url, work, repeats)
                log(by_size[size])
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
    growth = {key: round(by_size[sizes[-1]][key] / max(by_size[sizes[0]][key], 0.1), 1) for key in INTERACTIVE}
    return {
        "sizes": {str(size): figures for size, figures in by_size.items()},
        "growth_largest_vs_smallest": growth,
        "by_size": by_size,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SIZES} steps instead of {SIZES} (a smoke run)")
    parser.add_argument("--sizes", type=lambda text: tuple(int(n) for n in text.split(",")))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(argv)
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    base = server_url()

    def run(work: Path) -> dict[str, Any]:
        if base is None:
            log("no PostgreSQL server: set ANNOTATOR_BENCH_POSTGRES_URL (a superuser's URL); nothing measured")
            return {
                "bench": "scale",
                "machine": common.machine(),
                "figures": {"skipped": "no PostgreSQL server"},
                "goals": [],
            }
        figures = run_sizes(work, base, sizes, args.repeats)
        by_size = figures.pop("by_size")
        return {"bench": "scale", "machine": common.machine(), "figures": figures, "goals": goals(by_size)}

    return run_in_workdir("scale", args.workdir, args.keep, run, log)


if __name__ == "__main__":
    sys.exit(main())
