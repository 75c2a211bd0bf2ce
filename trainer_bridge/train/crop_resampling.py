"""UI-AGILE's cropping-based resampling (section 3.3, Algorithm 1, Table 1) for the action-level GRPO script.

The paper's rule: "If a training sample proves too difficult (i.e., receive a grounding reward of zero for all
generated responses), the image will be cropped to simplify the task, and the model resamples new responses from
this modified input." The crop "is smaller than the original view but still fully contains the ground-truth
bounding box"; Algorithm 1 sets the crop to (w_o f, h_o f), the strides to (w_crop - w_b, h_crop - h_b), and scans
the windows left to right, top to bottom, keeping those that contain the box. Section 4.1: "The sampling process is
attempted 4 times at most and is bypassed entirely if the bbox's dimensions exceed the target crop size", the
cropping factor (0.6) being "the width and height ratio of new attempted image and last attempted image".

Where the paper leaves something open, this module chooses:

- The 4 attempts count the first, on the whole screenshot: up to 3 rounds on crops. Try k (1-based) crops the
  *original* screenshot to f^k of its width and height (the ratio to the last attempt is f, as Table 1 says);
  scanning the original rather than the previous crop gives the same sizes with one code path.
- The text keeps "the first window"; Algorithm 1 returns the set. One window of the set is drawn with a generator
  seeded by (run seed, step, sample id, try), so every generation of a group (on any process) sees the same crop.
  With these strides the set holds one or two windows per axis, so the draw only breaks ties.
- Windows are whole pixels (PIL crops pixels): the box is widened to whole pixels before the scan, so the strides
  are integers and a window that holds the widened box holds the box. Windows at the right and bottom edges are
  clipped to the image as Algorithm 1's min() does, so they may be narrower than w_crop.
- Only the current screenshot (the prompt's last image) is cropped; history screenshots stay as they are.
- "Zero grounding" is UI-AGILE's continuous grounding reward (eq. 3) scoring 0: no predicted point in the box.
  Rows without a coordinate truth or without a box are never resampled (there is no box to keep in a crop).
- The crop is resized to the size the processor would give it under the export's pixel limits (the manifest's
  min_pixels / max_pixels and the model's factor: ``annotator.domain.coords.smart_resize``, the same rule the
  export used), so the processor leaves it alone and the coordinates written for it are exact. A crop smaller
  than min_pixels is therefore scaled up (the model sees the target larger: the task gets easier, as intended).

Coordinates move into the crop's frame, so TRL's rewards compare the completions with the truth of the image the
model saw: x' = (x - offset_x) * scale_x (and y alike), in the export's coordinate space (absolute pixels of the
model image for qwen2.5-vl, 0-1000 or 0-1 for the relative spaces). The prompt's resolution sentence and the
``image_width`` / ``image_height`` columns become the crop's.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from annotator.domain.coords import CoordinateSpace
from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import POINT_KEYS, ModelSpace

Window = tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels of the original image, x1/y1 exclusive
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class CropSettings:
    """What a run's resampling needs: the paper's factor and tries, and the export's coordinate space."""

    factor: float
    tries: int
    space: ModelSpace
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.factor < 1:
            raise ValueError(f"crop_factor must be between 0 and 1 (UI-AGILE: 0.6), got {self.factor}")
        if self.tries < 1:
            raise ValueError(f"crop_tries must be at least 1 (1: no crop; UI-AGILE: 4), got {self.tries}")


@dataclass(frozen=True)
class Crop:
    """A crop of the screenshot, resized for the processor, and the map from the original's coordinates to its."""

    image: Image.Image
    window: Window
    offset: tuple[float, float]  # the window's corner, in the original's coordinates
    scale: tuple[float, float]  # crop coordinates per original coordinate

    def point(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.offset[0]) * self.scale[0], (y - self.offset[1]) * self.scale[1])

    def box(self, box: Sequence[float]) -> Box:
        x1, y1 = self.point(box[0], box[1])
        x2, y2 = self.point(box[2], box[3])
        return (x1, y1, x2, y2)


def windows(size: tuple[int, int], box: Box, factor: float, attempt: int) -> list[Window]:
    """Algorithm 1's windows of try `attempt` for `box` (pixels) in an image of `size`: every scanned window that
    holds the box; [] when the box is larger than the crop (4.1: resampling is bypassed).

    >>> windows((100, 100), (55, 10, 65, 20), 0.6, 1)  # crop 60, strides 50: x from 0, 50; y from 0, 50
    [(50, 0, 100, 60)]
    >>> windows((100, 100), (0, 0, 70, 10), 0.6, 1)  # the box is wider than 60: bypassed
    []
    """
    width, height = size
    crop_w, crop_h = (max(1, round(side * factor**attempt)) for side in size)
    x0, y0 = math.floor(box[0]), math.floor(box[1])
    x1, y1 = math.ceil(box[2]), math.ceil(box[3])
    if x1 - x0 > crop_w or y1 - y0 > crop_h:
        return []
    # A stride of 0 (the box exactly as large as the crop) would never move: one pixel still scans every window.
    step_x, step_y = max(1, crop_w - (x1 - x0)), max(1, crop_h - (y1 - y0))
    found = []
    for left in range(0, width, step_x):
        right = min(left + crop_w, width)
        for top in range(0, height, step_y):
            bottom = min(top + crop_h, height)
            if left <= x0 and x1 <= right and top <= y0 and y1 <= bottom:
                found.append((left, top, right, bottom))
    return found


def crop_for_retry(
    image: Image.Image,
    box: Sequence[float],
    factor: float,
    attempt: int,
    rng: random.Random,
    *,
    frame: tuple[float, float],
    space: ModelSpace,
) -> Crop | None:
    """Try `attempt`'s crop of `image` holding `box` (given in the export's coordinates, which run over `frame`
    on the image: the model image's size for absolute coordinates, 1000 x 1000 or 1 x 1 for relative ones), resized
    as the processor would resize it under `space`'s pixel limits; None when the box does not fit (or is empty).

    >>> from annotator.domain.model_space import model_space
    >>> crop = crop_for_retry(Image.new("RGB", (560, 1120)), (300, 500, 340, 540), 0.6, 1, random.Random(0),
    ...                       frame=(560, 1120), space=model_space("qwen2.5-vl"))
    >>> crop.window, crop.image.size  # the right-edge window, clipped to 264 px wide: the processor's rule gives 252
    ((296, 0, 560, 672), (252, 672))
    >>> [round(v, 2) for v in crop.box((300, 500, 340, 540))]  # the box in the crop's pixels
    [3.82, 500.0, 42.0, 540.0]
    """
    width, height = image.size
    per_x, per_y = width / frame[0], height / frame[1]  # image pixels per coordinate unit
    pixels = (
        max(0.0, box[0] * per_x),
        max(0.0, box[1] * per_y),
        min(width, box[2] * per_x),
        min(height, box[3] * per_y),
    )
    if pixels[0] > pixels[2] or pixels[1] > pixels[3]:
        return None
    found = windows((width, height), pixels, factor, attempt)
    if not found:
        return None
    window = rng.choice(found)
    left, top, right, bottom = window
    resized_h, resized_w = space.resize.resized(ScreenSize(right - left, bottom - top))
    crop = image.crop(window)
    if crop.size != (resized_w, resized_h):
        crop = crop.resize((resized_w, resized_h), Image.Resampling.BICUBIC)  # the processor's own resampling
    extent = _extent(space, (resized_w, resized_h))
    scale = (extent[0] * per_x / (right - left), extent[1] * per_y / (bottom - top))
    return Crop(crop, window, (left / per_x, top / per_y), scale)


def _extent(space: ModelSpace, size: tuple[int, int]) -> tuple[float, float]:
    """The coordinate extent of an image of `size` (already the model's size) in `space`."""
    if space.space is CoordinateSpace.QWEN25_ABSOLUTE:
        return (float(size[0]), float(size[1]))
    return space.extent(ScreenSize(*size))  # relative spaces: the same extent for every image


def frame_of(row: Mapping[str, Any], image: Image.Image, space: ModelSpace) -> tuple[float, float]:
    """The extent the row's coordinates run over: the exported model image's size (``image_width`` /
    ``image_height``, which the export writes) for absolute coordinates, the space's extent for relative ones."""
    if space.space is not CoordinateSpace.QWEN25_ABSOLUTE:
        return space.extent(ScreenSize(*image.size))
    width, height = row.get("image_width"), row.get("image_height")
    if isinstance(width, (int, float)) and isinstance(height, (int, float)) and width > 0 and height > 0:
        return (float(width), float(height))
    return (float(image.size[0]), float(image.size[1]))


def _decoded(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) and value[:1] in ("{", "[") else value


def _column(row: Mapping[str, Any], model_name: str, plain_name: str) -> str | None:
    """The column the rewards read (trainer_bridge.rewards.completions: `_model` when present, else the plain)."""
    if row.get(model_name) is not None:
        return model_name
    return plain_name if row.get(plain_name) is not None else None


def _mapped_action(value: Any, crop: Crop) -> Any:
    """A tool call (JSON text or dict) with its points moved into the crop; its other values as they are."""
    call = _decoded(value)
    arguments = call.get("arguments") if isinstance(call, dict) else None
    if not isinstance(arguments, dict):
        return value
    moved = dict(arguments)
    for key in POINT_KEYS:
        point = arguments.get(key)
        if isinstance(point, (list, tuple)) and len(point) == 2:
            moved[key] = list(crop.point(float(point[0]), float(point[1])))
    mapped = {**call, "arguments": moved}
    return json.dumps(mapped, ensure_ascii=False, sort_keys=True) if isinstance(value, str) else mapped


def _last_image(prompt: Sequence[Mapping[str, Any]]) -> tuple[int, int] | None:
    """(message, part) of the prompt's last image: the current screenshot (the export shows history first)."""
    found = None
    for m, message in enumerate(prompt):
        content = message.get("content")
        for p, part in enumerate(content if isinstance(content, list) else ()):
            if isinstance(part, Mapping) and part.get("type") == "image" and part.get("image") is not None:
                found = (m, p)
    return found


def _with_notes(text: Any, old: str, new: str) -> Any:
    if not isinstance(text, str) or old == new:
        return text
    # The tool description carries the sentence JSON-escaped (annotator.domain.prompts.mobile_use_tool).
    escaped_old, escaped_new = (json.dumps(s, ensure_ascii=False)[1:-1] for s in (old, new))
    return text.replace(old, new).replace(escaped_old, escaped_new)


def cropped_row(
    row: Mapping[str, Any],
    prompt: Sequence[Mapping[str, Any]],
    settings: CropSettings,
    attempt: int,
    rng: random.Random,
) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The dataset row and TRL's prompt (its images filled in) of try `attempt`: the current screenshot cropped
    around the target box, the truth columns, sizes and resolution sentence in the crop's frame; None when the
    row has no box, no image, or a box that no longer fits."""
    box_column = _column(row, "gt_bbox_model", "gt_bbox")
    at = _last_image(prompt)
    box = _decoded(row.get(box_column)) if box_column else None
    if at is None or not isinstance(box, (list, tuple)) or len(box) != 4:
        return None
    image = prompt[at[0]]["content"][at[1]]["image"]
    frame = frame_of(row, image, settings.space)
    crop = crop_for_retry(
        image, [float(v) for v in box], settings.factor, attempt, rng, frame=frame, space=settings.space
    )
    if crop is None:
        return None
    old_note = settings.space.screen_note(ScreenSize(round(frame[0]), round(frame[1])))
    new_note = settings.space.screen_note(ScreenSize(*crop.image.size))
    messages = [dict(message) for message in prompt]
    for m, message in enumerate(messages):
        content = message.get("content")
        if isinstance(content, list):
            parts = [dict(part) if isinstance(part, Mapping) else part for part in content]
            for part in parts:
                if isinstance(part, dict) and part.get("type") == "text":
                    part["text"] = _with_notes(part.get("text"), old_note, new_note)
            if m == at[0]:
                parts[at[1]] = {**parts[at[1]], "image": crop.image}
            message["content"] = parts
        else:
            message["content"] = _with_notes(content, old_note, new_note)
    moved = dict(row)
    moved[box_column] = list(crop.box([float(v) for v in box]))  # type: ignore[index]
    action_column = _column(row, "gt_action_model", "gt_action")
    if action_column:
        moved[action_column] = _mapped_action(row[action_column], crop)
    if settings.space.space is CoordinateSpace.QWEN25_ABSOLUTE:
        moved["image_width"], moved["image_height"] = crop.image.size
    if isinstance(row.get("images"), list) and row["images"]:
        moved["images"] = [*row["images"][:-1], crop.image]
    return moved, messages


def row_rng(settings: CropSettings, step: int, row: Mapping[str, Any], attempt: int) -> random.Random:
    """The generator of one sample's try: the same for every generation of its group, on any process (a string
    seed is hashed with SHA-512 by `random`, not with the per-process `hash`)."""
    identity = row.get("id") or json.dumps([row.get("gt_bbox_model"), row.get("gt_bbox")], default=str)
    return random.Random(f"{settings.seed}:{step}:{identity}:{attempt}")


class CropResampling:
    """GRPOTrainer mixin (``class T(CropResampling, GRPOTrainer)``): after TRL generates a batch, the groups whose
    every generation scores zero grounding are generated again on a crop; ``settings.tries`` counts every attempt,
    the first on the whole screenshot among them ("the sampling process is attempted 4 times at most", UI-AGILE
    4.1), so there are ``tries - 1`` rounds on crops.

    The hook is TRL 1.16's ``_generate(prompts)``, called once by ``_generate_and_score_completions`` with the
    batch's prompts (images filled in). Everything after it (log-probabilities, the processor's pixel values,
    rewards, advantages, loss) is computed from what it returns, from that same ``prompts`` list and from the
    batch's rows; so the retried rows' prompts and rows are replaced in place (the crop, and the truth in the
    crop's frame) and their generation outputs spliced in, and TRL scores the crop as if it were the sample. No
    output tensors are merged and TRL is not copied.

    Every process takes part in each retry with the same number of rows: generation is collective under ZeRO-3
    and vLLM's server mode, and a group's generations may sit on several processes. So the zero flags are
    gathered, and with several processes every local row is generated again (only the retried groups' rows are
    kept); one process generates only the retried rows. The logged ``crop_resampling/groups`` is the number of
    groups retried per generation batch, ``crop_resampling/tries`` the rounds of generation on crops, and
    ``crop_resampling/rescued`` the groups a crop gave a non-zero grounding score.
    """

    crop_settings: CropSettings
    _crop_rows: list[dict[str, Any]] | None = None

    def _generate_and_score_completions(self, inputs: list[dict[str, Any]]) -> Any:
        self._crop_rows = inputs  # the batch's rows: the retried ones are replaced in place, as the rewards read them
        try:
            return super()._generate_and_score_completions(inputs)  # type: ignore[misc]
        finally:
            self._crop_rows = None

    def _generate(self, prompts: list[Any]) -> Any:
        result = list(super()._generate(prompts))  # type: ignore[misc]
        rows = self._crop_rows
        trainer: Any = self
        if rows is None or not trainer.model.training or len(rows) != len(prompts):
            return tuple(result)
        import torch

        original_rows, original_prompts = list(rows), list(prompts)
        count = len(rows)
        first = trainer.accelerator.process_index * count  # this process's rows in the gathered order
        retried: set[int] = set()  # the groups (gathered index) that were cropped
        tries = 0
        for attempt in range(1, self.crop_settings.tries):  # attempt 0 was TRL's own, on the whole screenshot
            scores = _grounding(result[3], rows)
            crops: dict[int, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
            for index, score in enumerate(scores):
                if score == 0.0:
                    rng = row_rng(self.crop_settings, trainer.state.global_step, original_rows[index], attempt)
                    made = cropped_row(original_rows[index], original_prompts[index], self.crop_settings, attempt, rng)
                    if made is not None:
                        crops[index] = made
            flags = torch.tensor([float(index in crops) for index in range(count)], device=trainer.accelerator.device)
            groups = trainer.accelerator.gather(flags).view(-1, trainer.num_generations).all(dim=1).tolist()
            again = [index for index in range(count) if groups[(first + index) // trainer.num_generations]]
            if not again:
                break
            retried.update((first + index) // trainer.num_generations for index in again)
            tries += 1
            for index in again:
                rows[index], prompts[index] = crops[index]
            regenerate = again if trainer.accelerator.num_processes == 1 else list(range(count))
            fresh = super()._generate([prompts[index] for index in regenerate])  # type: ignore[misc]
            kept = set(again)
            for position, index in enumerate(regenerate):
                if index in kept:
                    for field in (0, 1, 2, 3, 4, 6):  # ids, completion ids, tool mask, completions, logprobs, images
                        if result[field] is not None and fresh[field] is not None:
                            result[field][index] = fresh[field][position]
        self._log_crops(retried, tries, result[3], rows, first)
        return tuple(result)

    def _log_crops(
        self, retried: set[int], tries: int, completions: Any, rows: list[dict[str, Any]], first: int
    ) -> None:
        """The metrics of this batch's resampling (identical on every process: they come from gathered flags)."""
        import torch

        trainer: Any = self
        hits = torch.tensor(
            [float(bool(score)) for score in _grounding(completions, rows)], device=trainer.accelerator.device
        )
        per_group = trainer.accelerator.gather(hits).view(-1, trainer.num_generations).sum(dim=1).tolist()
        metrics = trainer._metrics["train"]
        metrics["crop_resampling/groups"].append(float(len(retried)))
        metrics["crop_resampling/tries"].append(float(tries))
        metrics["crop_resampling/rescued"].append(float(sum(1 for group in retried if per_group[group] > 0)))


def _grounding(completions: Sequence[Any], rows: Sequence[Mapping[str, Any]]) -> list[float | None]:
    """UI-AGILE's continuous grounding reward of each completion against its row (None: no box or no point truth)."""
    from trainer_bridge.rewards.grounding import continuous_grounding_reward

    return continuous_grounding_reward(completions, **{key: [row.get(key) for row in rows] for key in rows[0]})
