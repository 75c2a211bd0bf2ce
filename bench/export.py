"""Benchmark the SFT export: a Mobile-R1-sized workspace (25,000 steps) in each format, steps per second,
against the time to copy the same screenshot bytes.

Builds a workspace through the app's write path (`annotator.storage.collection`, labels through
`annotator.storage.labels.apply_label_changes`, every trajectory accepted): trajectories of 1 to 12 steps
(mean ~5.3, as Mobile-R1's 24,521 steps in 4,635 trajectories), 28 apps, each step a distinct 1092x2408
PNG screenshot (rendered phone screens made unique by a `tEXt` chunk). 1092x2408 is what Qwen2.5-VL's
smart_resize makes of a 1080x2400 phone: exported as it is, the screenshots need no resizing (`as_stored`);
with `--image-scale 0.5` (Mobile-R1's halved screenshots) each is decoded, resized and encoded (`resized`).
The reference is copying every screenshot blob of the workspace to a new folder. Prints one JSON object last.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from common import machine, render_screen, run_in_workdir, with_text_chunk

FORMATS = ("jsonl", "llamafactory", "easyr1", "trl")
APPS = [f"应用{number:02d}" for number in range(28)]
TARGETS = {"as_stored": 1.5, "resized": 3.0}
log = functools.partial(print, "[bench export]", file=sys.stderr, flush=True)


def trajectory_lengths(steps: int, rng: random.Random) -> list[int]:
    """Lengths 1-12 with a mean near Mobile-R1's 5.3, adding up to `steps`."""
    lengths: list[int] = []
    while sum(lengths) < steps:
        lengths.append(min(steps - sum(lengths), max(1, min(12, round(rng.gauss(5.3, 2.2))))))
    return lengths


def click(rng: random.Random) -> dict[str, Any]:
    return {
        "name": "mobile_use",
        "arguments": {"action": "click", "coordinate": [rng.randrange(1080), rng.randrange(300, 2200)]},
    }


def build_workspace(folder: Path, steps: int, pool_size: int) -> Any:
    """The workspace, written through annotator.storage; every step labelled, every trajectory accepted."""
    from annotator.domain.trajectory import CollectorKind, Outcome, ReviewStatus, TrajectoryStatus
    from annotator.storage import collection, labels, models
    from annotator.storage.workspace import Workspace

    pool = [render_screen(seed, 1092, 2408) for seed in range(pool_size)]
    workspace, rng = Workspace.open(folder), random.Random(11)
    db, written = workspace.database, 0
    collector = collection.Collector(CollectorKind.HUMAN, person="采集员")
    for number, length in enumerate(trajectory_lengths(steps, rng)):
        app = APPS[number % len(APPS)]
        instruction = collection.add_instruction(db, app, f"在{app}里完成第 {number} 个任务")
        trajectory = collection.start_trajectory(db, instruction, collector)
        for index in range(length):
            call = click(rng) if index < length - 1 else {
                "name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}  # fmt: skip
            screen = with_text_chunk(pool[(number + index) % pool_size], f"trajectory {number} step {index}")
            step_id = collection.record_step(db, workspace.blobs, trajectory, collection.Observation(screen, call))
            with db.session() as session, session.begin():
                row = session.get(models.Step, step_id)
                changes = {"think": f"当前在第 {index} 步，下一步点击目标", "action_text": "点击目标",
                           "tool_call": call, "verdict": "correct"}  # fmt: skip
                labels.apply_label_changes(session, row, changes, None)
            written += 1
        collection.finish_trajectory(db, trajectory, TrajectoryStatus.COMPLETE, Outcome.SUCCESS)
        labels.set_review(db, trajectory, ReviewStatus.ACCEPTED, reviewer="审核员")
        if number % 500 == 0:
            log(f"  {written}/{steps} steps")
    return workspace


def copy_blobs(workspace: Any, target: Path) -> tuple[float, int]:
    """Seconds to copy every screenshot blob (the reference), and the bytes copied."""
    from sqlalchemy import select

    from annotator.storage import models

    with workspace.database.session() as session:
        hashes = list(session.scalars(select(models.Step.screenshot_sha256).distinct()))
    target.mkdir(parents=True)
    os.sync()
    started, size = time.perf_counter(), 0
    for sha in hashes:
        source = workspace.blobs.path(sha)
        shutil.copyfile(source, target / sha)
        size += source.stat().st_size
    return time.perf_counter() - started, size


def export_once(workspace: Any, fmt: str, out: Path, scale: float) -> tuple[float, int]:
    from annotator.domain.model_space import model_space
    from trainer_bridge.export.run import ExportOptions, export

    options = ExportOptions("sft", fmt, out, model_space("qwen2.5-vl", image_scale=scale))
    os.sync()
    started = time.perf_counter()
    tally = export(workspace, options)
    return time.perf_counter() - started, tally.samples["train"]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 steps instead of 25,000")
    parser.add_argument("--steps", type=int, help="steps in the workspace (default 25,000; 1,000 with --quick)")
    parser.add_argument("--formats", default=",".join(FORMATS), help=f"comma-separated (default {','.join(FORMATS)})")
    parser.add_argument("--images", default="as_stored,resized", help="as_stored, resized or both (default both)")
    parser.add_argument("--workdir", type=Path, help="where the work folder goes (default: system temp)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args(argv)
    args.steps = args.steps or (1000 if args.quick else 25000)
    args.formats = [name for name in args.formats.split(",") if name]
    if unknown := set(args.formats) - set(FORMATS):
        parser.error(f"unknown formats: {', '.join(sorted(unknown))}")
    args.images = [name for name in args.images.split(",") if name]
    if unknown := set(args.images) - set(TARGETS):
        parser.error(f"unknown image modes: {', '.join(sorted(unknown))}")
    return args


def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    started = time.perf_counter()
    log(f"writing a workspace of {args.steps} steps in {work}")
    workspace = build_workspace(work / "workspace", args.steps, pool_size=8)
    figures: dict[str, Any] = {"steps": args.steps, "build_s": round(time.perf_counter() - started, 1)}
    goals = []
    with workspace:
        copy_s, size = copy_blobs(workspace, work / "copy")
        figures |= {"copy_s": round(copy_s, 3), "screenshot_mib": round(size / 2**20, 1)}
        log(f"copy of the screenshots: {copy_s:.2f} s for {size / 2**20:.0f} MiB")
        shutil.rmtree(work / "copy")  # the disk is needed for the exports
        scales = {"as_stored": 1.0, "resized": 0.5}
        for images in args.images:
            scale = scales[images]
            for fmt in args.formats:
                seconds, samples = export_once(workspace, fmt, work / f"{fmt}-{images}", scale)
                shutil.rmtree(work / f"{fmt}-{images}")
                key = f"{fmt}_{images}"
                figures |= {f"{key}_s": round(seconds, 2), f"{key}_steps_per_s": round(samples / seconds, 1)}
                figures[f"{key}_vs_copy"] = round(seconds / copy_s, 2)
                rate = samples / seconds
                log(f"{fmt}, {images}: {seconds:.1f} s, {rate:.0f} steps/s, {seconds / copy_s:.1f}x the copy")
                goals.append({"name": f"{key}_vs_copy", "value": figures[f"{key}_vs_copy"], "target": TARGETS[images],
                              "unit": "ratio", "better": "lower"})  # fmt: skip
    figures["total_s"] = round(time.perf_counter() - started, 1)
    return {"bench": "export", "machine": machine(), "figures": figures, "goals": goals}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return run_in_workdir("export", args.workdir, args.keep, lambda work: run(args, work), log)


if __name__ == "__main__":
    sys.exit(main())
