"""Privacy regions masked on a screenshot (Mobile-R1 section 8): each box an annotator marked is blurred beyond
reading or filled with black, in the image's own pixels, or in a resized copy's (`scale_box`, or
`mask_regions(..., source=...)` for boxes stored in device pixels)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from numbers import Real

from PIL import Image, ImageColor, ImageFilter

from annotator.domain.geometry import Box, ScreenSize

MASK_MODES: tuple[str, ...] = ("blur", "black")
BoxLike = Box | Sequence[float]

_MIN_CELL = 8  # pixels: the smallest pixelation cell of a blurred region


def _corners(region: BoxLike) -> tuple[float, float, float, float]:
    """The four corners of a box as floats; ValueError unless they are 4 finite numbers with x1 <= x2, y1 <= y2."""
    try:
        values = region.as_list() if isinstance(region, Box) else list(region)
    except TypeError:
        values = []
    if isinstance(region, str | bytes) or len(values) != 4:
        raise ValueError(f"a privacy region must be 4 numbers (x1, y1, x2, y2), got {region!r}")
    if not all(isinstance(v, Real) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        raise ValueError(f"a privacy region must be 4 finite numbers (x1, y1, x2, y2), got {region!r}")
    x1, y1, x2, y2 = (float(v) for v in values)
    if x2 < x1 or y2 < y1:
        raise ValueError(f"a privacy region needs x1 <= x2 and y1 <= y2, got {region!r}")
    return x1, y1, x2, y2


def scale_box(region: BoxLike, source: ScreenSize, target: ScreenSize) -> tuple[float, float, float, float]:
    """A box in pixels of a `source`-sized image, in pixels of a `target`-sized copy of it (linear, not rounded).

    >>> scale_box((108, 240, 540, 480), ScreenSize(1080, 2400), ScreenSize(540, 1200))
    (54.0, 120.0, 270.0, 240.0)
    """
    x1, y1, x2, y2 = _corners(region)
    fx, fy = target.width / source.width, target.height / source.height
    return x1 * fx, y1 * fy, x2 * fx, y2 * fy


def _pixel_box(region: BoxLike, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The pixels a box touches, clamped to the image; None for an empty box or one wholly outside."""
    x1, y1, x2, y2 = _corners(region)
    if x1 == x2 or y1 == y2:
        return None
    left, top = max(0, math.floor(x1)), max(0, math.floor(y1))
    right, bottom = min(size[0], math.ceil(x2)), min(size[1], math.ceil(y2))
    if right <= left or bottom <= top:
        return None
    return left, top, right, bottom


def _unreadable(region: Image.Image) -> Image.Image:
    """`region` pixelated into cells a quarter of its shorter side (at least 8 px), then blurred by a cell."""
    width, height = region.size
    cell = max(_MIN_CELL, min(width, height) // 4)
    coarse = region.resize((max(1, round(width / cell)), max(1, round(height / cell))), Image.Resampling.BOX)
    return coarse.resize((width, height), Image.Resampling.BILINEAR).filter(ImageFilter.GaussianBlur(cell))


def _editable_copy(image: Image.Image) -> Image.Image:
    if image.mode in ("RGB", "RGBA", "L", "LA"):
        return image.copy()
    keeps_alpha = "A" in image.getbands() or "transparency" in image.info
    return image.convert("RGBA" if keeps_alpha else "RGB")


def mask_regions(
    image: Image.Image, regions: Iterable[BoxLike], mode: str, *, source: ScreenSize | None = None
) -> Image.Image:
    """A copy of `image` with each region blurred beyond reading (``"blur"``) or filled with opaque black
    (``"black"``). A region is ``(x1, y1, x2, y2)`` (or a `Box`) in the image's pixels, or in pixels of a
    `source`-sized original when `source` is given; floats cover every pixel they touch; parts outside the image
    are clipped; empty regions are skipped. Images other than RGB(A)/L(A) come back as RGB or RGBA.

    Raises ValueError for an unknown mode or a region that is not 4 finite numbers with x1 <= x2 and y1 <= y2,
    before anything is drawn.
    """
    if mode not in MASK_MODES:
        raise ValueError(f"unknown privacy mask mode {mode!r}: use one of {', '.join(MASK_MODES)}")
    target = ScreenSize(*image.size)
    scaled = [region if source is None else scale_box(region, source, target) for region in regions]
    boxes = [box for box in (_pixel_box(region, image.size) for region in scaled) if box is not None]
    masked = _editable_copy(image)
    black = ImageColor.getcolor("black", masked.mode)
    for box in boxes:
        if mode == "black":
            masked.paste(black, box)
        else:
            masked.paste(_unreadable(masked.crop(box)), box)
    return masked
