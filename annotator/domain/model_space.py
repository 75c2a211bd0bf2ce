"""The space a model reads and writes coordinates in, with the image it is shown (export and evaluation).

A model space is a coordinate space of `annotator.domain.coords` plus the resize that decides the image:
an optional scale first (Mobile-R1 trained on halved screenshots), then Qwen's `smart_resize`. The exported
image has exactly that size, so a trainer's processor leaves it alone and the model's pixels are the image's.

| name | coordinates | image |
|---|---|---|
| `qwen2.5-vl` | absolute pixels of the image | smart_resize, factor 28 |
| `qwen2-vl` | 0-1000 on each axis | smart_resize, factor 28 |
| `qwen3-vl` | 0-1000 on each axis | smart_resize, factor 32 |
| `normalized` | 0-1 on each axis | smart_resize, factor 28 |

Points convert through the ratio to the device screen, so scaling never moves a point off its element.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from annotator.domain.coords import (
    IMAGE_FACTOR,
    MAX_PIXELS,
    MIN_PIXELS,
    RELATIVE_EXTENT,
    CoordinateSpace,
    ResizeConfig,
)
from annotator.domain.geometry import Box, ScreenSize

POINT_KEYS = ("coordinate", "coordinate2")
_SPACES = {
    "qwen2.5-vl": (CoordinateSpace.QWEN25_ABSOLUTE, IMAGE_FACTOR),
    "qwen2-vl": (CoordinateSpace.QWEN2_RELATIVE, IMAGE_FACTOR),
    "qwen3-vl": (CoordinateSpace.QWEN2_RELATIVE, 32),
    "normalized": (CoordinateSpace.NORMALIZED, IMAGE_FACTOR),
}
MODEL_SPACE_NAMES = tuple(_SPACES)


@lru_cache(maxsize=1024)  # an export asks for every point of every step; a workspace holds a few screen sizes
def _shown_size(resize: ResizeConfig, image_scale: float, screen: ScreenSize) -> ScreenSize:
    scaled = ScreenSize(max(1, round(screen.width * image_scale)), max(1, round(screen.height * image_scale)))
    height, width = resize.resized(scaled)
    return ScreenSize(width, height)


@dataclass(frozen=True)
class ModelSpace:
    name: str
    space: CoordinateSpace
    resize: ResizeConfig
    image_scale: float = 1.0

    def image_size(self, screen: ScreenSize) -> ScreenSize:
        """The size of the image the model is shown for a screenshot of `screen`."""
        return _shown_size(self.resize, self.image_scale, screen)

    def extent(self, screen: ScreenSize) -> tuple[float, float]:
        if self.space is CoordinateSpace.QWEN25_ABSOLUTE:
            image = self.image_size(screen)
            return (image.width, image.height)
        if self.space is CoordinateSpace.QWEN2_RELATIVE:
            return (RELATIVE_EXTENT, RELATIVE_EXTENT)
        return (1.0, 1.0)

    def _rounded(self, value: float) -> float:
        if self.space is CoordinateSpace.NORMALIZED:
            return round(value, 6)  # enough for a pixel of any screen, and stable text in the files
        return math.floor(value + 0.5)  # half up, as annotator.domain.coords rounds

    def point(self, point: Any, screen: ScreenSize) -> list[float]:
        """A device point in this space. Points are not clamped: a point off the screen stays off it."""
        x_extent, y_extent = self.extent(screen)
        x, y = float(point[0]), float(point[1])
        return [self._rounded(x * x_extent / screen.width), self._rounded(y * y_extent / screen.height)]

    def device_point(self, point: Any, screen: ScreenSize) -> tuple[int, int]:
        """A point of this space in device pixels (rounded half up)."""
        x_extent, y_extent = self.extent(screen)
        x, y = float(point[0]) * screen.width / x_extent, float(point[1]) * screen.height / y_extent
        return (math.floor(x + 0.5), math.floor(y + 0.5))

    def box(self, box: Box, screen: ScreenSize) -> list[float]:
        return [*self.point((box.x1, box.y1), screen), *self.point((box.x2, box.y2), screen)]

    def tool_call(self, tool_call: dict[str, Any], screen: ScreenSize) -> dict[str, Any]:
        """A copy of a device-pixel tool call with its points in this space; other values as they are."""
        arguments = tool_call.get("arguments")
        if not isinstance(arguments, dict):
            return tool_call
        converted = dict(arguments)
        for key in POINT_KEYS:
            if is_point(arguments.get(key)):
                converted[key] = self.point(arguments[key], screen)
        return {**tool_call, "arguments": converted}

    def screen_note(self, screen: ScreenSize) -> str:
        """The line the system prompt ends with: how the model must write coordinates."""
        if self.space is CoordinateSpace.QWEN25_ABSOLUTE:
            image = self.image_size(screen)
            return f"The screen's resolution is {image.width}x{image.height}."
        if self.space is CoordinateSpace.QWEN2_RELATIVE:
            return f"Coordinates are relative to the screen, from 0 to {RELATIVE_EXTENT} on each axis."
        return "Coordinates are fractions of the screen, from 0 to 1 on each axis."


# Mobile-R1 Appendix E: each screenshot fed to the model is downsampled by a factor of 2 in both dimensions. An
# export shows the model that size unless told otherwise, and collection and imports make that copy ahead.
DEFAULT_IMAGE_SCALE = 0.5
DEFAULT_SPACE = "qwen2.5-vl"


def default_export_space() -> ModelSpace:
    """The space an export writes in when given no options (its copies are made at collection and import)."""
    return model_space(DEFAULT_SPACE, image_scale=DEFAULT_IMAGE_SCALE)


def model_space(
    name: str, *, min_pixels: int = MIN_PIXELS, max_pixels: int = MAX_PIXELS, image_scale: float = 1.0
) -> ModelSpace:
    if name not in _SPACES:
        raise ValueError(f"coordinate space {name!r}: expected one of {', '.join(MODEL_SPACE_NAMES)}")
    if not (0 < image_scale <= 1):
        raise ValueError(f"image scale must be above 0 and at most 1, got {image_scale}")
    space, factor = _SPACES[name]
    return ModelSpace(name, space, ResizeConfig(factor, min_pixels, max_pixels), image_scale)


def is_point(value: Any) -> bool:
    return (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)
    )
