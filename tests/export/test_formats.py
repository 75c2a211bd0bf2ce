"""Each stage in each format, loaded back with the consumer's loader (or checked against its documented
schema), including error-recovery samples from a wrong-then-corrected trajectory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from datasets import load_dataset, load_from_disk
from PIL import Image
from sqlalchemy import select

from annotator.domain.model_space import model_space
from annotator.services.annotation import Editor
from annotator.storage import models
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from trainer_bridge.export.run import ExportError, ExportOptions, export

pytestmark = pytest.mark.slow

BACK = {"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}}
RIGHT = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 300]}}


@pytest.fixture
def corrected(workspace: Workspace) -> Workspace:
    """Step 1 of 4 was wrong; step 2 (on the wrong screen) pressed Back; a person inserted the right click."""
    trajectory = add_trajectory(workspace, "淘宝", "打开淘宝，搜索耳机", 4, seed=5)
    with workspace.database.session() as session:
        ids = list(session.scalars(select(models.Step.id).where(models.Step.trajectory_id == trajectory)))
    editor = Editor(workspace, trajectory, "小王")
    editor.change(ids[1], {"verdict": "wrong"})
    editor.change(ids[2], {"action_text": "返回上一页", "tool_call": BACK})
    correction = editor.insert_corrected_step(ids[1]).id
    editor.change(
        correction,
        {
            "think": "应该点搜索框",
            "action_text": "点击搜索框",
            "tool_call": RIGHT,
            "target_box": [400, 250, 680, 350],
            "verdict": "correct",
        },
    )
    return workspace


def options(out: Path, stage: str, fmt: str, **changes: Any) -> ExportOptions:
    return ExportOptions(stage, fmt, out, model_space("qwen2.5-vl"), **changes)


def test_grpo_action_rows_carry_the_ground_truth_and_the_recovery_scenarios(
    corrected: Workspace, tmp_path: Path
) -> None:
    export(corrected, options(tmp_path / "plain", "grpo-action", "trl"))
    plain = {row["kind"] for row in load_from_disk(str(tmp_path / "plain"))["train"]}
    assert plain == {"step", "correction"}  # InfiGUI-R1's rows only when asked
    export(corrected, options(tmp_path / "trl", "grpo-action", "trl", error_recovery=True))
    rows = {row["kind"]: row for row in load_from_disk(str(tmp_path / "trl"))["train"]}
    assert set(rows) == {"step", "correction", "error_escape", "back_on_track"}
    on_track = rows["back_on_track"]
    assert json.loads(on_track["gt_action"]) == RIGHT and on_track["gt_action_type"] == "click"
    assert json.loads(on_track["gt_action_model"])["arguments"]["coordinate"] == [546, 301]  # 1092x2408 pixels
    assert on_track["gt_bbox"] == [400, 250, 680, 350] and on_track["gt_bbox_model"] == [404, 251, 688, 351]
    assert rows["error_escape"]["gt_text"] == "Back" and rows["error_escape"]["gt_bbox"] is None
    history = [m for m in on_track["prompt"] if m["role"] == "assistant"]
    assert "返回上一页" in history[-1]["content"][0]["text"]  # the escape, then the original screen again
    assert "completion" not in rows["step"] and rows["step"]["answer"].startswith("<think>")


def test_easyr1_parquet_has_one_image_token_per_image(corrected: Workspace, tmp_path: Path) -> None:
    for stage in ("sft", "grpo-action"):
        export(corrected, options(tmp_path / stage, stage, "easyr1"))
        data = load_dataset("parquet", data_files=str(tmp_path / stage / "data" / "train.parquet"))["train"]
        assert len(data) > 0 and all(row["prompt"].count("<image>") == len(row["images"]) for row in data)
        # paths relative to the output folder, as EasyR1 joins them to its data.image_dir
        with Image.open(tmp_path / stage / data[0]["images"][0]) as first:
            assert data[0]["answer"].startswith("<think>") and first.size == (1092, 2408)
        manifest = json.loads((tmp_path / stage / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["image_storage"] == "files" and manifest["options"]["image_storage"] == "files"


def test_easyr1_embeds_the_screenshots_when_asked(corrected: Workspace, tmp_path: Path) -> None:
    export(corrected, options(tmp_path / "easy", "sft", "easyr1", image_storage="embedded"))
    data = load_dataset("parquet", data_files=str(tmp_path / "easy" / "data" / "train.parquet"))["train"]
    assert data[0]["images"][0].size == (1092, 2408) and not (tmp_path / "easy" / "images").exists()


def test_an_image_storage_the_format_cannot_hold_is_refused(corrected: Workspace, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="trl holds its screenshots as embedded, not files"):
        export(corrected, options(tmp_path / "trl", "sft", "trl", image_storage="files"))
    assert not (tmp_path / "trl").exists()


def test_llamafactory_sharegpt_follows_its_documented_schema(corrected: Workspace, tmp_path: Path) -> None:
    export(corrected, options(tmp_path / "lf", "sft", "llamafactory"))
    info = json.loads((tmp_path / "lf" / "dataset_info.json").read_text(encoding="utf-8"))
    entry = info["mobile_sft_train"]
    assert entry["formatting"] == "sharegpt" and entry["columns"] == {
        "messages": "messages",
        "images": "images",
        "system": "system",
    }
    rows = json.loads((tmp_path / "lf" / entry["file_name"]).read_text(encoding="utf-8"))
    for row in rows:
        roles = [message["role"] for message in row["messages"]]
        assert roles == ["user", "assistant"] * (len(roles) // 2)  # alternating, ending with the target
        tokens = sum(message["content"].count("<image>") for message in row["messages"])
        assert tokens == len(row["images"]) and all((tmp_path / "lf" / image).is_file() for image in row["images"])
        assert row["system"].startswith("You are a mobile GUI agent")


def test_llamafactory_is_refused_for_grpo_and_nothing_is_written(corrected: Workspace, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="SFT data only"):
        export(corrected, options(tmp_path / "lf", "grpo-action", "llamafactory"))
    assert not (tmp_path / "lf").exists()


def test_grpo_task_gives_one_row_per_instruction_with_its_start_and_success(
    corrected: Workspace, tmp_path: Path
) -> None:
    add_trajectory(corrected, "设置", "打开蓝牙", 3, seed=6)
    for fmt in ("trl", "easyr1"):
        export(corrected, options(tmp_path / fmt, "grpo-task", fmt))
    tasks = {row["instruction"]: row for row in load_from_disk(str(tmp_path / "trl"))["train"]}
    bluetooth = tasks["打开蓝牙"]
    assert (bluetooth["runs"], bluetooth["successes"], bluetooth["success_rate"]) == (1, 1, 1.0)
    assert bluetooth["package"] == "com.demo" and bluetooth["kind"] == "task" and len(bluetooth["images"]) == 1
    actions = json.loads(bluetooth["reference_actions"])
    assert [call["arguments"]["action"] for call in actions] == ["click", "click", "terminate"]
    assert [m["role"] for m in bluetooth["prompt"]] == ["system", "user"]  # the first step of a rollout
    # the wrong step is replaced by its correction in the reference, the escape stays (it was done)
    searched = json.loads(tasks["打开淘宝，搜索耳机"]["reference_actions"])
    assert searched[1] == RIGHT and searched[2] == BACK and len(searched) == 4
    easy = load_dataset("parquet", data_files=str(tmp_path / "easyr1" / "data" / "train.parquet"))["train"]
    assert sorted(easy["instruction_uid"]) == sorted(row["instruction_uid"] for row in tasks.values())
