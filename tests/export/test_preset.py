"""`trainer-bridge export --preset mobile-r1`: Mobile-R1's data, with options given beside the preset winning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from datasets import load_from_disk
from sqlalchemy import select

from annotator.storage import labels, models
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from trainer_bridge.cli.root import cli

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


def test_the_ui_r1_preset_keeps_checked_clicks_and_reports_its_own_action_types(
    workspace: Workspace, tmp_path: Path
) -> None:
    """UI-R1 3.3: clicks only with clean element annotations (Quality), rare actions out and every type of its
    space reported (Diversity, its Table 5); here a click whose box a person drew stays, one with only the box
    suggested from the screen's elements does not, and the terminate step has no UI-R1 word."""
    trajectory = add_trajectory(workspace, "淘宝", "打开淘宝，搜索耳机", 3, seed=2)
    with workspace.database.session() as session:
        first = session.scalars(select(models.Step.id).where(models.Step.trajectory_id == trajectory)).first()
    labels.update_label(workspace.database, first, {"target_box": [40, 120, 1040, 280]}, person="小王")
    out = tmp_path / "ui-r1"
    arguments = ["export", "--stage", "grpo-action", "--format", "jsonl", "--out", str(out), "--preset", "ui-r1"]
    result = CliRunner().invoke(cli, [*arguments, "--data-dir", str(workspace.data_dir)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    rows = [json.loads(line) for line in (out / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(row["step_id"], row["gt_bbox_provenance"]) for row in rows] == [(first, "annotator")]
    assert manifest["options"]["checked_boxes"] is True
    assert (manifest["unchecked_boxes_left_out"], manifest["unsayable_left_out"]) == ({"click": 1}, {"terminate": 1})
    counts = manifest["counts"]["train"]["paper_action_types"]
    assert counts == {"click": 1, "scroll": 0, "input_text": 0, "navigate_back": 0, "open_app": 0}
    assert "no train rows of: scroll, input_text, navigate_back, open_app" in result.output
    assert "Left out (--checked-boxes: no person checked their target box): 1 click" in result.output
