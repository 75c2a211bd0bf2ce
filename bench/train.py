"""Benchmark the training scripts against the same TRL call without the bridge.

What it measures depends on the machine, and the JSON says which (`measured`):
- no GPU (`cpu-tiny`): the tiny recipes (tiny-sft, tiny-grpo) on the tiny Qwen2.5-VL built offline, on an export of
  labelled virtual-phone trajectories: optimizer steps per second of `trainer_bridge.train.sft` / `grpo_action`
  (recipe, checks, pixel limits, LoRA, events) against `SFTTrainer` / `GRPOTrainer` given the same model, data
  and settings directly. Goal: the bridge adds less than 10% (`*_bridge_overhead`).
- task-level GRPO (`tiny-grpo-task`, no TRL call to compare with: docs/adr/0007): seconds per step, and the share
  of it spent playing the rollouts on two virtual phones (generation included) rather than optimising.
- a GPU is not measured yet: a Qwen2.5-VL-3B-sized configuration with random weights is the next step (issue 18).

Each side runs `--rounds` times, alternating, in this process; the best of each is kept. Prints one JSON object as
its last line (DESIGN.md section 6).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from common import machine, run_in_workdir
from labelled import build

from annotator.domain.model_space import default_export_space
from annotator.storage.workspace import Workspace
from trainer_bridge.export.run import ExportOptions, export
from trainer_bridge.train import grpo_action, grpo_task, sft
from trainer_bridge.train.common import LANGUAGE_MODULES, load_processor, read_manifest, train_split
from trainer_bridge.train.recipes import load_recipe
from trainer_bridge.train.tiny import build_tiny_qwen

GOAL_OVERHEAD = 0.10
SETTING_KEYS = ("learning_rate", "per_device_train_batch_size", "gradient_accumulation_steps", "num_generations",
                "max_completion_length", "temperature", "beta")  # fmt: skip


def log(message: str) -> None:
    print(f"[bench train] {message}", file=sys.stderr, flush=True)


def plain_settings(recipe: str, steps: int, output: Path) -> dict[str, Any]:
    """The recipe's TRL settings, as a script without the bridge would write them."""
    chosen = load_recipe(recipe)
    settings = {key: chosen[key] for key in SETTING_KEYS if key in chosen}
    return settings | {"output_dir": str(output), "max_steps": steps, "use_cpu": True, "report_to": [],
                       "logging_steps": 1, "save_strategy": "no"}  # fmt: skip


def plain_run(stage: str, data: Path, model: Path, steps: int, output: Path) -> float:
    """The same training through TRL directly: seconds of `train()`."""
    from peft import LoraConfig
    from transformers import AutoModelForImageTextToText
    from trl import GRPOConfig, GRPOTrainer, SFTConfig, SFTTrainer

    from trainer_bridge.rewards import trl_rewards

    manifest = read_manifest(str(data), stage)
    dataset = train_split(str(data), "train")
    lora = LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05, target_modules=LANGUAGE_MODULES, task_type="CAUSAL_LM")
    loaded = AutoModelForImageTextToText.from_pretrained(model)
    if stage == "sft":
        dataset = dataset.remove_columns(
            [c for c in dataset.column_names if c not in ("prompt", "completion", "images")]
        )
        config = SFTConfig(**plain_settings("tiny-sft", steps, output), max_length=None)
        trainer: Any = SFTTrainer(model=loaded, args=config, train_dataset=dataset, peft_config=lora,
                                  processing_class=load_processor(str(model), manifest))  # fmt: skip
    else:
        functions, weights = trl_rewards("mobile-r1")
        config = GRPOConfig(**plain_settings("tiny-grpo", steps, output), reward_weights=weights)
        trainer = GRPOTrainer(model=loaded, args=config, train_dataset=dataset, reward_funcs=functions,
                              peft_config=lora, processing_class=load_processor(str(model), manifest,
                                                                                padding_side="left"))  # fmt: skip
    started = time.perf_counter()
    trainer.train()
    return time.perf_counter() - started


def bridge_run(stage: str, data: Path, model: Path, steps: int, output: Path) -> float:
    """The script's whole `main` (recipe, checks, model, training, events, saving): its `train` part is timed from
    its events (start to end), the rest is load and save, which the plain run's figure leaves out too."""
    import json

    script, recipe = (sft, "tiny-sft") if stage == "sft" else (grpo_action, "tiny-grpo")
    arguments = ["--recipe", recipe, "--data", str(data), "--model", str(model), "--output_dir", str(output),
                 "--max_steps", str(steps), "--save_strategy", "no", "--report_to", "none",
                 "--resume", "false"]  # fmt: skip
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
    import json

    arguments = ["--recipe", "tiny-grpo-task", "--data", str(data), "--model", str(model), "--output_dir",
                 str(output), "--workspace_dir", str(output / "workspace"), "--max_steps", str(steps),
                 "--save_strategy", "no", "--report_to", "none", "--resume", "false"]  # fmt: skip
    if grpo_task.main(arguments) != 0:
        raise RuntimeError("the grpo_task script failed")
    lines = [json.loads(line) for line in (output / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    seconds = _seconds(lines[0]["time"], lines[-1]["time"], lines)
    rollouts = sum(line.get("rollout_seconds", 0.0) for line in lines if line["event"] == "log")
    return {
        "grpo_task_seconds_per_step": round(seconds / steps, 3),
        "grpo_task_rollout_share": round(rollouts / seconds, 3),
    }


def measure(work: Path, steps: int, rounds: int) -> dict[str, Any]:
    import torch

    with Workspace.open(work / "data") as workspace:
        made = build(workspace, 40)
        exports = {stage: work / stage for stage in ("sft", "grpo-action", "grpo-task")}
        for stage, folder in exports.items():
            export(workspace, ExportOptions(stage, "trl", folder, default_export_space()))
    log(f"{made} labelled steps exported; building the tiny model")
    model = build_tiny_qwen(work / "tiny")
    figures: dict[str, Any] = {"steps": steps}
    goals = []
    for stage in ("sft", "grpo-action"):
        bridge_run(stage, exports[stage], model, 1, work / f"warm-{stage}")  # first-call costs paid by neither side
        plain, bridged = [], []
        for round_ in range(rounds):
            plain.append(plain_run(stage, exports[stage], model, steps, work / f"plain-{stage}-{round_}"))
            bridged.append(bridge_run(stage, exports[stage], model, steps, work / f"bridge-{stage}-{round_}"))
            log(f"{stage} round {round_ + 1}: TRL {plain[-1]:.2f} s, bridge {bridged[-1]:.2f} s for {steps} steps")
        name = stage.replace("-", "_")
        overhead = min(bridged) / min(plain) - 1
        figures |= {f"{name}_trl_steps_per_s": round(steps / min(plain), 3),
                    f"{name}_bridge_steps_per_s": round(steps / min(bridged), 3),
                    f"{name}_bridge_overhead": round(overhead, 4)}  # fmt: skip
        goals.append({"name": f"{name}_bridge_overhead", "value": round(100 * overhead, 1),
                      "target": 100 * GOAL_OVERHEAD, "unit": "%", "better": "lower"})  # fmt: skip
    figures |= task_run(exports["grpo-task"], model, steps, work / "task")
    log(
        f"grpo-task: {figures['grpo_task_seconds_per_step']} s per step, {figures['grpo_task_rollout_share']:.0%} rollouts"
    )
    gpu = torch.cuda.is_available()
    measured = "cpu-tiny" if not gpu else "cpu-tiny (a GPU is present; the 3B-sized run is not written yet)"
    return {"bench": "train", "machine": machine() | {"torch": torch.__version__, "gpu": gpu}, "measured": measured,
            "figures": figures, "goals": goals}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 steps, one round: under a minute or two.")
    parser.add_argument("--steps", type=int, help="Optimizer steps per run (default 12; 4 with --quick).")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--keep", action="store_true", help="Keep the work folder.")
    given = parser.parse_args()
    steps = given.steps or (4 if given.quick else 12)
    rounds = 1 if given.quick else 2
    return run_in_workdir("train", given.workdir, given.keep, lambda work: measure(work, steps, rounds), log)


if __name__ == "__main__":
    sys.exit(main())
