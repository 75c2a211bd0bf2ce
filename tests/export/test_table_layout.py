"""The trl and easyr1 files, written with pyarrow, load with `datasets` as what its own writers made of the same rows
(`Dataset.from_list` and `save_to_disk` / `to_parquet`, how the export wrote them before): the same features, rows,
messages and image bytes, the images decoding to the same pixels. The rows are built from the jsonl export of the
same workspace, whose image files are the same PNGs (resized, privacy regions masked)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from datasets import Dataset, Image, List, load_dataset, load_from_disk
from sqlalchemy import select

from annotator.domain.model_space import default_export_space
from annotator.storage import labels, models
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from trainer_bridge.export.formats.common import flat_text, parts
from trainer_bridge.export.formats.easyr1 import easyr1_features
from trainer_bridge.export.formats.trl import trl_features
from trainer_bridge.export.run import ExportOptions, export
from trainer_bridge.export.splits import SplitPlan

pytestmark = pytest.mark.slow

SPLITS = SplitPlan(fractions=(("train", 0.5), ("test", 0.5)))


@pytest.fixture
def masked(workspace: Workspace) -> Workspace:
    """Three accepted trajectories; the first screenshot of one has a privacy region."""
    add_trajectory(workspace, "淘宝", "打开淘宝，搜索耳机", 3, seed=1)
    add_trajectory(workspace, "抖音", "打开抖音，关注作者", 2, seed=2)
    trajectory = add_trajectory(workspace, "微信", "打开微信", 2, seed=7)
    with workspace.database.session() as session:
        first = session.scalars(select(models.Step.id).where(models.Step.trajectory_id == trajectory)).first()
    assert first is not None
    labels.update_label(workspace.database, first, {"privacy_regions": [[100, 400, 700, 800]]}, person="小王")
    return workspace


def exported(workspace: Workspace, out: Path, stage: str, fmt: str) -> dict[str, Any]:
    storage = "embedded" if fmt in ("trl", "easyr1") else None  # what `datasets`' writers would make
    options = ExportOptions(
        stage, fmt, out, default_export_space(), privacy="black", splits=SPLITS, image_storage=storage
    )
    export(workspace, options)
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def jsonl_rows(out: Path, split: str) -> list[dict[str, Any]]:
    lines = (out / "data" / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def conversation(row: dict[str, Any]) -> tuple[list[dict[str, Any]], str | None]:
    """A jsonl row's prompt messages, and the target reply of an SFT row (None for GRPO)."""
    if "messages" in row:
        return row["messages"][:-1], row["messages"][-1]["content"]
    return row["prompt"], None


def metadata(row: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in row.items() if name not in ("messages", "prompt", "images")}


def images(row: dict[str, Any], jsonl: Path) -> list[dict[str, Any]]:
    return [{"bytes": (jsonl / path).read_bytes(), "path": Path(path).name} for path in row["images"]]


def trl_row(row: dict[str, Any], jsonl: Path) -> dict[str, Any]:
    prompt, completion = conversation(row)
    made = metadata(row) | {"images": images(row, jsonl)}
    made["prompt"] = [{"role": m["role"], "content": parts(m["content"])} for m in prompt]
    if completion is not None:
        made["completion"] = [{"role": "assistant", "content": parts(completion)}]
    return made


def easyr1_row(row: dict[str, Any], jsonl: Path) -> dict[str, Any]:
    prompt, completion = conversation(row)
    text = "\n\n".join(
        m["content"] if m["role"] == "system" else f"{m['role']}:\n{flat_text(m['content'])}" for m in prompt
    )
    answer = row["answer"] if completion is None else completion
    return metadata(row) | {"prompt": text, "answer": answer, "images": images(row, jsonl)}


def before(rows: list[dict[str, Any]], features: Any) -> Dataset:
    ordered = [{name: row.get(name) for name in features} for row in rows]
    return Dataset.from_list(ordered, features=features)


def assert_same(loaded: Dataset, expected: Dataset) -> None:
    assert loaded.features == expected.features and list(loaded.features) == list(expected.features)
    assert len(loaded) == len(expected) > 0
    raw = List(Image(decode=False))  # the stored {bytes, path}, not decoded
    assert loaded.cast_column("images", raw).to_list() == expected.cast_column("images", raw).to_list()
    for new, old in zip(loaded, expected, strict=True):
        assert [image.tobytes() for image in new["images"]] == [image.tobytes() for image in old["images"]]


@pytest.mark.parametrize("stage", ["sft", "grpo-action"])
def test_trl_loads_as_datasets_own_writers_made_it(masked: Workspace, tmp_path: Path, stage: str) -> None:
    manifest = exported(masked, tmp_path / "trl", stage, "trl")
    exported(masked, tmp_path / "jsonl", stage, "jsonl")
    assert manifest["image_storage"] == "embedded" and manifest["images_with_privacy_regions_masked"] == 1
    saved, features = load_from_disk(str(tmp_path / "trl")), trl_features(stage)
    assert list(saved) == ["train", "test"]
    for split in saved:
        rows = [trl_row(row, tmp_path / "jsonl") for row in jsonl_rows(tmp_path / "jsonl", split)]
        before(rows, features).save_to_disk(str(tmp_path / "before" / split))
        expected = load_from_disk(str(tmp_path / "before" / split))
        assert_same(saved[split], expected)
        parquet = tmp_path / "trl" / "parquet" / f"{split}.parquet"
        assert_same(load_dataset("parquet", data_files=str(parquet))["train"], expected)


@pytest.mark.parametrize("stage", ["sft", "grpo-action", "grpo-task"])
def test_easyr1_loads_as_datasets_own_writers_made_it(masked: Workspace, tmp_path: Path, stage: str) -> None:
    manifest = exported(masked, tmp_path / "easyr1", stage, "easyr1")
    exported(masked, tmp_path / "jsonl", stage, "jsonl")
    assert manifest["image_storage"] == "embedded"
    for split in ("train", "test"):
        rows = [easyr1_row(row, tmp_path / "jsonl") for row in jsonl_rows(tmp_path / "jsonl", split)]
        before(rows, easyr1_features(stage)).to_parquet(tmp_path / f"before-{split}.parquet")
        expected = load_dataset("parquet", data_files=str(tmp_path / f"before-{split}.parquet"))["train"]
        parquet = tmp_path / "easyr1" / "data" / f"{split}.parquet"
        assert_same(load_dataset("parquet", data_files=str(parquet))["train"], expected)
