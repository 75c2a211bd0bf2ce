"""`trainer-bridge export --stage sft` on a generated workspace, loaded back with the consumers' loaders."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from datasets import load_dataset, load_from_disk

from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import MODEL_SPACE_NAMES, model_space
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from trainer_bridge.cli.root import cli
from trainer_bridge.export.run import ExportError, ExportOptions, export

pytestmark = pytest.mark.slow

SCREEN = ScreenSize(1080, 2400)
TOOL_CALL = re.compile(r"<tool_call>\n(.*)\n</tool_call>", re.S)


@pytest.fixture
def labelled(workspace: Workspace) -> Workspace:
    add_trajectory(workspace, "淘宝", "打开淘宝，搜索耳机", 3, seed=1)
    add_trajectory(workspace, "抖音", "打开抖音，关注作者", 2, seed=2)
    add_trajectory(workspace, "设置", "未标注的轨迹", 2, seed=3, label=False)
    return workspace


def run_export(workspace: Workspace, out: Path, fmt: str, coords: str = "qwen2.5-vl", **changes: object) -> dict:
    options = ExportOptions("sft", fmt, out, model_space(coords, **changes))  # type: ignore[arg-type]
    export(workspace, options)
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_trl_export_loads_with_datasets_from_disk_and_from_parquet(labelled: Workspace, tmp_path: Path) -> None:
    manifest = run_export(labelled, tmp_path / "trl", "trl")
    saved = load_from_disk(str(tmp_path / "trl"))["train"]
    parquet = load_dataset("parquet", data_files=str(tmp_path / "trl" / "parquet" / "train.parquet"))["train"]
    assert len(saved) == len(parquet) == 5 == manifest["counts"]["train"]["samples"]  # the accepted steps
    for entry in manifest["files"]:  # hashes taken while writing are the files' own
        assert hashlib.sha256((tmp_path / "trl" / entry["path"]).read_bytes()).hexdigest() == entry["sha256"]
    assert manifest["counts"]["train"]["apps"] == {"抖音": 2, "淘宝": 3}
    row = saved[2]
    assert [m["role"] for m in row["prompt"]] == ["system", "user", "assistant", "user"]  # W = 2 screenshots
    assert "The screen's resolution is 1092x2408." in row["prompt"][0]["content"][0]["text"]
    assert (
        [image.size for image in row["images"]] == [(1092, 2408)] * 2 == [(row["image_width"], row["image_height"])] * 2
    )
    assert parquet[2]["images"][0].tobytes() == row["images"][0].tobytes()
    assert row["completion"][0]["content"][0]["text"].startswith("<think>\n当前在第 2 步")


@pytest.mark.parametrize("coords", MODEL_SPACE_NAMES)
def test_a_labelled_click_comes_back_to_the_same_device_pixel_from_every_space(
    labelled: Workspace, tmp_path: Path, coords: str
) -> None:
    run_export(labelled, tmp_path / coords, "jsonl", coords, image_scale=0.5)
    rows = [json.loads(line) for line in (tmp_path / coords / "data" / "train.jsonl").read_text().splitlines()]
    space = model_space(coords, image_scale=0.5)
    clicks = []
    for row in rows:
        call = json.loads(TOOL_CALL.search(row["messages"][-1]["content"]).group(1))
        if call["arguments"]["action"] == "click":
            clicks.append(space.device_point(call["arguments"]["coordinate"], SCREEN))
    # factories.add_trajectory clicks at (100 + i, 200); a model pixel spans several device pixels
    x_extent, y_extent = space.extent(SCREEN)
    slack = (SCREEN.width / x_extent / 2 + 0.5, SCREEN.height / y_extent / 2 + 0.5)
    expected = [(100, 200), (101, 200), (100, 200)]
    assert len(clicks) == len(expected)
    for (x, y), (want_x, want_y) in zip(clicks, expected, strict=True):
        assert abs(x - want_x) <= slack[0] and abs(y - want_y) <= slack[1]
    image = tmp_path / coords / rows[0]["images"][0]
    size = space.image_size(SCREEN)
    assert image.is_file() and (rows[0]["image_width"], rows[0]["image_height"]) == (size.width, size.height)


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def test_the_same_export_twice_is_byte_identical(labelled: Workspace, tmp_path: Path) -> None:
    for fmt in ("trl", "jsonl"):
        run_export(labelled, tmp_path / f"{fmt}-1", fmt)
        run_export(labelled, tmp_path / f"{fmt}-2", fmt)
        first, second = files_of(tmp_path / f"{fmt}-1"), files_of(tmp_path / f"{fmt}-2")
        assert first == second and len(first) > 3


def test_the_manifest_lists_every_file_with_its_hash(labelled: Workspace, tmp_path: Path) -> None:
    manifest = run_export(labelled, tmp_path / "out", "jsonl")
    listed = {entry["path"] for entry in manifest["files"]}
    on_disk = {p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    assert listed == on_disk - {"manifest.json"}
    for entry in manifest["files"]:
        assert hashlib.sha256((tmp_path / "out" / entry["path"]).read_bytes()).hexdigest() == entry["sha256"]
    assert manifest["options"]["coords"] == "qwen2.5-vl" and manifest["counts"]["train"]["action_types"] == {
        "click": 3,
        "terminate": 2,
    }


def test_a_folder_that_is_not_empty_is_refused_and_kept(labelled: Workspace, tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("mine")
    with pytest.raises(ExportError, match="not empty"):
        run_export(labelled, tmp_path / "out", "jsonl")
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["notes.txt"]


def test_the_command_exports_and_says_what_it_wrote(labelled: Workspace, tmp_path: Path) -> None:
    arguments = ["export", "--stage", "sft", "--format", "trl", "--out", str(tmp_path / "cli")]
    result = CliRunner().invoke(cli, [*arguments, "--data-dir", str(labelled.data_dir), "--app", "淘宝"])
    assert result.exit_code == 0, result.output
    assert "train: 3 samples from 1 trajectories" in result.output
    assert len(load_from_disk(str(tmp_path / "cli"))["train"]) == 3
    refused = CliRunner().invoke(
        cli,
        [
            "export",
            "--stage",
            "sft",
            "--format",
            "trl",
            "--out",
            str(tmp_path / "cli"),
            "--data-dir",
            str(labelled.data_dir),
        ],
    )
    assert refused.exit_code == 1 and "not empty" in refused.output


def test_identical_steps_are_written_once_unless_duplicates_are_kept(workspace: Workspace, tmp_path: Path) -> None:
    for _ in range(2):  # the same instruction run twice, through the same screens, labelled alike
        add_trajectory(workspace, "淘宝", "打开淘宝，搜索耳机", 3, seed=1)
    manifest = run_export(workspace, tmp_path / "once", "jsonl")
    assert manifest["counts"]["train"]["samples"] == 3 and manifest["duplicates_left_out"] == 3
    options = ExportOptions("sft", "jsonl", tmp_path / "all", model_space("qwen2.5-vl"), keep_duplicates=True)
    assert export(workspace, options).as_json()["train"]["samples"] == 6


def test_action_level_instructions_ask_for_the_step_and_keep_the_operation_history(
    labelled: Workspace, tmp_path: Path
) -> None:
    """Mobile-R1 stage 1 predicts the next action "from instructions and operation history": the task is the step's
    action text, and every step after the first still shows the steps before it."""
    options = ExportOptions("sft", "jsonl", tmp_path / "out", model_space("qwen2.5-vl"), instruction_level="action")
    export(labelled, options)
    rows = [json.loads(line) for line in (tmp_path / "out" / "data" / "train.jsonl").read_text().splitlines()]
    assert "User Task: 点击搜索框" in rows[1]["messages"][0]["content"]
    first, second = (json.dumps(row["messages"][1:-1], ensure_ascii=False) for row in rows[:2])
    assert "Step 1:" not in first and "Step 1:" in second  # the first step, in the history shown to the second


def test_splits_by_app_are_written_and_counted(labelled: Workspace, tmp_path: Path) -> None:
    arguments = [
        "export",
        "--stage",
        "sft",
        "--format",
        "jsonl",
        "--out",
        str(tmp_path / "split"),
        "--split",
        "train=0.5,test=0.5",
        "--split-by",
        "app",
        "--holdout-app",
        "抖音",
        "--data-dir",
        str(labelled.data_dir),
    ]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "split" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["counts"]["test"]["apps"] == {"抖音": 2} and manifest["counts"]["train"]["apps"] == {"淘宝": 3}
    assert sorted(path.name for path in (tmp_path / "split" / "data").iterdir()) == ["test.jsonl", "train.jsonl"]
