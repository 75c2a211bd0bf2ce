"""Coordinate spaces: device pixels inside the project, model spaces only at the edges.

Stored coordinates are device pixels of the screenshot they belong to (docs/architecture.md#coordinate-spaces). Models
see other spaces:

- ``qwen2.5-vl``: absolute pixels of the image after Qwen's ``smart_resize`` (e.g. a 1080x2400
  screenshot is fed as 1092x2408, so the model's (546, 1204) is the device's (540, 1200));
- ``qwen2-vl``: integers 0-1000 relative to the image size;
- ``normalized``: floats 0-1 relative to the image size.

Every space is the closed rectangle [0, extent] on each axis (x / width * extent), so the far edge
of one space maps to the far edge of another. Note that the far device edge x = width is one pixel
past the last pixel; :func:`annotator.domain.actions.validate_action` rejects a click there.

Rounding: outputs in device, qwen2.5-vl and qwen2-vl spaces are rounded half up to integers (models
write integers and device taps land on pixels); normalized outputs are floats, unrounded.
:func:`convert_point` rounds once, in the target space. Nothing is clamped: a point outside its
source space raises ValueError.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from annotator.domain.geometry import Box, ScreenSize

Point = tuple[float, float]

# qwen_vl_utils' defaults: factor = patch 14 x merge 2, min 4 x 28 x 28, max 16384 x 28 x 28 pixels.
IMAGE_FACTOR = 28
MIN_PIXELS = 4 * 28 * 28
MAX_PIXELS = 16384 * 28 * 28
MAX_RATIO = 200
RELATIVE_EXTENT = 1000


def smart_resize(
    height: int,
    width: int,
    *,
    factor: int = IMAGE_FACTOR,
    min_pixels: int = MIN_PIXELS,
    max_pixels: int = MAX_PIXELS,
) -> tuple[int, int]:
    """``(resized_height, resized_width)`` exactly as qwen_vl_utils' ``smart_resize`` computes it.

    Both sides become multiples of ``factor``, the area lands in [min_pixels, max_pixels] and the
    aspect ratio stays close. Differences from transformers' copy
    (``transformers.models.qwen2_vl.image_processing_qwen2_vl.smart_resize``, checked on 5.23):
    transformers does not floor the first rounding at ``factor``, so a side of factor / 2 or less
    rounds to 0 there and takes the min_pixels branch (10x2000 gives (28, 812) there and (28, 1988)
    here); and transformers' default max_pixels is 14 * 14 * 4 * 1280 = 1,003,520 (its processor's
    ``longest_edge``), not 12,845,056, so pass the model's processor limits explicitly when they matter.
    """
    if not (_is_positive_int(height) and _is_positive_int(width)):
        raise ValueError(f"image size must be positive integers, got height={height!r} width={width!r}")
    ratio = max(height, width) / min(height, width)
    if ratio > MAX_RATIO:
        raise ValueError(f"absolute aspect ratio must be smaller than {MAX_RATIO}, got {ratio}")
    # Python's round (half to even) on purpose: it is what Qwen's code uses.
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


def _is_positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


class CoordinateSpace(StrEnum):
    DEVICE = "device"
    QWEN25_ABSOLUTE = "qwen2.5-vl"
    QWEN2_RELATIVE = "qwen2-vl"
    NORMALIZED = "normalized"


@dataclass(frozen=True, slots=True)
class ResizeConfig:
    """The processor limits that decide the qwen2.5-vl image size (qwen_vl_utils' defaults)."""

    factor: int = IMAGE_FACTOR
    min_pixels: int = MIN_PIXELS
    max_pixels: int = MAX_PIXELS

    def __post_init__(self) -> None:
        if not all(_is_positive_int(v) for v in (self.factor, self.min_pixels, self.max_pixels)):
            raise ValueError(f"resize settings must be positive integers, got {self}")
        if self.min_pixels > self.max_pixels:
            raise ValueError(f"min_pixels {self.min_pixels} is above max_pixels {self.max_pixels}")

    def resized(self, screen: ScreenSize) -> tuple[int, int]:
        """``(height, width)`` of the image the model sees for a screenshot of this size."""
        limits = {"factor": self.factor, "min_pixels": self.min_pixels, "max_pixels": self.max_pixels}
        return smart_resize(screen.height, screen.width, **limits)


DEFAULT_RESIZE = ResizeConfig()


def space_extent(space: CoordinateSpace, screen: ScreenSize, resize: ResizeConfig = DEFAULT_RESIZE) -> Point:
    """``(x_extent, y_extent)`` of a space for a screenshot: its coordinates run over [0, extent]."""
    space = CoordinateSpace(space)
    if space is CoordinateSpace.DEVICE:
        return (screen.width, screen.height)
    if space is CoordinateSpace.QWEN25_ABSOLUTE:
        height, width = resize.resized(screen)
        return (width, height)
    if space is CoordinateSpace.QWEN2_RELATIVE:
        return (RELATIVE_EXTENT, RELATIVE_EXTENT)
    return (1, 1)


def _round_for(space: CoordinateSpace, value: float) -> float:
    if space is CoordinateSpace.NORMALIZED:
        return value
    # Half up rather than Python's half-to-even, so that x.5 always moves the same way.
    return math.floor(value + 0.5)


def _checked(point: Any, space: CoordinateSpace, extent: Point, screen: ScreenSize) -> Point:
    """The point as two floats, or ValueError when it is not a point or lies outside the space."""
    numbers = isinstance(point, (list, tuple)) and len(point) == 2
    numbers = numbers and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)
    if not numbers:
        raise ValueError(f"{point!r} is not a point; expected (x, y), two numbers")
    x, y = float(point[0]), float(point[1])
    # Written so that NaN fails too: every comparison with NaN is False.
    if not (0 <= x <= extent[0] and 0 <= y <= extent[1]):
        raise ValueError(
            f"point ({point[0]}, {point[1]}) is outside the {space} space of a {screen} screenshot: "
            f"x must be within 0-{extent[0]} and y within 0-{extent[1]}"
        )
    return x, y


def _to_device_exact(point: Any, space: CoordinateSpace, screen: ScreenSize, resize: ResizeConfig) -> Point:
    extent = space_extent(space, screen, resize)
    x, y = _checked(point, space, extent, screen)
    return (x * screen.width / extent[0], y * screen.height / extent[1])


def convert_point(
    point: Any,
    src: CoordinateSpace,
    dst: CoordinateSpace,
    screen: ScreenSize,
    resize: ResizeConfig = DEFAULT_RESIZE,
) -> Point:
    """A point of space ``src`` in space ``dst`` for a screenshot of size ``screen``, rounded for ``dst``."""
    src, dst = CoordinateSpace(src), CoordinateSpace(dst)
    x, y = _to_device_exact(point, src, screen, resize)
    extent = space_extent(dst, screen, resize)
    return (
        _round_for(dst, x * extent[0] / screen.width),
        _round_for(dst, y * extent[1] / screen.height),
    )


def to_device_point(
    point: Any, space: CoordinateSpace, screen: ScreenSize, resize: ResizeConfig = DEFAULT_RESIZE
) -> Point:
    """A model-space point in device pixels (integers)."""
    return convert_point(point, space, CoordinateSpace.DEVICE, screen, resize)


def from_device_point(
    point: Any, space: CoordinateSpace, screen: ScreenSize, resize: ResizeConfig = DEFAULT_RESIZE
) -> Point:
    """A device point in a model space (integers, floats for normalized)."""
    return convert_point(point, CoordinateSpace.DEVICE, space, screen, resize)


def convert_box(
    box: Box,
    src: CoordinateSpace,
    dst: CoordinateSpace,
    screen: ScreenSize,
    resize: ResizeConfig = DEFAULT_RESIZE,
) -> Box:
    """A box's two corners converted; rounding is monotonic, so the corners stay in order."""
    x1, y1 = convert_point((box.x1, box.y1), src, dst, screen, resize)
    x2, y2 = convert_point((box.x2, box.y2), src, dst, screen, resize)
    return Box(x1, y1, x2, y2)


def to_device_box(box: Box, space: CoordinateSpace, screen: ScreenSize, resize: ResizeConfig = DEFAULT_RESIZE) -> Box:
    return convert_box(box, space, CoordinateSpace.DEVICE, screen, resize)


def from_device_box(box: Box, space: CoordinateSpace, screen: ScreenSize, resize: ResizeConfig = DEFAULT_RESIZE) -> Box:
    return convert_box(box, CoordinateSpace.DEVICE, space, screen, resize)


def fit_within(screen: ScreenSize, max_side: int | None) -> ScreenSize:
    """A screenshot's size scaled down (never up) so that its longer side is at most `max_side`."""
    longest = max(screen.width, screen.height)
    if max_side is None or longest <= max_side:
        return screen
    factor = max_side / longest
    return ScreenSize(max(1, math.floor(screen.width * factor + 0.5)), max(1, math.floor(screen.height * factor + 0.5)))


def scale_point(point: Any, source: ScreenSize, target: ScreenSize) -> tuple[int, int]:
    """A point of a `source`-sized image in a `target`-sized copy of it; linear, rounded half up, not clamped
    (a point off the screen stays off it, so a reader sees where it went)."""
    return (
        math.floor(point[0] * target.width / source.width + 0.5),
        math.floor(point[1] * target.height / source.height + 0.5),
    )
