"""Benchmark the training scripts against the same TRL call without the bridge.

What it measures depends on the machine, and the JSON says which (`measured`):
- no GPU (`cpu-tiny`): the tiny recipes (tiny-sft, tiny-grpo) on the tiny Qwen2.5-VL built offline, on an export of
  labelled virtual-phone trajectories: optimizer steps per second of `trainer_bridge.train.sft` / `grpo_action`
  (recipe, checks, pixel limits, LoRA, events) against `SFTTrainer` / `GRPOTrainer` given the same model, data
  and settings directly. Goal: the bridge adds less than 10% (`*_bridge_overhead`).
- task-level GRPO (`tiny-grpo-task`, no TRL call to compare with: docs/adr/0007): seconds per step, and the share
  of it spent playing the rollouts on two virtual phones (generation included) rather than optimising.
- a GPU (`gpu-3b`, issue 18): Qwen2.5-VL-3B's architecture with random weights (`trainer_bridge.train.tiny`, made
  on the GPU in bf16, no download) trained with Mobile-R1's stage-1 SFT and stage-2 action-level GRPO recipes' own
  settings (`--max_steps` aside): samples (SFT) or completions (GRPO) per second and peak GPU memory, bridge
  against plain TRL. `--size small` runs the same path on the CPU with a small model (`cpu-small`, fp32, no peak
  memory) to check it where no GPU is lent; `--size tiny` asks for the CPU figures on a GPU machine.

Each side runs `--rounds` times, alternating, in this process; the best of each is kept. Prints one JSON object as
its last line (docs/architecture.md#benchmarks).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import shutil
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from common import machine, run_in_workdir
from labelled import build

from annotator.domain.model_space import default_export_space
from annotator.domain.recipes import load_recipe
from annotator.storage.workspace import Workspace
from trainer_bridge.export.run import ExportOptions, export
from trainer_bridge.train import grpo_action, grpo_task, sft
from trainer_bridge.train.common import LANGUAGE_MODULES, load_processor, read_manifest, train_split
from trainer_bridge.train.tiny import build_qwen, build_tiny_qwen

GOAL_OVERHEAD = 0.10
SETTING_KEYS = (
    "learning_rate",
    "per_device_train_batch_size",
    "gradient_accumulation_steps",
    "num_generations",
    "max_completion_length",
    "temperature",
    "beta",
    "bf16",
    "lr_scheduler_type",
    "warmup_steps",
)
SIZED_RECIPES = {"sft": "mobile-r1-stage1", "grpo-action": "mobile-r1-stage2"}  # what issue 18 asks to measure


def log(message: str) -> None:
    print(f"[bench train] {message}", file=sys.stderr, flush=True)


def plain_settings(recipe: str, steps: int, output: Path) -> dict[str, Any]:
    """The recipe's TRL settings, as a script without the bridge would write them."""
    chosen = load_recipe(recipe)
    settings = {key: chosen[key] for key in SETTING_KEYS if key in chosen}
    return settings | {
        "output_dir": str(output),
        "max_steps": steps,
        "use_cpu": True,
        "report_to": [],
        "logging_steps": 1,
        "save_strategy": "no",
    }


def sized_settings(recipe: str, config_class: Any, steps: int, output: Path, gpu: bool) -> dict[str, Any]:
    """Every TRL setting the recipe names (the keys `config_class` has; the bridge's own, like use_lora, are not
    TRL's), as a script without the bridge would copy them; bf16 only on the GPU."""
    names = {field.name for field in dataclasses.fields(config_class)}
    settings = {key: value for key, value in load_recipe(recipe).items() if key in names}
    settings |= {"output_dir": str(output), "max_steps": steps, "report_to": [], "save_strategy": "no"}
    return settings if gpu else settings | {"use_cpu": True, "bf16": False}


def plain_run(stage: str, data: Path, model: Path, settings: dict[str, Any], lora: bool = True) -> float:
    """The same training through TRL directly: seconds of `train()`. Full tuning leaves the vision tower frozen,
    as the bridge does (Mobile-R1 tunes the language side), so that both sides train the same parameters."""
    from peft import LoraConfig
    from transformers import AutoModelForImageTextToText
    from trl import GRPOConfig, GRPOTrainer, SFTConfig, SFTTrainer

    from trainer_bridge.rewards import trl_rewards

    manifest = read_manifest(str(data), stage)
    dataset = train_split(str(data), "train")
    peft: Any = None
    if lora:
        peft = LoraConfig(
            r=16, lora_alpha=32, lora_dropout=0.05, target_modules=LANGUAGE_MODULES, task_type="CAUSAL_LM"
        )
    loaded = AutoModelForImageTextToText.from_pretrained(model)
    for parameter in () if lora else loaded.model.visual.parameters():
        parameter.requires_grad = False
    if stage == "sft":
        dataset = dataset.remove_columns(
            [c for c in dataset.column_names if c not in ("prompt", "completion", "images")]
        )
        config: Any = SFTConfig(**settings, max_length=None)
        trainer: Any = SFTTrainer(
            model=loaded,
            args=config,
            train_dataset=dataset,
            peft_config=peft,
            processing_class=load_processor(str(model), manifest),
        )
    else:
        functions: Any
        functions, weights = trl_rewards("mobile-r1")
        config = GRPOConfig(**settings, reward_weights=weights)
        trainer = GRPOTrainer(
            model=loaded,
            args=config,
            train_dataset=dataset,
            reward_funcs=functions,
            peft_config=peft,
            processing_class=load_processor(str(model), manifest, padding_side="left"),
        )
    started = time.perf_counter()
    trainer.train()
    return time.perf_counter() - started


def bridge_run(
    stage: str,
    data: Path,
    model: Path,
    steps: int,
    output: Path,
    recipe: str | None = None,
    extra: tuple[str, ...] = (),
) -> float:
    """The script's whole `main` (recipe, checks, model, training, events, saving): its `train` part is timed from
    its events (start to end), the rest is load and save, which the plain run's figure leaves out too."""
    script, tiny = (sft, "tiny-sft") if stage == "sft" else (grpo_action, "tiny-grpo")
    arguments = [
        "--recipe",
        recipe or tiny,
        "--data",
        str(data),
        "--model",
        str(model),
        "--output_dir",
        str(output),
        "--max_steps",
        str(steps),
        "--save_strategy",
        "no",
        "--report_to",
        "none",
        "--resume",
        "false",
        *extra,
    ]
    if script.main(arguments) != 0:
        raise RuntimeError(f"the {stage} script failed")
    lines = [json.loads(line) for line in (output / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    start = next(line for line in lines if line["event"] == "start")
    end = next(line for line in lines if line["event"] == "end")
    return _seconds(start["time"], end["time"], lines)


def _seconds(start: str, end: str, lines: list[dict[str, Any]]) -> float:
    """The training time between the start and end events, from the trainer's own runtime where it logged one."""
    runtime = [line["train_runtime"] for line in lines if "train_runtime" in line]
    if runtime:
        return float(runtime[-1])
    from datetime import datetime

    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def task_run(data: Path, model: Path, steps: int, output: Path) -> dict[str, float]:
    """tiny-grpo-task for `steps` steps: seconds per step and the share spent in the rollouts."""
    arguments = [
        "--recipe",
        "tiny-grpo-task",
        "--data",
        str(data),
        "--model",
        str(model),
        "--output_dir",
        str(output),
        "--workspace_dir",
        str(output / "workspace"),
        "--max_steps",
        str(steps),
        "--save_strategy",
        "no",
        "--report_to",
        "none",
        "--resume",
        "false",
    ]
    if grpo_task.main(arguments) != 0:
        raise RuntimeError("the grpo_task script failed")
    lines = [json.loads(line) for line in (output / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    seconds = _seconds(lines[0]["time"], lines[-1]["time"], lines)
    rollouts = sum(line.get("rollout_seconds", 0.0) for line in lines if line["event"] == "log")
    return {
        "grpo_task_seconds_per_step": round(seconds / steps, 3),
        "grpo_task_rollout_share": round(rollouts / seconds, 3),
    }


def exported(work: Path, stages: tuple[str, ...]) -> dict[str, Path]:
    """trl exports of labelled virtual-phone steps, one per stage, images at the export's default size."""
    with Workspace.open(work / "data") as workspace:
        made = build(workspace, 40)
        exports = {stage: work / stage for stage in stages}
        for stage, folder in exports.items():
            export(workspace, ExportOptions(stage, "trl", folder, default_export_space()))
    log(f"{made} labelled steps exported")
    return exports


def measure(work: Path, steps: int, rounds: int) -> dict[str, Any]:
    exports = exported(work, ("sft", "grpo-action", "grpo-task"))
    log("building the tiny model")
    model = build_tiny_qwen(work / "tiny")
    figures: dict[str, Any] = {"steps": steps}
    goals = []
    for stage in ("sft", "grpo-action"):
        bridge_run(stage, exports[stage], model, 1, work / f"warm-{stage}")  # first-call costs paid by neither side
        plain, bridged = [], []
        for round_ in range(rounds):
            settings = plain_settings(
                "tiny-sft" if stage == "sft" else "tiny-grpo", steps, work / f"plain-{stage}-{round_}"
            )
            lora = bool(load_recipe("tiny-sft" if stage == "sft" else "tiny-grpo").get("use_lora", True))
            plain.append(plain_run(stage, exports[stage], model, settings, lora))
            bridged.append(bridge_run(stage, exports[stage], model, steps, work / f"bridge-{stage}-{round_}"))
            log(f"{stage} round {round_ + 1}: TRL {plain[-1]:.2f} s, bridge {bridged[-1]:.2f} s for {steps} steps")
        name = stage.replace("-", "_")
        overhead = min(bridged) / min(plain) - 1
        figures |= {
            f"{name}_trl_steps_per_s": round(steps / min(plain), 3),
            f"{name}_bridge_steps_per_s": round(steps / min(bridged), 3),
            f"{name}_bridge_overhead": round(overhead, 4),
        }
        goals.append(
            {
                "name": f"{name}_bridge_overhead",
                "value": round(100 * overhead, 1),
                "target": 100 * GOAL_OVERHEAD,
                "unit": "%",
                "better": "lower",
            }
        )
    figures |= task_run(exports["grpo-task"], model, steps, work / "task")
    share = figures["grpo_task_rollout_share"]
    log(f"grpo-task: {figures['grpo_task_seconds_per_step']} s per step, {share:.0%} rollouts")
    return {"bench": "train", "machine": described(), "measured": "cpu-tiny", "figures": figures, "goals": goals}


def described() -> dict[str, Any]:
    import torch

    gpu = torch.cuda.is_available()
    return machine() | {"torch": torch.__version__, "gpu": torch.cuda.get_device_name() if gpu else gpu}


def peak_gib(run: Any, gpu: bool) -> tuple[float, float | None]:
    """`run()`'s seconds, and the GPU memory it held at its peak (GiB; None without a GPU), from a clean start:
    the last run's model and optimiser freed, the counter reset."""
    import torch

    gc.collect()
    if not gpu:
        return run(), None
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    seconds = run()
    return seconds, round(torch.cuda.max_memory_allocated() / 2**30, 2)


def measure_sized(work: Path, size: str, steps: int, rounds: int) -> dict[str, Any]:
    """SFT (stage 1) and action-level GRPO (stage 2) on a model of `size`, with the recipes' settings."""
    import torch
    from trl import GRPOConfig, SFTConfig

    gpu = torch.cuda.is_available()
    exports = exported(work, tuple(SIZED_RECIPES))
    log(f"building the {size} model ({'bf16 on the GPU' if gpu else 'fp32 on the CPU'})")
    made = build_qwen(work / size, size, "cuda" if gpu else "cpu", torch.bfloat16 if gpu else torch.float32)
    on_cpu = () if gpu else ("--use_cpu", "true", "--bf16", "false")  # the recipes' bf16 is for the GPU
    figures: dict[str, Any] = {"size": size, "steps": steps, "recipes": SIZED_RECIPES, "bf16": gpu}
    goals = []
    for stage, recipe in SIZED_RECIPES.items():
        chosen = load_recipe(recipe)
        lora = chosen.get("use_lora", True)  # the bridge's default
        config_class = SFTConfig if stage == "sft" else GRPOConfig
        warm = work / f"warm-{stage}"  # first-call costs (CUDA kernels, imports) paid by neither side
        bridge_run(stage, exports[stage], made, 1, warm, recipe, on_cpu)
        shutil.rmtree(warm)  # a full-tuned 3B saves 7.5 GB a run: the disk would not hold them all
        plain: list[tuple[float, float | None]] = []
        bridged: list[tuple[float, float | None]] = []
        for round_ in range(rounds):
            out = work / f"plain-{stage}-{round_}"
            settings = sized_settings(recipe, config_class, steps, out, gpu)
            plain.append(peak_gib(partial(plain_run, stage, exports[stage], made, settings, lora), gpu))
            out = work / f"bridge-{stage}-{round_}"
            bridged.append(peak_gib(partial(bridge_run, stage, exports[stage], made, steps, out, recipe, on_cpu), gpu))
            shutil.rmtree(out)
            peaks = f" (peak {plain[-1][1]} and {bridged[-1][1]} GiB)" if gpu else ""
            log(
                f"{stage} round {round_ + 1}: TRL {plain[-1][0]:.1f} s, bridge {bridged[-1][0]:.1f} s for {steps} "
                f"steps{peaks}"
            )
        figures |= sized_figures(stage, chosen, steps, plain, bridged)
        name = stage.replace("-", "_")
        goals.append(
            {
                "name": f"{name}_bridge_overhead",
                "value": round(100 * figures[f"{name}_bridge_overhead"], 1),
                "target": 100 * GOAL_OVERHEAD,
                "unit": "%",
                "better": "lower",
            }
        )
    measured = f"{'gpu' if gpu else 'cpu'}-{size}"
    return {"bench": "train", "machine": described(), "measured": measured, "figures": figures, "goals": goals}


def sized_figures(stage: str, recipe: dict[str, Any], steps: int, plain: list[Any], bridged: list[Any]) -> dict:
    """Per side: samples/s (SFT: batch x accumulation x steps), or completions generated/s and optimiser steps/s
    (GRPO: TRL generates `steps_per_generation` micro-batches at once, so a run generates whole batches of them);
    the best round's seconds and the highest peak; the bridge's overhead on the best seconds."""
    batch, accumulation = recipe["per_device_train_batch_size"], recipe["gradient_accumulation_steps"]
    name = stage.replace("-", "_")
    figures: dict[str, Any] = {}
    for side, runs in (("trl", plain), ("bridge", bridged)):
        seconds = min(run[0] for run in runs)
        peaks = [run[1] for run in runs if run[1] is not None]
        figures[f"{name}_{side}_peak_gpu_gib"] = max(peaks) if peaks else None
        if stage == "sft":
            figures[f"{name}_{side}_samples_per_s"] = round(batch * accumulation * steps / seconds, 3)
            continue
        per_generation = recipe.get("steps_per_generation", accumulation)
        generated = math.ceil(steps * accumulation / per_generation) * per_generation * batch
        figures[f"{name}_{side}_completions_per_s"] = round(generated / seconds, 3)
        figures[f"{name}_{side}_steps_per_s"] = round(steps / seconds, 4)
    best_plain, best_bridge = min(run[0] for run in plain), min(run[0] for run in bridged)
    return figures | {f"{name}_bridge_overhead": round(best_bridge / best_plain - 1, 4)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 steps, one round: under a minute or two.")
    parser.add_argument("--steps", type=int, help="Optimizer steps per run (default 12; 4 with --quick).")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--keep", action="store_true", help="Keep the work folder.")
    parser.add_argument(
        "--size",
        choices=("tiny", "small", "3b"),
        help="The model: 3b where a GPU exists, tiny (the tiny recipes) otherwise; small runs the "
        "3B's path (stage-1/2 recipes) on a small model, on the CPU too.",
    )
    parser.add_argument(
        "--gpu-only",
        action="store_true",
        help="Without a GPU, say so and measure nothing (run_all's default: on 2 CPU cores the "
        "tiny figures take ~20 minutes and vary more from run to run than the 10%% goal).",
    )
    given = parser.parse_args()
    steps = given.steps or (4 if given.quick else 12)
    rounds = 1 if given.quick else 2
    import torch

    if given.gpu_only and not torch.cuda.is_available():
        log("no GPU and --gpu-only: nothing measured (without --gpu-only it measures the CPU path, cpu-tiny)")
        skipped = {"bench": "train", "machine": described(), "measured": None, "figures": {"skipped": "no GPU"}}
        print(json.dumps(skipped | {"goals": []}))
        return 0
    size = given.size or ("3b" if torch.cuda.is_available() else "tiny")
    if size == "3b" and not torch.cuda.is_available():
        parser.error("--size 3b needs a GPU (its 7.5 GB of bf16 weights are made there); try --size small")
    if size == "tiny":
        return run_in_workdir("train", given.workdir, given.keep, lambda work: measure(work, steps, rounds), log)
    return run_in_workdir(
        "train", given.workdir, given.keep, lambda work: measure_sized(work, size, steps, rounds), log
    )


if __name__ == "__main__":
    sys.exit(main())
