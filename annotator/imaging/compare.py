"""How alike two screenshots look, and whether one is all black: pixel questions the collector asks of a phone."""

from __future__ import annotations

import io
from typing import cast

from PIL import Image, ImageChops, ImageStat

from annotator.imaging.decode import READ_ERRORS, UnreadableImage

THUMBNAIL = (36, 80)  # portrait phones; a rotated screen is squeezed the same way, which is fine for a likeness


def screen_difference(first_png: bytes, second_png: bytes) -> float:
    """How different two screenshots look: the mean absolute difference of small grey thumbnails, 0 to 1."""
    thumbnails = [Image.open(io.BytesIO(png)).convert("L").resize(THUMBNAIL) for png in (first_png, second_png)]
    return float(ImageStat.Stat(ImageChops.difference(*thumbnails)).mean[0]) / 255


def all_black(png: bytes) -> bool:
    """Every pixel black; UnreadableImage when the bytes are not a whole image."""
    try:
        with Image.open(io.BytesIO(png)) as image:
            rgb = image.convert("RGB")
            bands = cast(tuple[tuple[int, int], ...], rgb.getextrema())  # one (low, high) per band of RGB
            return all(high == 0 for _low, high in bands)
    except READ_ERRORS as error:
        raise UnreadableImage(str(error) or type(error).__name__) from None
