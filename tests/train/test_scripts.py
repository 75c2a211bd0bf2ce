"""The training scripts on the CPU with the tiny Qwen2.5-VL built offline, on real exports of labelled virtual-phone
trajectories: SFT and action-level GRPO run, checkpoint, resume, and write their events; bad inputs are one line."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from safetensors.torch import load_file

from annotator.domain.recipes import SCRIPTS, load_recipe, recipe_names, recipe_path
from trainer_bridge.rewards import RECIPES
from trainer_bridge.train import grpo_action, sft
from trainer_bridge.train.common import load_model

pytestmark = [pytest.mark.slow, pytest.mark.train]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from trainer_bridge.train.tiny import build_tiny_qwen

    return build_tiny_qwen(tmp_path_factory.mktemp("tiny"))


def events(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "events.jsonl").read_text(encoding="utf-8").splitlines()]


def lora_b(checkpoint: Path) -> float:
    """The summed size of the LoRA B matrices: zero as peft starts them, above zero once a step has moved them."""
    weights = load_file(str(checkpoint / "adapter_model.safetensors"))
    return float(sum(tensor.abs().sum() for name, tensor in weights.items() if "lora_B" in name))


def test_sft_trains_lora_checkpoints_and_resumes(exports: dict[str, Path], tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "sft"
    common = [
        "--recipe",
        "tiny-sft",
        "--data",
        str(exports["sft"]),
        "--model",
        str(tiny),
        "--output_dir",
        str(out),
        "--save_steps",
        "2",
        "--report_to",
        "none",
        "--use_lora",
        "true",
    ]
    assert sft.main([*common, "--max_steps", "2"]) == 0
    assert lora_b(out / "checkpoint-2") > 0  # the adapter learned something in two steps
    first = events(out)
    assert first[0]["event"] == "start" and first[-1] == first[-1] | {"event": "end", "step": 2}
    assert all("loss" in e for e in first if e["event"] == "log" and "train_runtime" not in e)
    assert sft.main([*common, "--max_steps", "4"]) == 0  # the same run asked for more: it goes on from step 2
    resumed = [e for e in events(out) if e["event"] == "start"][-1]
    assert resumed["resumed_from"] == str(out / "checkpoint-2") and (out / "checkpoint-4").is_dir()
    assert [e["step"] for e in events(out) if e["event"] == "log" and "loss" in e][-2:] == [3, 4]
    # The next stage (`--model` this folder) starts from the base with the adapter merged in, not the bare base.
    merged, base = load_model(str(out)).state_dict(), load_model(str(tiny)).state_dict()
    changed = [name for name, weight in merged.items() if "q_proj.weight" in name and not weight.equal(base[name])]
    assert changed and "peft_config" not in vars(load_model(str(out)))


def test_grpo_logs_completions_with_every_rewards_score(exports: dict[str, Path], tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "grpo"
    arguments = [
        "--recipe",
        "tiny-grpo",
        "--data",
        str(exports["grpo-action"]),
        "--model",
        str(tiny),
        "--output_dir",
        str(out),
        "--max_steps",
        "2",
        "--save_steps",
        "2",
        "--report_to",
        "none",
        "--use_lora",
        "true",
        *("--max_completion_length", "16", "--num_generations", "2", "--per_device_train_batch_size", "2"),
    ]  # two answers of the untrained model's noise a step, scored and logged like any: a few tokens of each do
    assert grpo_action.main(arguments) == 0
    written = events(out)
    logs = [e for e in written if e["event"] == "log" and "reward" in e]
    assert len(logs) == 2 and all("rewards/action_reward/mean" in e and "rewards/format_reward/mean" in e for e in logs)
    rows = [row for e in written if e["event"] == "completions" for row in e["rows"]]
    assert rows and all({"completion", "action_reward", "format_reward"} <= row.keys() for row in rows)
    assert (out / "checkpoint-2" / "adapter_model.safetensors").is_file()
    assert (out / "completions").is_dir()  # TRL's own completion tables (log_completions)


@pytest.mark.parametrize(
    ("script", "arguments", "says"),
    [
        (sft, ["--data", "{grpo}"], "is a 'grpo-action' export; this recipe trains on 'sft' exports"),
        (sft, ["--data", "/nowhere/at/all"], "is not a folder"),
        (grpo_action, ["--data", "{grpo}", "--reward_recipe", "best-reward"], "unknown reward recipe 'best-reward'"),
        (sft, ["--data", "{sft}", "--learning_rat", "1e-4"], "unknown setting"),
        (sft, ["--data", "{sft}", "--recipe", "stage-9"], "no recipe 'stage-9'"),
    ],
)
def test_bad_inputs_are_one_line_before_any_model_loads(
    exports: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], script, arguments, says
) -> None:
    recipe = "tiny-grpo" if script is grpo_action else "tiny-sft"
    given = [a.format(grpo=exports["grpo-action"], sft=exports["sft"]) for a in arguments]
    if "--recipe" not in given:
        given = ["--recipe", recipe, *given]
    assert script.main([*given, "--output_dir", str(tmp_path / "out")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and lines[0].startswith("error: ")
    assert not (tmp_path / "out" / "tiny-model").exists()  # nothing was built or loaded


@pytest.mark.parametrize("name", recipe_names())
def test_every_shipped_recipe_is_read_by_its_scripts_parser(name: str, tmp_path: Path) -> None:
    """A key no dataclass has would stop the run at its start on a GPU box: each recipe parses here instead."""
    recipe = load_recipe(name)
    script = importlib.import_module(f"trainer_bridge.train.{recipe['script']}")
    bridge, config = script.make_parser().parse_args_and_config(
        [
            "--config",
            str(recipe_path(name)),
            "--data",
            str(tmp_path),
            "--output_dir",
            str(tmp_path / "out"),
            "--bf16",
            "false",
        ]  # no bf16 on this CPU: the config refuses it at parsing
    )
    assert bridge.stage == SCRIPTS[recipe["script"]] and bridge.description and bridge.paper
    assert config.learning_rate == recipe["learning_rate"]
    if recipe["script"] != "sft":
        assert bridge.reward_recipe in RECIPES
