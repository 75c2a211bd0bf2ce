"""Coordinate spaces: Qwen's smart_resize to the pixel, known conversions, and round trips."""

from __future__ import annotations

import ast
import importlib.util
import math
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotator.domain import (
    Box,
    CoordinateSpace,
    ResizeConfig,
    ScreenSize,
    convert_point,
    from_device_box,
    from_device_point,
    smart_resize,
    space_extent,
    to_device_box,
    to_device_point,
)

PHONE = ScreenSize(1080, 2400)
QWEN25, QWEN2, NORMALIZED, DEVICE = (
    CoordinateSpace.QWEN25_ABSOLUTE,
    CoordinateSpace.QWEN2_RELATIVE,
    CoordinateSpace.NORMALIZED,
    CoordinateSpace.DEVICE,
)
TRANSFORMERS_MAX = 14 * 14 * 4 * 1280

# (height, width) -> expected with qwen_vl_utils' defaults and with max_pixels = 1,003,520; values
# computed by running qwen_vl_utils' smart_resize (vision_process.py).
KNOWN_SIZES = [
    ((2400, 1080), (2408, 1092), (1484, 672)),
    ((1080, 2400), (1092, 2408), (672, 1484)),
    ((1920, 1080), (1932, 1092), (1316, 728)),
    ((2340, 1080), (2352, 1092), (1456, 672)),
    ((3200, 1440), (3192, 1428), (1484, 672)),
    ((2712, 1220), (2716, 1232), (1484, 644)),
    ((1280, 720), (1288, 728), (1288, 728)),
    ((800, 480), (812, 476), (812, 476)),
    ((8000, 6000), (4116, 3080), (1148, 840)),
    ((5000, 5000), (3556, 3556), (980, 980)),
    ((10, 2000), (28, 1988), (28, 1988)),  # the short side is floored at factor, not rounded to 0
    ((70, 42), (56, 56), (56, 56)),  # round(2.5) == 2: Python rounds half to even, as Qwen's code does
    ((20, 20), (56, 56), (56, 56)),  # below min_pixels: scaled up
    ((1, 1), (56, 56), (56, 56)),
]


@pytest.mark.parametrize(("size", "expected", "expected_small"), KNOWN_SIZES)
def test_smart_resize_matches_qwen_vl_utils(size: tuple, expected: tuple, expected_small: tuple) -> None:
    assert smart_resize(*size) == expected
    assert smart_resize(*size, max_pixels=TRANSFORMERS_MAX) == expected_small


@pytest.mark.parametrize("size", [(1, 201), (4020, 20), (0, 100), (100, -1), (10.5, 100), (True, 100)])
def test_smart_resize_refuses_impossible_sizes(size: tuple) -> None:
    with pytest.raises(ValueError, match=r"aspect ratio|positive integers"):
        smart_resize(*size)


@pytest.fixture(scope="module")
def transformers_smart_resize() -> Callable[..., tuple[int, int]]:
    """transformers' own function. Its module imports torch (seconds), so when the function needs
    nothing but math it is compiled from the installed source instead of importing the module."""
    pytest.importorskip("transformers")
    name = "transformers.models.qwen2_vl.image_processing_qwen2_vl"
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    with open(spec.origin, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    found = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "smart_resize"]
    namespace: dict = {"math": math}
    try:
        exec(compile(ast.Module(body=found, type_ignores=[]), spec.origin, "exec"), namespace)
        namespace["smart_resize"](2400, 1080)
    except (NameError, KeyError):
        return pytest.importorskip(name).smart_resize
    return namespace["smart_resize"]


@pytest.mark.slow
def test_the_known_difference_from_transformers(transformers_smart_resize) -> None:
    # transformers rounds a side of at most factor / 2 to 0 and then scales the image up.
    assert transformers_smart_resize(10, 2000, 28, 3136, 12845056) == (28, 812)
    assert smart_resize(10, 2000) == (28, 1988)


# Sides of at most factor / 2 behave differently on purpose (see above), so they are left out.
_sides = st.integers(15, 9000)


@given(_sides, _sides, st.sampled_from([(3136, 12845056), (3136, TRANSFORMERS_MAX), (200_704, 1_003_520)]))
def test_smart_resize_agrees_with_transformers(transformers_smart_resize, height, width, limits) -> None:
    if max(height, width) / min(height, width) > 200:
        return
    min_pixels, max_pixels = limits
    ours = smart_resize(height, width, min_pixels=min_pixels, max_pixels=max_pixels)
    assert ours == transformers_smart_resize(height, width, 28, min_pixels, max_pixels)


def test_extents_of_each_space() -> None:
    assert space_extent(DEVICE, PHONE) == (1080, 2400)
    assert space_extent(QWEN25, PHONE) == (1092, 2408)
    assert space_extent(QWEN25, PHONE, ResizeConfig(max_pixels=TRANSFORMERS_MAX)) == (672, 1484)
    assert space_extent(QWEN2, PHONE) == (1000, 1000)
    assert space_extent(NORMALIZED, PHONE) == (1, 1)


@pytest.mark.parametrize(
    ("space", "model_point"),
    [(QWEN25, (546, 1204)), (QWEN2, (500, 500)), (NORMALIZED, (0.5, 0.5)), (DEVICE, (540, 1200))],
)
def test_the_centre_of_a_phone_in_every_space(space: CoordinateSpace, model_point: tuple) -> None:
    assert from_device_point((540, 1200), space, PHONE) == model_point
    assert to_device_point(model_point, space, PHONE) == (540, 1200)


def test_outputs_are_integers_except_normalized() -> None:
    assert all(type(v) is int for v in from_device_point((100.4, 7.6), QWEN2, PHONE))
    assert all(type(v) is int for v in to_device_point((0.123, 0.456), NORMALIZED, PHONE))
    assert from_device_point((108, 600), NORMALIZED, PHONE) == (0.1, 0.25)


def test_rounding_is_half_up() -> None:
    # 0.54 device pixels is exactly 0.5 per mille of 1080; Python's round() would give 0.
    assert from_device_point((0.54, 0), QWEN2, PHONE)[0] == 1
    assert to_device_point((0.25, 0), QWEN2, ScreenSize(10, 10)) == (0, 0)
    assert to_device_point((250, 0), QWEN2, ScreenSize(10, 10)) == (3, 0)  # 2.5 goes up, not to even


def test_convert_point_rounds_once_in_the_target_space() -> None:
    assert convert_point((546, 1204), QWEN25, QWEN2, PHONE) == (500, 500)
    assert convert_point((1, 1), QWEN2, NORMALIZED, PHONE) == pytest.approx((0.001, 0.001))
    # Via rounded device pixels this would be 0.0009259... (1 px); directly it stays 0.0005.
    assert convert_point((0.5, 0), QWEN2, NORMALIZED, PHONE)[0] == pytest.approx(0.0005)


def test_a_custom_resize_changes_qwen25_pixels() -> None:
    small = ResizeConfig(max_pixels=TRANSFORMERS_MAX)
    assert from_device_point((540, 1200), QWEN25, PHONE, small) == (336, 742)
    assert to_device_point((336, 742), QWEN25, PHONE, small) == (540, 1200)


@pytest.mark.parametrize(
    ("point", "space", "message"),
    [
        ((1081, 5), DEVICE, r"point \(1081, 5\) is outside the device space of a 1080x2400 screenshot"),
        ((-1, 5), DEVICE, "x must be within 0-1080 and y within 0-2400"),
        ((1093, 0), QWEN25, "outside the qwen2.5-vl space"),
        ((500, 1001), QWEN2, r"point \(500, 1001\) is outside the qwen2-vl space"),
        ((1.2, 0.5), NORMALIZED, "outside the normalized space"),
        ((math.nan, 0), NORMALIZED, "outside"),
        ((1, 2, 3), DEVICE, "is not a point"),
        ((True, 2), DEVICE, "is not a point"),
        (("1", 2), DEVICE, "is not a point"),
    ],
)
def test_points_outside_the_source_space_are_refused_not_clamped(point, space, message) -> None:
    with pytest.raises(ValueError, match=message):
        convert_point(point, space, NORMALIZED if space is DEVICE else DEVICE, PHONE)


def test_boxes_convert_corner_by_corner() -> None:
    box = Box(108, 240, 540, 1200)
    assert from_device_box(box, QWEN2, PHONE) == Box(100, 100, 500, 500)
    assert from_device_box(box, NORMALIZED, PHONE) == Box(0.1, 0.1, 0.5, 0.5)
    assert to_device_box(Box(100, 100, 500, 500), QWEN2, PHONE) == box
    assert to_device_box(Box(0, 0, 1092, 2408), QWEN25, PHONE) == Box(0, 0, 1080, 2400)
    with pytest.raises(ValueError, match="outside the qwen2-vl space"):
        to_device_box(Box(0, 0, 1001, 10), QWEN2, PHONE)


_screens = st.builds(ScreenSize, st.integers(100, 4000), st.integers(100, 4000)).filter(
    lambda s: max(s.width, s.height) / min(s.width, s.height) <= 200
)


@st.composite
def screens_and_points(draw: st.DrawFn) -> tuple[ScreenSize, tuple[int, int]]:
    screen = draw(_screens)
    return screen, (draw(st.integers(0, screen.width - 1)), draw(st.integers(0, screen.height - 1)))


@given(screens_and_points(), st.sampled_from(list(CoordinateSpace)))
def test_device_to_space_and_back_lands_within_one_unit_of_the_space(sample, space: CoordinateSpace) -> None:
    screen, point = sample
    there = from_device_point(point, space, screen)
    back = to_device_point(there, space, screen)
    extent = space_extent(space, screen)
    # One unit of the space is width / extent device pixels; half of it is lost to rounding there and
    # half a pixel to rounding back, which never exceeds ceil(scale).
    assert abs(back[0] - point[0]) <= math.ceil(screen.width / extent[0])
    assert abs(back[1] - point[1]) <= math.ceil(screen.height / extent[1])
    if space in (DEVICE, NORMALIZED):
        assert back == point


@given(screens_and_points(), st.sampled_from(list(CoordinateSpace)))
def test_device_boxes_stay_ordered_in_every_space(sample, space: CoordinateSpace) -> None:
    screen, (x, y) = sample
    box = from_device_box(Box(x / 2, y / 2, x, y), space, screen)
    assert box.x1 <= box.x2 and box.y1 <= box.y2
    extent = space_extent(space, screen)
    assert 0 <= box.x2 <= extent[0] and 0 <= box.y2 <= extent[1]
