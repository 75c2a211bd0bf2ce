"""Benchmark offline evaluation: steps per second of `trainer-bridge eval` against the endpoint's own rate.

A workspace of accepted virtual-phone trajectories (every instruction's solution, copied until there are 300
steps; 100 with --quick), with the screenshots' copies at the export's size made first, as collection makes
them. The scripted endpoint runs in a child process (`annotator scripted-endpoint serve`), so that its work does
not share this process's GIL. Reference: the same requests, built beforehand, sent by the same openai client at
the same concurrency: what the endpoint itself can answer. Measured: a whole offline evaluation (selecting,
loading, building each request and its images, asking, scoring, storing, the summary with its bootstrap
intervals). Goal: the evaluation adds less than 10% to the endpoint's time. Prints one JSON object last.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from common import machine, run_in_workdir
from labelled import build

from annotator.domain.model_space import default_export_space
from annotator.imaging.kept_copies import CACHE_FOLDER
from annotator.llm.client import LLMClient, LLMConfig
from annotator.storage.selection import TrajectorySelection
from annotator.storage.workspace import Workspace
from trainer_bridge.evaluate.offline import EvalJob, EvalSettings, OfflineEvaluation, step_records
from trainer_bridge.evaluate.policy import image_url_parts, with_images
from trainer_bridge.export.grpo import grpo_action_sample
from trainer_bridge.export.images import ExportImages

GOAL_OVERHEAD = 0.10
CONCURRENCY = 4


def log(message: str) -> None:
    print(f"[bench eval] {message}", file=sys.stderr, flush=True)


def requests(workspace: Workspace, settings: EvalSettings) -> list[list[dict[str, Any]]]:
    """Every step's request, images inlined, as the evaluation sends them; makes the kept copies on the way."""
    # kept where collection keeps them, so the evaluation reads them as it would in a real workspace
    images = ExportImages(workspace.blobs, workspace.data_dir, "blur", workspace.data_dir / CACHE_FOLDER, workers=1)
    built = []
    for record in step_records(workspace, TrajectorySelection()):
        sample = grpo_action_sample(record, settings.space, settings.history_images, settings.prompt_variant)
        built.append(with_images(sample.prompt, image_url_parts([images.make(ref) for ref in sample.images])))
    images.close()
    return built


def endpoint_seconds(base_url: str, built: list[list[dict[str, Any]]]) -> float:
    with LLMClient(LLMConfig(base_url, "scripted", max_retries=0)) as client:
        started = time.perf_counter()
        with ThreadPoolExecutor(CONCURRENCY) as pool:
            list(pool.map(client.complete, built))
        return time.perf_counter() - started


def evaluation_seconds(workspace: Workspace, base_url: str, settings: EvalSettings, run: int) -> tuple[float, Any]:
    from trainer_bridge.evaluate.policy import EndpointPolicy

    policy = EndpointPolicy(LLMConfig(base_url, "scripted", max_retries=0))
    job = EvalJob(f"bench-{run}", settings, TrajectorySelection(), concurrency=CONCURRENCY, resume=False)
    started = time.perf_counter()
    result = OfflineEvaluation(workspace, policy, job).run()
    seconds = time.perf_counter() - started
    policy.close()
    return seconds, result


def serve_endpoint() -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-c", "from annotator.cli.root import main; main()", "scripted-endpoint", "serve"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    return process, line.split(" at ")[1].split()[0]


def measure(work: Path, steps: int, rounds: int) -> dict[str, Any]:
    settings = EvalSettings(default_export_space())
    with Workspace.open(work / "data") as workspace:
        made = build(workspace, steps)
        log(f"{made} steps stored; making the requests and the screenshots' copies")
        built = requests(workspace, settings)
        process, base_url = serve_endpoint()
        try:
            endpoint_seconds(base_url, built[:20])  # warm both sides
            reference, measured = [], []
            for run in range(rounds):
                reference.append(endpoint_seconds(base_url, built))
                seconds, result = evaluation_seconds(workspace, base_url, settings, run)
                measured.append(seconds)
                log(
                    f"round {run + 1}: endpoint {reference[-1]:.2f} s, evaluation {seconds:.2f} s "
                    f"({result.answered} answered, accuracy {result.summary['step_accuracy']:.3f})"
                )
        finally:
            process.terminate()
            process.wait()
    best_reference, best = min(reference), min(measured)
    overhead = best / best_reference - 1
    figures = {
        "steps": len(built),
        "endpoint_s": round(best_reference, 3),
        "evaluation_s": round(best, 3),
        "endpoint_steps_per_s": round(len(built) / best_reference, 1),
        "evaluation_steps_per_s": round(len(built) / best, 1),
        "overhead": round(overhead, 4),
    }
    goal = {
        "name": "evaluation_overhead",
        "value": round(100 * overhead, 1),
        "target": 100 * GOAL_OVERHEAD,
        "unit": "%",
        "better": "lower",
    }
    return {"bench": "eval", "machine": machine() | {"concurrency": CONCURRENCY}, "figures": figures, "goals": [goal]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 steps, one round: under a minute.")
    parser.add_argument("--steps", type=int, help="Steps to evaluate (default 300; 100 with --quick).")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--keep", action="store_true", help="Keep the work folder.")
    given = parser.parse_args()
    steps = given.steps or (100 if given.quick else 300)
    rounds = 1 if given.quick else 3
    return run_in_workdir("eval", given.workdir, given.keep, lambda work: measure(work, steps, rounds), log)


if __name__ == "__main__":
    sys.exit(main())
