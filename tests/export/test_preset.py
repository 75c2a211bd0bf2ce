"""`trainer-bridge export --preset mobile-r1`: Mobile-R1's data, with options given beside the preset winning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from datasets import load_from_disk

from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from trainer_bridge.cli import cli

pytestmark = pytest.mark.slow


def exported(workspace: Workspace, out: Path, *more: str) -> dict:
    arguments = ["export", "--stage", "grpo-action", "--format", "trl", "--out", str(out), "--preset", "mobile-r1"]
    result = CliRunner().invoke(cli, [*arguments, *more, "--data-dir", str(workspace.data_dir)])
    assert result.exit_code == 0, result.output
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_the_mobile_r1_preset_halves_screens_asks_by_action_and_prompts_as_printed(
    workspace: Workspace, tmp_path: Path
) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝，搜索耳机", 3, seed=1)
    options = exported(workspace, tmp_path / "paper")["options"]
    assert (options["image_scale"], options["after_errors"], options["instruction_level"]) == (0.5, True, "action")
    assert (options["error_recovery"], options["prompt_variant"]) == (False, "mobile-r1-paper")
    row = load_from_disk(str(tmp_path / "paper"))["train"][0]
    assert (row["image_width"], row["image_height"]) == (532, 1204)  # 1080x2400 halved, to multiples of 28
    assert row["images"][0].size == (532, 1204)
    (system,) = row["prompt"][0]["content"]
    assert system["text"].endswith(f"User Task: {row['instruction']}")  # the step's action text
    assert "coordinate2" not in system["text"]
    given = exported(workspace, tmp_path / "mine", "--prompt-variant", "qwen2.5-vl", "--image-scale", "1")["options"]
    assert (given["prompt_variant"], given["image_scale"], given["instruction_level"]) == ("qwen2.5-vl", 1.0, "action")
