"""An export's manifest (annotator.domain.export_manifest): what is written reads back the same, a manifest as the
first export wrote it reads with the defaults of the fields added since, and every kind of bad file is one error
that names the file and what is wrong, the same for training and the app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from annotator.domain.export_manifest import (
    MANIFEST_FILE,
    ExportedFile,
    ExportManifest,
    ManifestError,
    read_export_manifest,
    write_export_manifest,
)
from annotator.services.training import read_export
from trainer_bridge.train.common import TrainingSetupError, read_manifest

# As the first export (sft, trl) wrote it: no prompt variant, instruction level, image storage or left-out counts.
FIRST_EXPORT = {
    "format_version": 1,
    "code_version": "0.1.0",
    "source_database": "sqlite:///data/annotator.db",
    "options": {
        "stage": "sft",
        "format": "trl",
        "coords": "qwen2.5-vl",
        "min_pixels": 3136,
        "max_pixels": 12845056,
        "image_scale": 0.5,
        "history_images": 2,
        "after_errors": False,
        "selection": {"review": ["accepted"]},
    },
    "counts": {
        "train": {
            "samples": 6,
            "trajectories": 2,
            "apps": {"设置": 4, "趣看视频": 2},
            "action_types": {},
            "kinds": {"step": 6},
        }
    },
    "files": [{"path": "train/data-00000-of-00001.arrow", "bytes": 10, "sha256": "ab" * 32}],
}


def made() -> ExportManifest:
    return ExportManifest(
        stage="grpo-action",
        format="jsonl",
        min_pixels=3136,
        max_pixels=1_000_000,
        coords="qwen2-vl",
        image_scale=0.5,
        history_images=1,
        instruction_level="both",
        prompt_variant="ui-r1",
        image_storage="files",
        more_options={"privacy": "black", "splits": {"seed": 0}},
        counts={"train": {"samples": 3, "apps": {"设置": 3}}, "test": {"samples": 1, "apps": {"趣看视频": 1}}},
        files=(ExportedFile("data/train.jsonl", 12, "cd" * 32),),
        code_version="0.2.0",
        source_database="postgresql://annotator@db/team",
        format_version=1,
        duplicates_left_out=2,
        unsayable_left_out={"wait": 1},
        pii_scrubbed={"phone": 3},
        images_with_privacy_regions_masked=4,
    )


def written(folder: Path, data: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MANIFEST_FILE).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return folder


def test_what_is_written_reads_back_the_same_with_its_settings_where_they_always_were(tmp_path: Path) -> None:
    path = write_export_manifest(tmp_path, made())
    assert read_export_manifest(tmp_path) == made() == read_export_manifest(path)  # the folder or the file
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["options"]["history_images"] == 1 and data["options"]["privacy"] == "black"
    assert data["prompt_variant"] == data["options"]["prompt_variant"] == "ui-r1"
    assert data["image_storage"] == data["options"]["image_storage"] == "files"
    assert data["files"] == [{"bytes": 12, "path": "data/train.jsonl", "sha256": "cd" * 32}]
    assert list(data) == sorted(data) and "设置" in path.read_text(encoding="utf-8")  # sorted keys, text as is
    assert made().samples == 4 and made().apps("train") == ("设置",) and made().apps("validation") == ()


def test_a_manifest_of_the_first_export_reads_with_the_defaults_of_what_came_later(tmp_path: Path) -> None:
    manifest = read_export_manifest(written(tmp_path, FIRST_EXPORT))
    assert (manifest.stage, manifest.format, manifest.coords, manifest.image_scale) == ("sft", "trl", "qwen2.5-vl", 0.5)
    assert manifest.history_images == 2 and manifest.samples == 6 and manifest.apps("train") == ("设置", "趣看视频")
    assert (manifest.prompt_variant, manifest.instruction_level, manifest.image_storage) == ("qwen2.5-vl", "task", None)
    assert manifest.duplicates_left_out == 0 and manifest.unsayable_left_out == {} and manifest.pii_scrubbed == {}
    assert manifest.more_options == {"after_errors": False, "selection": {"review": ["accepted"]}}
    without_window = {
        **FIRST_EXPORT,
        "options": {
            k: v for k, v in FIRST_EXPORT["options"].items() if k not in ("history_images", "image_scale", "coords")
        },
    }
    older = read_export_manifest(written(tmp_path / "older", without_window))
    assert older.history_images is None and older.image_scale == 1.0 and older.coords == "qwen2.5-vl"
    assert "history_images" not in older.as_json()["options"]  # not said is not written as said


def changed(options: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    return {**FIRST_EXPORT, **top, "options": {**FIRST_EXPORT["options"], **(options or {})}}


BAD_FILES: dict[str, Any] = {
    "options.min_pixels should be a whole number above 0, not \"3136\"": changed({"min_pixels": "3136"}),
    "options.history_images should be a whole number above 0, not 0": changed({"history_images": 0}),
    "options.image_scale should be a number above 0, not true": changed({"image_scale": True}),
    "options.stage is missing; every export's manifest has it": {**FIRST_EXPORT, "options": {
        k: v for k, v in FIRST_EXPORT["options"].items() if k != "stage"}},
    "options should be a JSON object, not [1]": changed() | {"options": [1]},
    "prompt_variant should be a string, not 7": changed(prompt_variant=7),
    "files should be a list of {path, bytes, sha256} objects": changed(files=[{"path": "a", "bytes": 1}]),
    "counts should be an object of splits, each an object with whole-number samples": changed(
        counts={"train": {"samples": "6"}}),
    "unsayable_left_out should be an object of whole numbers, not {\"wait\": -1}": changed(
        unsayable_left_out={"wait": -1}),
    "format_version 2 is newer than this version of annotator reads (1)": changed(format_version=2),
    "expected a JSON object, found a list": [FIRST_EXPORT],
}  # fmt: skip


@pytest.mark.parametrize("expected", list(BAD_FILES))
def test_a_field_of_the_wrong_type_or_a_newer_layout_is_one_error_naming_the_file(
    tmp_path: Path, expected: str
) -> None:
    folder = written(tmp_path / "export", BAD_FILES[expected])
    with pytest.raises(ManifestError) as raised:
        read_export_manifest(folder)
    assert str(raised.value).startswith(f"{folder / MANIFEST_FILE}: ") and expected in str(raised.value)


def test_a_missing_file_text_that_is_not_json_and_bytes_that_are_not_text_say_so(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match=r"manifest\.json does not exist: .* is not an export folder"):
        read_export_manifest(tmp_path)
    (tmp_path / MANIFEST_FILE).write_text('{"format_version": 1,\n "options": }', encoding="utf-8")
    with pytest.raises(ManifestError, match=r"manifest\.json is not valid JSON: Expecting value at line 2 column 13"):
        read_export_manifest(tmp_path)
    (tmp_path / MANIFEST_FILE).write_bytes(b'{"code_version": "\xff"}')
    with pytest.raises(ManifestError, match=r"manifest\.json is not UTF-8 text"):
        read_export_manifest(tmp_path)
    (tmp_path / MANIFEST_FILE).write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(ManifestError, match=r"manifest\.json is not usable JSON: it nests too deep"):
        read_export_manifest(tmp_path)


def test_a_manifest_its_readers_would_refuse_is_never_written(tmp_path: Path) -> None:
    wrong = ExportManifest(
        stage="sft",
        format="trl",
        min_pixels=0,
        max_pixels=10,
        counts={},
        files=(),
        code_version="0",
        source_database="",
        format_version=1,
    )
    with pytest.raises(ManifestError, match=r"options\.min_pixels should be a whole number above 0, not 0"):
        write_export_manifest(tmp_path, wrong)
    assert not (tmp_path / MANIFEST_FILE).exists()


def test_training_and_the_app_read_through_it(tmp_path: Path) -> None:
    folder = written(tmp_path / "first", FIRST_EXPORT)
    assert read_manifest(str(folder), "sft") == read_export_manifest(folder)
    listed = read_export(folder)
    assert listed is not None and (listed.stage, listed.format, listed.samples) == ("sft", "trl", 6)
    broken = written(tmp_path / "broken", changed({"max_pixels": -1}))
    with pytest.raises(TrainingSetupError, match=r"broken/manifest\.json: options\.max_pixels should be"):
        read_manifest(str(broken), "sft")
    assert read_export(broken) is None  # the app lists only exports it can train on
    with pytest.raises(TrainingSetupError, match="is a 'sft' export; this recipe trains on 'grpo-task' exports"):
        read_manifest(str(folder), "grpo-task")
