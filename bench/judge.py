"""Benchmark judge runs: trajectories judged per second at concurrency 1, 8 and 32 against a loopback
endpoint that answers after a fixed delay, as a fraction of the ideal (concurrency / delay).

Builds a workspace of trajectories with real 1080x2400 PNG screenshots through the app's own write path
(and, as collection does, the judge's copies of them: docs/adr/0004-judge-screens-made-at-collection.md),
starts an OpenAI-compatible endpoint in a child process (bench/judge_endpoint.py, so that its work does not
share this process's GIL) that reads each request fully and answers after `--delay` seconds, and runs the
real `JudgeRunner` with the real openai client. With `--full` it also shows where the time over the delay goes:
concurrency 32 with the screenshots unprepared, unscaled and left out, and the parts of judging one trajectory one
after the other. Prints one JSON object (docs/architecture.md#benchmarks) last.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import json
import os
import random
import shutil
import statistics
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import common
from common import HEIGHT, WIDTH, render_screen, run_in_workdir, with_text_chunk
from judge_endpoint import endpoint_process, endpoint_stats

CONCURRENCIES = (1, 8, 32)
TARGET = 0.9

log = functools.partial(print, "[bench judge]", file=sys.stderr, flush=True)


# -------------------------------------------------------------------------------------------- the workspace


def tool_call(rng: random.Random, index: int, count: int) -> dict[str, Any]:
    if index == count - 1:
        return {"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}
    point = [rng.randrange(WIDTH), rng.randrange(300, HEIGHT - 200)]
    return {"name": "mobile_use", "arguments": {"action": "click", "coordinate": point}}


def build_workspace(folder: Path, trajectories: int, steps: int, pool_size: int) -> tuple[Any, list[int], int]:
    """(open workspace, trajectory ids, mean screenshot bytes), written through annotator.storage.collection.

    The judge's copies are made as collection makes them (`ScreenCache.prepare` after each step, on a thread of
    its own), here on every core: the same files in about half the time on 2 cores (the build is not timed)."""
    from annotator.domain.geometry import ScreenSize
    from annotator.judge.screens import workspace_screens
    from annotator.storage.workspace import Workspace

    pool = [render_screen(seed) for seed in range(pool_size)]
    workspace = Workspace.open(folder)
    screens, rng, ids = workspace_screens(workspace), random.Random(7), []
    preparing: list[Future[None]] = []
    with ThreadPoolExecutor(os.cpu_count() or 1) as copies:
        for number in range(trajectories):
            trajectory, shots = write_trajectory(workspace, pool, number, steps, rng)
            ids.append(trajectory)
            preparing += [copies.submit(screens.prepare, shot, ScreenSize(WIDTH, HEIGHT)) for shot in shots]
            while len(preparing) > 4 * steps:  # a few trajectories ahead at most, so few screenshots wait
                preparing.pop(0).result()
            if (number + 1) % 50 == 0:
                log(f"  {number + 1}/{trajectories} trajectories")
        for future in preparing:
            future.result()
    return workspace, ids, round(statistics.mean(map(len, pool)))


def write_trajectory(workspace: Any, pool: list[bytes], number: int, steps: int, rng: random.Random) -> tuple:
    """Trajectory `number`, each step's screenshot one of `pool` made unique: (its id, its screenshots)."""
    from annotator.domain.trajectory import CollectorKind, Outcome, TrajectoryStatus
    from annotator.storage import collection

    db, shots = workspace.database, []
    collector = collection.Collector(CollectorKind.AGENT, agent_model="bench-agent")
    instruction = collection.add_instruction(db, "Shopping", f"Find order {number} and open its receipt")
    trajectory = collection.start_trajectory(db, instruction, collector, settings={"max_steps": 25})
    for index in range(steps):
        call = tool_call(rng, index, steps)
        reply = f"<think>\nStep {index}: the list is open.\n</think>\n<tool_call>\n{json.dumps(call)}\n</tool_call>"
        shots.append(with_text_chunk(pool[(number + index) % len(pool)], f"trajectory {number} step {index}"))
        observation = collection.Observation(shots[-1], call, package="com.bench.shop", model_reply=reply)
        collection.record_step(db, workspace.blobs, trajectory, observation)
    collection.finish_trajectory(db, trajectory, TrajectoryStatus.COMPLETE, Outcome.SUCCESS, stop_reason="terminate")
    return trajectory, shots


# ----------------------------------------------------------------------------------------------- measuring


def settings_for(seed: int, images: Any = None) -> Any:
    """A judge configuration of its own per measurement (the seed is in its fingerprint): nothing is skipped."""
    from annotator.domain.judge_settings import ImagePolicy, JudgeSettings, builtin_prompt

    return JudgeSettings(
        "mobile-r1", builtin_prompt("mobile-r1"), "bench-judge", seed=seed, images=images or ImagePolicy()
    )


def variants() -> dict[str, Any]:
    """More runs at concurrency 32 over the same trajectories: `unprepared`, the default image policy with the
    judge's copies deleted first (screenshots that collection did not prepare: imported ones, or those of
    another policy), each screenshot decoded and scaled during the run; screenshots sent as stored (no decoding,
    scaling or re-encoding); none at all (the runner, the client and the database alone)."""
    from annotator.domain.judge_settings import ImagePolicy

    return {
        "unprepared": ImagePolicy(),
        "unscaled": ImagePolicy(max_side=None),
        "no_images": ImagePolicy(initial=False, after_each_step=False),
    }


def judge_at(workspace: Any, ids: list[int], concurrency: int, settings: Any, base_url: str) -> dict[str, Any]:
    from annotator.judge.runner import JudgeRunner
    from annotator.llm.client import LLMConfig

    runner = JudgeRunner(workspace, settings, LLMConfig(base_url=base_url, model="bench-judge"))
    cpu = time.process_time()
    summary = runner.run(ids, concurrency=concurrency)
    cpu = time.process_time() - cpu
    if summary.status != "complete" or summary.scored != len(ids):
        raise SystemExit(f"the run at concurrency {concurrency} did not score everything: {summary}")
    return {"trajectories": len(ids), "seconds": summary.seconds, "cpu_seconds": cpu}


class Stopwatch:
    """Milliseconds per named part, appended each time a part runs."""

    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = {}

    @contextlib.contextmanager
    def part(self, name: str):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        try:
            yield
        finally:
            self.ms.setdefault(name, []).append((time.perf_counter() - started) * 1000)

    def medians(self) -> dict[str, float]:
        return {f"{name}_ms": round(statistics.median(values), 2) for name, values in self.ms.items()}


def image_steps(data: bytes, size: Any, watch: Stopwatch) -> None:
    """The steps of `annotator.imaging.resize.resized_png` and the data URL for one screenshot, each timed."""
    from annotator.imaging.decode import decoded
    from annotator.imaging.encode import png_bytes
    from annotator.imaging.resize import resized

    with watch.part("decode"):
        image = decoded(data)
    with watch.part("scale"):
        scaled = resized(image, size)
    with watch.part("encode_png"):
        png = png_bytes(scaled)
    with watch.part("base64"):
        base64.b64encode(png)


def parts_of_one(workspace: Any, ids: list[int], base_url: str, seed: int) -> dict[str, float]:
    """Medians, one trajectory after another, of each part of what `JudgeRunner._judge_one` does, with the
    functions it calls: load, messages (of which `image_urls`: the screenshots, scaled without the cache), the
    request (of which the JSON body), storing the score; and per screenshot, the steps of scaling it."""
    from annotator.judge import messages as judge
    from annotator.judge.screens import ScreenCache
    from annotator.llm.client import LLMClient, LLMConfig
    from annotator.storage import judging
    from annotator.storage.trajectories import load_trajectory

    db, settings, watch, per_image = workspace.database, settings_for(seed), Stopwatch(), Stopwatch()
    config_id = judging.ensure_config(db, settings)
    run_id = judging.start_run(db, config_id, base_url, 1, {}, len(ids))
    image_ms: list[float] = []
    shown: list[tuple[bytes, Any]] = []

    class TimedScreens(ScreenCache):
        def png(self, sha256: str, original: Any, size: Any) -> bytes:
            started = time.perf_counter()
            try:
                return super().png(sha256, original, size)
            finally:
                image_ms.append((time.perf_counter() - started) * 1000)
                shown.append((workspace.blobs.read_bytes(sha256), size))

    screens = TimedScreens(workspace.blobs, None)  # no cache: the cost of a screenshot never scaled before
    with LLMClient(LLMConfig(base_url=base_url, model="bench-judge", seed=seed)) as client:
        for trajectory_id in ids:
            with watch.part("load"):
                trajectory = load_trajectory(db, trajectory_id)
            image_ms.clear()
            with watch.part("messages"):
                judged = judge.judged_trajectory(trajectory)
                messages, count, _ = judge.build_judge_messages(judged, settings.prompt_text, settings.images, screens)
            watch.ms.setdefault("image_urls", []).append(sum(image_ms))
            with watch.part("request_json"):
                body = json.dumps({"model": "bench-judge", "messages": messages})
            with watch.part("request"):
                reply = client.complete(messages)
            record = judging.ScoreRecord(3, "ok", reply.text, None, dict(reply.usage), reply.latency_ms, count)
            with watch.part("store"):
                judging.save_score(db, config_id, run_id, trajectory_id, record)
    for data, size in shown:
        image_steps(data, size, per_image)
    parts = watch.medians() | {f"per_image_{name}": value for name, value in per_image.medians().items()}
    parts["request_kib"] = round(len(body) / 1024, 1)
    return parts


# ----------------------------------------------------------------------------------------------- the report


def machine() -> dict[str, Any]:
    import openai
    import PIL

    info = common.machine() | {"openai": openai.__version__, "pillow": PIL.__version__}
    with contextlib.suppress(AttributeError, OSError):
        info["usable_cpus"] = len(os.sched_getaffinity(0))
    return info


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run (delay 1 s, 2 trajectories a slot)")
    parser.add_argument("--delay", type=float, help="seconds the endpoint holds each reply (default 2; 1 quick)")
    parser.add_argument(
        "--trajectories-per-slot",
        type=int,
        help="trajectories judged per unit of concurrency, at least 8 a measurement (default 8, so that the first "
        "round of requests, built at once, weighs little more than in a long run; 2 with --quick)",
    )
    parser.add_argument("--steps", type=int, default=5, help="steps (and screenshots) per trajectory (default 5)")
    parser.add_argument(
        "--full",
        action="store_true",
        help="also where the time goes: c32 with screenshots unprepared, unscaled and none, and the parts of one "
        "trajectory (about 1.5 minutes more; no goals)",
    )
    parser.add_argument("--workdir", type=Path, help="where the work folder goes (default: system temp)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (the workspace)")
    args = parser.parse_args(argv)
    args.delay = args.delay if args.delay is not None else (1.0 if args.quick else 2.0)
    args.trajectories_per_slot = args.trajectories_per_slot or (2 if args.quick else 8)
    if args.delay <= 0 or args.trajectories_per_slot < 1 or args.steps < 1:
        parser.error("--delay must be above 0, --trajectories-per-slot and --steps at least 1")
    return args


def count_for(concurrency: int, per_slot: int) -> int:
    return max(8, per_slot * concurrency)


def measure(workspace: Any, ids: list[int], concurrency: int, settings: Any, root: str, delay: float) -> dict:
    """One run of `JudgeRunner` over fresh scores; the figures, keyed without their suffix."""
    result = judge_at(workspace, ids, concurrency, settings, f"{root}/v1")
    served = endpoint_stats(root)
    if served["requests"] != result["trajectories"]:
        raise SystemExit(f"the endpoint saw {served['requests']} requests for {result['trajectories']} trajectories")
    per_second = result["trajectories"] / result["seconds"]
    ideal = concurrency / delay
    log(f"  {result['seconds']:.2f} s, {per_second:.1f}/s of an ideal {ideal:.1f}/s ({per_second / ideal:.0%})")
    return {
        "trajectories": result["trajectories"],
        "seconds": round(result["seconds"], 3),
        "per_second": round(per_second, 2),
        "ideal_per_second": round(ideal, 2),
        "fraction_of_ideal": round(per_second / ideal, 3),
        "cpu_s_per_trajectory": round(result["cpu_seconds"] / result["trajectories"], 4),
        "max_in_flight": served["max_in_flight"],
        "request_kib_mean": round(served["body_bytes"] / served["requests"] / 1024, 1),
    }


def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    from annotator.imaging.kept_copies import CACHE_FOLDER
    from annotator.judge.messages import shown_screens

    started = time.perf_counter()
    counts: dict[Any, int] = {c: count_for(c, args.trajectories_per_slot) for c in CONCURRENCIES}
    counts |= {"warm_up": 2} | ({"parts": 8} if args.full else {})
    total = sum(counts.values())  # each measurement judges trajectories of its own, never judged before
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    log(f"writing {total} trajectories of {args.steps} steps in {work}")
    workspace, ids, png_bytes = build_workspace(work / "workspace", total, args.steps, pool_size=6)
    figures: dict[str, Any] = {"delay_s": args.delay, "steps_per_trajectory": args.steps}
    figures["images_per_request"] = len(shown_screens(args.steps, settings_for(0).images))
    figures |= {"trajectories_per_slot": args.trajectories_per_slot, "screenshot_bytes_mean": png_bytes}
    figures |= {"build_s": round(time.perf_counter() - started, 1), "load_average_at_start": load and round(load, 2)}
    goals, sets, start = [], {}, 0
    for key, count in counts.items():
        sets[key], start = ids[start : start + count], start + count
    with workspace, endpoint_process(args.delay) as root:
        # warm up on trajectories of their own: imports, the client, the first connection
        judge_at(workspace, sets["warm_up"], 1, settings_for(1000), f"{root}/v1")
        endpoint_stats(root)
        for seed, concurrency in enumerate(CONCURRENCIES, start=1):
            log(f"concurrency {concurrency}: judging {counts[concurrency]} trajectories")
            found = measure(workspace, sets[concurrency], concurrency, settings_for(seed), root, args.delay)
            figures |= {f"{name}_c{concurrency}": value for name, value in found.items()}
            goals.append(
                {"name": f"fraction_of_ideal_c{concurrency}", "value": found["fraction_of_ideal"], "target": TARGET}
                | {"unit": "fraction", "better": "higher"}
            )
        for seed, (variant, policy) in enumerate(variants().items() if args.full else (), start=100):
            log(f"concurrency 32, screenshots {variant.replace('_', ' ')}: the same {counts[32]} trajectories")
            if variant == "unprepared":
                shutil.rmtree(workspace.data_dir / CACHE_FOLDER, ignore_errors=True)
            found = measure(workspace, sets[32], 32, settings_for(seed, policy), root, args.delay)
            keep = ("seconds", "per_second", "fraction_of_ideal", "cpu_s_per_trajectory", "request_kib_mean")
            figures |= {f"{name}_c32_{variant}": found[name] for name in keep}
        if args.full:
            log(f"timing the parts of judging one trajectory, one after another, {counts['parts']} times")
            parts = parts_of_one(workspace, sets["parts"], f"{root}/v1", seed=2000)
            figures |= {f"one_{name}": value for name, value in parts.items()}
            figures["one_client_overhead_ms"] = round(parts["request_ms"] - args.delay * 1000, 2)
    own_ms = (figures["seconds_c1"] / figures["trajectories_c1"] - args.delay) * 1000
    figures["own_ms_per_trajectory_c1"] = round(own_ms, 1)
    figures["total_s"] = round(time.perf_counter() - started, 1)
    goals.sort(key=lambda goal: goal["name"] != "fraction_of_ideal_c32")  # the goal first
    return {"bench": "judge", "machine": machine(), "figures": figures, "goals": goals}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return run_in_workdir("judge", args.workdir, args.keep, lambda work: run(args, work), log)


if __name__ == "__main__":
    sys.exit(main())
