"""Privacy regions annotators marked are blurred or blacked out in every exported image of their screenshot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from sqlalchemy import select

from annotator.domain.model_space import model_space
from annotator.storage import labels, models
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from trainer_bridge.export.run import ExportOptions, export

pytestmark = pytest.mark.slow

REGION = [100, 400, 700, 800]  # device pixels of the 1080x2400 screenshot


def marked(workspace: Workspace) -> None:
    trajectory = add_trajectory(workspace, "微信", "打开微信", 2, seed=7)
    with workspace.database.session() as session:
        first = session.scalars(select(models.Step.id).where(models.Step.trajectory_id == trajectory)).first()
    labels.update_label(workspace.database, first, {"privacy_regions": [REGION]}, person="小王")


def first_images(out: Path) -> list[Image.Image]:
    """The images of the second sample: the first step's screen (as history) and the second's."""
    row = json.loads((out / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines()[1])
    return [Image.open(out / path).convert("RGB") for path in row["images"]]


def test_regions_are_masked_where_the_screenshot_appears_and_nowhere_else(workspace: Workspace, tmp_path: Path) -> None:
    marked(workspace)
    results = {}
    for mode in ("none", "black", "blur"):
        options = ExportOptions("sft", "jsonl", tmp_path / mode, model_space("qwen2.5-vl"), privacy=mode)
        export(workspace, options)
        results[mode] = first_images(tmp_path / mode)
    plain, black, blurred = results["none"][0], results["black"][0], results["blur"][0]
    inside = (110, 410, 700, 800)  # REGION at 1092x2408 is (101, 401, 708, 803): a little inside it
    assert black.crop(inside).getextrema() == ((0, 0), (0, 0), (0, 0))
    assert ImageChops.difference(blurred.crop(inside), plain.crop(inside)).getbbox() is not None
    outside = (0, 1000, 1092, 2408)
    assert ImageChops.difference(black.crop(outside), plain.crop(outside)).getbbox() is None
    assert ImageChops.difference(results["black"][1], results["none"][1]).getbbox() is None  # an unmarked screen
    manifest = json.loads((tmp_path / "black" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["images_with_privacy_regions_masked"] == 1 and manifest["options"]["privacy"] == "black"
