"""`trainer-bridge train --dry-run`: the `accelerate launch` commands accelerate documents for one GPU, eight GPUs
with DeepSpeed ZeRO-3 and two nodes of eight GPUs; bad inputs are one line each, exit status 2, nothing recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer_bridge.cli.train import train_command
from trainer_bridge.launch.command import deepspeed_config
from trainer_bridge.launch.settings import parse_sets

SCRIPT = "trainer_bridge.train.sft"


def dry_run(exports: dict[str, Path], tmp_path: Path, *options: str, recipe: str = "mobile-r1-stage1") -> list[str]:
    out = tmp_path / "run"
    arguments = [
        recipe,
        "--data",
        str(exports["sft"]),
        "--model",
        "Qwen/Qwen2.5-VL-3B-Instruct",
        "--output",
        str(out),
        "--data-dir",
        str(tmp_path / "ws"),
        "--dry-run",
        *options,
    ]
    result = CliRunner().invoke(train_command, arguments)
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "ws").exists() and not out.exists()  # a dry run starts, records and writes nothing
    argv = result.stdout.split()
    tail = [
        "-m",
        SCRIPT,
        "--config",
        str(out / "recipe.yaml"),
        "--data",
        str(exports["sft"]),
        "--output_dir",
        str(out),
        "--model",
        "Qwen/Qwen2.5-VL-3B-Instruct",
    ]
    assert argv[:2] == ["accelerate", "launch"] and argv[-len(tail) :] == tail
    return argv[2 : -len(tail)]


def test_one_gpu(exports: dict[str, Path], tmp_path: Path) -> None:
    assert dry_run(exports, tmp_path, "--gpus", "1") == ["--num_processes", "1"]


def test_eight_gpus_with_zero3(exports: dict[str, Path], tmp_path: Path) -> None:
    flags = dry_run(exports, tmp_path, "--gpus", "8", "--deepspeed", "zero3")
    config = deepspeed_config("zero3")
    assert flags == ["--use_deepspeed", "--deepspeed_config_file", str(config), "--num_processes", "8"]
    assert json.loads(config.read_text())["zero_optimization"]["stage"] == 3  # the shipped file is ZeRO-3


def test_two_nodes_of_eight_gpus(exports: dict[str, Path], tmp_path: Path) -> None:
    flags = dry_run(exports, tmp_path, "--gpus", "8", "--nodes", "2", "--node-rank", "1", "--main-host", "10.0.0.1")
    assert flags == [
        "--multi_gpu",
        "--num_machines",
        "2",
        "--num_processes",
        "16",
        "--machine_rank",
        "1",
        "--main_process_ip",
        "10.0.0.1",
        "--main_process_port",
        "29500",
    ]


def test_a_cpu_recipe_launches_on_the_cpu(exports: dict[str, Path], tmp_path: Path) -> None:
    assert dry_run(exports, tmp_path, recipe="tiny-sft") == ["--cpu", "--num_processes", "1"]


def test_task_level_grpo_stores_its_rollouts_in_the_workspace_that_records_the_run(
    exports: dict[str, Path], tmp_path: Path
) -> None:
    arguments = ["tiny-grpo-task", "--data", str(exports["grpo-task"]), "--data-dir", str(tmp_path / "ws"), "--dry-run"]
    result = CliRunner().invoke(train_command, arguments)
    assert result.exit_code == 0, result.output
    assert f"#   workspace_dir: {tmp_path / 'ws'}" in result.stderr and "use_vllm" not in result.stderr


def test_set_values_are_typed_as_yaml() -> None:
    assert parse_sets(("learning_rate=1e-5", "max_steps=3", "report_to=[none]", "use_lora=false")) == {
        "learning_rate": 1e-5,
        "max_steps": 3,
        "report_to": ["none"],
        "use_lora": False,
    }


@pytest.mark.parametrize(
    ("recipe", "stage", "options", "says"),
    [
        ("tiny-grpo", "sft", (), "is a 'sft' export; this recipe trains on 'grpo-action' exports"),
        ("tiny-sft", None, (), "is not a folder"),
        ("tiny-grpo", "grpo-action", ("--set", "reward_recipe=nope"), "unknown reward recipe 'nope'"),
        pytest.param(  # the sft script's settings are read from its parser: trl and torch are imported
            "tiny-sft",
            "sft",
            ("--set", "learning_rat=1e-4"),
            "unknown setting(s) for the sft script: learning_rat",
            marks=pytest.mark.slow,
        ),
        ("tiny-sft", "sft", ("--nodes", "2", "--gpus", "8"), "several nodes need --main-host"),
        ("tiny-grpo-task", "grpo-task", ("--gpus", "8", "--deepspeed", "zero3"), "use --deepspeed zero2"),
        (
            "tiny-grpo-task",
            "grpo-task",
            ("--set", "judge_base_url=http://u:pw@judge/v1", "--set", "judge_model=j"),
            "judge_base_url: the URL has credentials in it",
        ),
    ],
)
def test_bad_inputs_are_one_line(
    exports: dict[str, Path], tmp_path: Path, recipe: str, stage: str | None, options: tuple[str, ...], says: str
) -> None:
    data = exports[stage] if stage else tmp_path / "missing"
    result = CliRunner().invoke(
        train_command, [recipe, "--data", str(data), "--data-dir", str(tmp_path / "ws"), *options]
    )
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and says in result.output, result.output
    assert not (tmp_path / "ws").exists()  # refused before the workspace is opened


@pytest.mark.parametrize("recipe", ["ui-r1", "gui-r1", "infigui-r1"])
def test_a_papers_recipe_on_an_export_in_another_prompt_variant_is_refused_in_one_line(
    exports: dict[str, Path], tmp_path: Path, recipe: str
) -> None:
    """Its format reward would pay nothing for the export's answers: every advantage 0, nothing learned."""
    arguments = [recipe, "--data", str(exports["grpo-action"]), "--data-dir", str(tmp_path / "ws"), "--dry-run"]
    result = CliRunner().invoke(train_command, arguments)
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert f"reward recipe {recipe} reads answers in the {recipe} prompt variant" in lines[0]
    assert f"--preset {recipe}" in lines[0] and not (tmp_path / "ws").exists()


@pytest.mark.slow  # `--set` keys are checked against the script's parser: trl and torch are imported
def test_a_papers_recipe_on_its_own_variants_export_is_launched(exports: dict[str, Path], tmp_path: Path) -> None:
    endpoint = ["--set", "subgoal_base_url=http://127.0.0.1:9/v1", "--set", "subgoal_model=m"]
    arguments = [
        "infigui-r1",
        "--data",
        str(exports["grpo-action infigui-r1"]),
        "--data-dir",
        str(tmp_path / "ws"),
        *endpoint,
        "--dry-run",
    ]
    result = CliRunner().invoke(train_command, arguments)
    assert result.exit_code == 0, result.output


@pytest.mark.slow  # `--set` keys are checked against the script's parser: trl and torch are imported
def test_stage_3_without_a_judge_is_refused_and_scores_by_the_phones_check_when_asked(
    exports: dict[str, Path], tmp_path: Path
) -> None:
    """Mobile-R1 4.2.3 scores every rollout with the judge: the stage-3 recipe needs one, or says it will not."""
    arguments = [
        "mobile-r1-stage3",
        "--data",
        str(exports["grpo-task"]),
        "--data-dir",
        str(tmp_path / "ws"),
        "--model",
        "Qwen/Qwen2.5-VL-3B-Instruct",
        "--dry-run",
    ]
    refused = CliRunner().invoke(train_command, arguments)
    assert refused.exit_code == 2 and "outcome_by judge (Mobile-R1 4.2.3)" in refused.output
    checked = CliRunner().invoke(train_command, [*arguments, "--set", "outcome_by=check"])
    assert checked.exit_code == 0, checked.output
