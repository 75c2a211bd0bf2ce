"""Privacy regions masked on screenshots: blurred beyond reading or black, clamped, scaled from device pixels."""

from __future__ import annotations

import doctest
import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from annotator.domain.geometry import Box, ScreenSize
from annotator.imaging import mask
from annotator.imaging.mask import mask_regions, scale_box


def test_the_examples_in_the_docstrings_hold() -> None:
    results = doctest.testmod(mask)
    assert results.attempted > 0 and results.failed == 0


def busy_image(size: tuple[int, int] = (200, 120)) -> Image.Image:
    """Noise with black text on it: a region with as much detail as a screenshot's text."""
    rng = random.Random(7)
    image = Image.new("RGB", size)
    image.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(size[0] * size[1])])
    ImageDraw.Draw(image).text((20, 40), "13812345678", fill="black", font_size=28)
    return image


def changed_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox()


def test_black_regions_are_black_and_the_rest_is_unchanged() -> None:
    original = busy_image()
    before = original.copy()
    masked = mask_regions(original, [(10, 20, 60, 50), Box(100, 0, 120, 10)], "black")
    assert masked is not original and ImageChops.difference(original, before).getbbox() is None
    assert masked.crop((10, 20, 60, 50)).getextrema() == ((0, 0), (0, 0), (0, 0))
    assert masked.crop((100, 0, 120, 10)).getextrema() == ((0, 0), (0, 0), (0, 0))
    outside = masked.copy()
    outside.paste(original.crop((10, 20, 60, 50)), (10, 20))
    outside.paste(original.crop((100, 0, 120, 10)), (100, 0))
    assert changed_box(outside, original) is None


def test_a_blurred_region_loses_its_detail_and_nothing_else_changes() -> None:
    original = busy_image()
    box = (10, 30, 190, 80)
    masked = mask_regions(original, [box], "blur")
    assert changed_box(masked, original) == box
    before, after = ImageStat.Stat(original.crop(box)).var, ImageStat.Stat(masked.crop(box)).var
    assert all(a < b / 20 for a, b in zip(after, before, strict=True)), (before, after)


def test_boxes_are_clamped_to_the_image_and_floats_cover_the_pixels_they_touch() -> None:
    original = Image.new("L", (100, 80), 200)
    masked = mask_regions(original, [(-50.5, -10, 30, 20.2), (90.5, 70.5, 500, 500), (10.2, 50.7, 20.1, 60.0)], "black")
    assert changed_box(masked, original) == (0, 0, 100, 80)
    assert masked.crop((0, 0, 30, 21)).getextrema() == (0, 0)
    assert masked.crop((90, 70, 100, 80)).getextrema() == (0, 0)
    assert masked.crop((10, 50, 21, 60)).getextrema() == (0, 0)
    assert masked.getpixel((30, 10)) == masked.getpixel((21, 55)) == masked.getpixel((15, 60)) == 200
    assert mask_regions(original, [(-20, -20, -1, 50), (40, 40, 40, 60), (100, 0, 120, 10)], "black").tobytes() == (
        original.tobytes()
    )


def test_boxes_in_device_pixels_land_on_the_resized_screenshot() -> None:
    screen, shown = ScreenSize(1080, 2400), Image.new("RGB", (540, 1200), "white")
    masked = mask_regions(shown, [(108, 240, 540, 480)], "black", source=screen)
    assert changed_box(masked, shown) == (54, 120, 270, 240)
    assert scale_box(Box(0, 0, 1080, 2400), screen, ScreenSize(540, 1200)) == (0.0, 0.0, 540.0, 1200.0)


def test_transparent_and_palette_images_are_masked_too() -> None:
    rgba = Image.new("RGBA", (40, 40), (255, 0, 0, 0))
    assert mask_regions(rgba, [(0, 0, 10, 10)], "black").getpixel((5, 5)) == (0, 0, 0, 255)
    palette = Image.new("P", (40, 40), 3)
    masked = mask_regions(palette, [(0, 0, 40, 40)], "blur")
    assert masked.mode == "RGB" and masked.size == (40, 40)


@pytest.mark.parametrize("mode", ["pixelate", "", "BLACK"])
def test_an_unknown_mode_is_refused(mode: str) -> None:
    with pytest.raises(ValueError, match="unknown privacy mask mode"):
        mask_regions(busy_image(), [], mode)


@pytest.mark.parametrize(
    "box",
    [
        (1, 2, 3),
        (1, 2, 3, 4, 5),
        "1234",
        7,
        (0, 0, float("nan"), 5),
        (0, 0, float("inf"), 5),
        (0, "a", 5, 5),
        (True, 0, 5, 5),
    ],
)
def test_a_malformed_box_is_refused(box: object) -> None:
    with pytest.raises(ValueError, match=r"4 (finite )?numbers"):
        mask_regions(busy_image(), [box], "blur")  # type: ignore[list-item]


def test_a_box_with_corners_out_of_order_is_refused_before_anything_is_drawn() -> None:
    with pytest.raises(ValueError, match="x1 <= x2"):
        mask_regions(busy_image(), [(0, 0, 10, 10), (50, 10, 40, 20)], "black")
