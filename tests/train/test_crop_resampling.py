"""UI-AGILE's cropping-based resampling (3.3): the crop window always holds the box and the coordinate map is exact
(properties over random screens and boxes, in every coordinate space), the truth and prompt of a retried row are
moved into the crop, and a tiny GRPO run on the CPU retries its zero-grounding groups on crops."""

from __future__ import annotations

import doctest
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from annotator.domain.coords import smart_resize
from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import MODEL_SPACE_NAMES, model_space
from trainer_bridge.train import crop_resampling, grpo_action
from trainer_bridge.train.crop_resampling import CropSettings, crop_for_retry, cropped_row, windows

SPACE = model_space("qwen2.5-vl")


@st.composite
def screens_and_boxes(draw: st.DrawFn) -> tuple[tuple[int, int], tuple[float, float, float, float]]:
    width, height = draw(st.integers(28, 1400)), draw(st.integers(28, 3000))
    x0, y0 = draw(st.floats(0, width - 1)), draw(st.floats(0, height - 1))
    x1, y1 = draw(st.floats(x0, width)), draw(st.floats(y0, height))
    return (width, height), (x0, y0, x1, y1)


@settings(max_examples=300, deadline=None)
@given(screens_and_boxes(), st.sampled_from([0.3, 0.6, 0.9]), st.integers(1, 4))
def test_every_window_holds_the_box_and_a_fitting_box_always_has_one(case, factor, attempt) -> None:
    (width, height), box = case
    found = windows((width, height), box, factor, attempt)
    crop_w, crop_h = max(1, round(width * factor**attempt)), max(1, round(height * factor**attempt))
    fits = box[2] - box[0] <= crop_w - 2 and box[3] - box[1] <= crop_h - 2  # whole pixels widen a box by < 2
    assert found or not fits
    for left, top, right, bottom in found:
        assert 0 <= left <= box[0] and box[2] <= right <= width and 0 <= top <= box[1] and box[3] <= bottom <= height
        assert right - left <= crop_w and bottom - top <= crop_h  # smaller than the view, as the paper requires


@settings(max_examples=120, deadline=None)
@given(screens_and_boxes(), st.sampled_from(MODEL_SPACE_NAMES), st.integers(1, 3), st.integers(0, 2**32))
def test_the_map_is_exact_and_the_box_lands_inside_the_crop(case, name, attempt, seed) -> None:
    (width, height), pixel_box = case
    space = model_space(name, min_pixels=28 * 28 * 4, max_pixels=28 * 28 * 4000)
    image = Image.new("RGB", (width, height))
    frame = (width, height) if name == "qwen2.5-vl" else space.extent(ScreenSize(width, height))
    box = tuple(v * frame[i % 2] / (width, height)[i % 2] for i, v in enumerate(pixel_box))  # in the space's units
    crop = crop_for_retry(image, box, 0.6, attempt, random.Random(seed), frame=frame, space=space)
    if crop is None:
        return
    left, top, right, bottom = crop.window
    extent = crop.image.size if name == "qwen2.5-vl" else frame
    # The window's corners map onto the crop's corners, so every point in between maps exactly (an affine map).
    window = (left * frame[0] / width, top * frame[1] / height, right * frame[0] / width, bottom * frame[1] / height)
    assert crop.box(window) == pytest.approx((0, 0, *extent), abs=1e-9 * max(extent))
    moved = crop.box(box)
    assert -1e-9 <= moved[0] <= moved[2] <= extent[0] * (1 + 1e-9) and -1e-9 <= moved[1] <= moved[3] <= extent[1] * (
        1 + 1e-9
    )
    # Sized as the processor sizes it: its own rule leaves the crop as it is, so no coordinate moves after us.
    resized = smart_resize(
        crop.image.size[1],
        crop.image.size[0],
        factor=space.resize.factor,
        min_pixels=space.resize.min_pixels,
        max_pixels=space.resize.max_pixels,
    )
    assert resized == (crop.image.size[1], crop.image.size[0])


@pytest.mark.slow
def test_the_modules_examples_hold() -> None:
    assert doctest.testmod(crop_resampling).failed == 0


def test_a_retried_row_carries_the_crop_its_truth_and_its_resolution() -> None:
    image = Image.new("RGB", (532, 1204), "white")
    note = SPACE.screen_note(ScreenSize(532, 1204))
    system = {"role": "system", "content": [{"type": "text", "text": f"tool: {json.dumps(note)} ..."}]}
    user = {
        "role": "user",
        "content": [
            {"type": "text", "text": "Step 2:"},
            {"type": "image", "image": image},
            {"type": "text", "text": "Step 3 (current screen):"},
            {"type": "image", "image": image},
        ],
    }
    prompt: list[dict[str, Any]] = [system, user]
    call = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [266, 589]}}
    row = {
        "id": "s",
        "image_width": 532,
        "image_height": 1204,
        "gt_bbox_model": [236, 559, 296, 619],
        "gt_action_model": json.dumps(call),
        "images": [image, image],
    }
    settings = CropSettings(0.6, 4, model_space("qwen2.5-vl", min_pixels=3136, max_pixels=12845056))
    moved, messages = cropped_row(row, prompt, settings, 1, random.Random(0))  # type: ignore[misc]
    crop = messages[1]["content"][3]["image"]
    assert messages[1]["content"][1]["image"] is image and crop.size != image.size  # history stays, current cropped
    assert (moved["image_width"], moved["image_height"]) == crop.size and moved["images"][-1] is crop
    assert f"resolution is {crop.size[0]}x{crop.size[1]}." in messages[0]["content"][0]["text"]
    x0, y0, x1, y1 = moved["gt_bbox_model"]
    point = json.loads(moved["gt_action_model"])["arguments"]["coordinate"]
    assert 0 <= x0 < point[0] < x1 <= crop.size[0] and 0 <= y0 < point[1] < y1 <= crop.size[1]
    assert row["gt_bbox_model"] == [236, 559, 296, 619] and prompt[1]["content"][3]["image"] is image  # untouched
    assert cropped_row(row | {"gt_bbox_model": None}, prompt, settings, 1, random.Random(0)) is None
    assert cropped_row(row | {"gt_bbox_model": [0, 0, 500, 1000]}, prompt, settings, 1, random.Random(0)) is None


@pytest.fixture(scope="module")
def boxed(exports: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo export's clicks, each with a 60-pixel box around its point (an annotator's box): the demo's
    virtual phone gives its clicks no element box, and resampling needs one."""
    from datasets import load_from_disk

    source = exports["grpo-action"]
    clicks = load_from_disk(str(source))["train"].filter(lambda row: row["gt_action_type"] == "click")

    def with_box(row: dict) -> dict:
        x, y = json.loads(row["gt_action_model"])["arguments"]["coordinate"]
        return {"gt_bbox_model": [x - 30.0, y - 30.0, x + 30.0, y + 30.0]}

    folder = tmp_path_factory.mktemp("boxed")
    clicks.map(with_box).save_to_disk(str(folder))
    shutil.copy(source / "manifest.json", folder / "manifest.json")
    return folder


@pytest.mark.slow
@pytest.mark.train
def test_a_tiny_grpo_run_retries_its_zero_grounding_groups_on_crops(boxed: Path, tmp_path: Path) -> None:
    from trainer_bridge.train.tiny import build_tiny_qwen

    out = tmp_path / "crop"
    arguments = [
        "--recipe",
        "tiny-grpo",
        "--data",
        str(boxed),
        "--model",
        str(build_tiny_qwen(tmp_path / "tiny")),
        "--output_dir",
        str(out),
        "--max_steps",
        "1",
        "--crop_resampling",
        "true",
        "--crop_tries",
        "3",
        "--max_completion_length",
        "16",
        "--report_to",
        "none",
        "--save_strategy",
        "no",
    ]
    assert grpo_action.main(arguments) == 0
    logs = [json.loads(line) for line in (out / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    step = next(e for e in logs if e["event"] == "log" and "reward" in e)
    # An untrained model never lands in a 60-pixel box: the batch's group was cropped in both rounds after the first
    # attempt (3 attempts at most, the first on the whole screenshot).
    assert step["crop_resampling/groups"] == 1 and step["crop_resampling/tries"] == 2
