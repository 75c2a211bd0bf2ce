"""The geometry the grounding rewards share: a point in a box, the box-centred Chebyshev distance, IoU, the
AndroidControl distance rule and a swipe's direction. Plain floats, no validation: callers pass parsed values."""

from __future__ import annotations

import math

Point = tuple[float, float]
BoxTuple = tuple[float, float, float, float]

# AndroidControl's rule for rows without an element box (UI-AGILE 4.3 after OS-Atlas; UI-R1 4 "14% of the screen
# size", read here as of its width, as OS-Atlas's evaluation code does).
DISTANCE_FRACTION = 0.14


def in_box(point: Point, box: BoxTuple) -> bool:
    """Edges inclusive: a click on the border of an element is on the element.

    >>> in_box((10, 20), (0, 0, 10, 20)), in_box((10.5, 20), (0, 0, 10, 20))
    (True, False)
    """
    x, y = point
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def chebyshev_from_centre(point: Point, box: BoxTuple) -> float:
    """UI-AGILE eq. 4: max(|x - cx| / half width, |y - cy| / half height); 1 on the edge, 0 at the centre.

    A box of zero width (or height) has a zero half width; a point on it is at distance 0 along that axis,
    because dividing by zero would make a point exactly on a line box infinitely far from its own line.

    >>> chebyshev_from_centre((15, 5), (0, 0, 20, 10)), chebyshev_from_centre((20, 5), (0, 0, 20, 10))
    (0.5, 1.0)
    """
    x, y = point
    half_w, half_h = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    dx, dy = abs(x - (box[0] + box[2]) / 2), abs(y - (box[1] + box[3]) / 2)
    return max(dx / half_w if half_w else 0.0, dy / half_h if half_h else 0.0)


def iou(a: BoxTuple, b: BoxTuple) -> float:
    """Intersection over union of two boxes; 0 when both are empty (no area to overlap).

    >>> iou((0, 0, 10, 10), (5, 0, 15, 10))  # 50 / 150
    0.3333333333333333
    """
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    inter = width * height if width > 0 and height > 0 else 0.0
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def within_distance(
    point: Point,
    target: Point,
    image_size: tuple[float, float],
    extent: tuple[float, float] | None = None,
    fraction: float = DISTANCE_FRACTION,
) -> bool:
    """True when ``point`` is within ``fraction`` of the image width of ``target`` (Euclidean, in image pixels).

    ``extent`` is the completions' coordinate range when it is not the image's pixels (qwen2-vl: (1000, 1000),
    normalised: (1, 1)); both axes are scaled to pixels first, so the circle stays a circle on the screen.

    >>> within_distance((640, 500), (500, 500), (1000, 2000)), within_distance((641, 500), (500, 500), (1000, 2000))
    (True, False)
    >>> within_distance((640, 250), (500, 250), (1000, 2000), extent=(1000, 1000))  # 0-1000 space
    True
    """
    width, height = image_size
    scale_x, scale_y = (width / extent[0], height / extent[1]) if extent else (1.0, 1.0)
    distance = math.hypot((point[0] - target[0]) * scale_x, (point[1] - target[1]) * scale_y)
    return distance <= fraction * width


def direction(start: Point, end: Point) -> str:
    """ "up", "down", "left" or "right": the finger's larger movement (ties go to the vertical, the usual scroll).

    >>> direction((0, 100), (10, 0)), direction((0, 0), (-50, 10))
    ('up', 'left')
    """
    dx, dy = end[0] - start[0], end[1] - start[1]
    if abs(dy) >= abs(dx):
        return "down" if dy > 0 else "up"
    return "right" if dx > 0 else "left"
