"""Icons and pictures for the virtual phone, drawn with Pillow primitives (no image files to ship)."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable

from PIL import Image, ImageDraw, ImageFilter

Rect = tuple[int, int, int, int]
Color = tuple[int, int, int] | str
Painter = Callable[[ImageDraw.ImageDraw, float, float, float, Color], None]


def _search(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.ellipse((cx - r * 0.8, cy - r * 0.8, cx + r * 0.4, cy + r * 0.4), outline=color, width=max(3, int(r / 5)))
    draw.line((cx + r * 0.3, cy + r * 0.3, cx + r * 0.9, cy + r * 0.9), fill=color, width=max(3, int(r / 4)))


def _back(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.line((cx + r * 0.3, cy - r * 0.7, cx - r * 0.4, cy, cx + r * 0.3, cy + r * 0.7), fill=color, width=6)


def _chevron(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.line((cx - r * 0.2, cy - r * 0.5, cx + r * 0.3, cy, cx - r * 0.2, cy + r * 0.5), fill=color, width=4)


def _heart_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    steps = [i * 2 * math.pi / 40 for i in range(40)]
    return [
        (
            cx + r * 0.055 * 16 * math.sin(t) ** 3,
            cy - r * 0.055 * (13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)),
        )
        for t in steps
    ]


def _heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.polygon(_heart_points(cx, cy, r), outline=color, width=5)


def _heart_filled(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.polygon(_heart_points(cx, cy, r), fill=(254, 44, 85))


def _comment(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.rounded_rectangle((cx - r, cy - r * 0.75, cx + r, cy + r * 0.5), r * 0.3, outline=color, width=5)
    draw.polygon([(cx - r * 0.4, cy + r * 0.45), (cx - r * 0.5, cy + r), (cx, cy + r * 0.45)], fill=color)


def _share(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.polygon([(cx + r, cy - r * 0.2), (cx + r * 0.1, cy - r * 0.9), (cx + r * 0.1, cy + r * 0.5)], fill=color)
    draw.arc((cx - r, cy - r * 0.45, cx + r * 0.6, cy + r * 1.4), 180, 270, fill=color, width=8)


def _cart(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.line((cx - r, cy - r * 0.8, cx - r * 0.6, cy - r * 0.8, cx - r * 0.3, cy + r * 0.4), fill=color, width=5)
    draw.polygon(
        [
            (cx - r * 0.5, cy - r * 0.5),
            (cx + r, cy - r * 0.5),
            (cx + r * 0.7, cy + r * 0.4),
            (cx - r * 0.3, cy + r * 0.4),
        ],
        outline=color,
        width=5,
    )
    for dx in (-0.2, 0.6):
        draw.ellipse((cx + r * dx - 7, cy + r * 0.7 - 7, cx + r * dx + 7, cy + r * 0.7 + 7), fill=color)


def _home(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.polygon([(cx - r, cy), (cx, cy - r * 0.9), (cx + r, cy)], outline=color, width=5)
    draw.rectangle((cx - r * 0.65, cy, cx + r * 0.65, cy + r * 0.85), outline=color, width=5)


def _user(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.ellipse((cx - r * 0.4, cy - r * 0.9, cx + r * 0.4, cy - r * 0.1), outline=color, width=5)
    draw.arc((cx - r * 0.9, cy, cx + r * 0.9, cy + r * 1.6), 180, 360, fill=color, width=5)


def _plus(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.line((cx - r * 0.6, cy, cx + r * 0.6, cy), fill=color, width=7)
    draw.line((cx, cy - r * 0.6, cx, cy + r * 0.6), fill=color, width=7)


def _minus(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.line((cx - r * 0.6, cy, cx + r * 0.6, cy), fill=color, width=7)


def _check(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.line((cx - r * 0.6, cy, cx - r * 0.1, cy + r * 0.5, cx + r * 0.7, cy - r * 0.5), fill=color, width=7)


def _close(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.line((cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5), fill=color, width=6)
    draw.line((cx - r * 0.5, cy + r * 0.5, cx + r * 0.5, cy - r * 0.5), fill=color, width=6)


def _more(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    for dx in (-0.6, 0, 0.6):
        draw.ellipse((cx + r * dx - 6, cy - 6, cx + r * dx + 6, cy + 6), fill=color)


def _gear(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    for i in range(8):
        angle = i * math.pi / 4
        x, y = cx + math.cos(angle) * r * 0.8, cy + math.sin(angle) * r * 0.8
        draw.ellipse((x - r * 0.2, y - r * 0.2, x + r * 0.2, y + r * 0.2), fill=color)
    draw.ellipse((cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7), fill=color)
    draw.ellipse((cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3), fill="white")


def _phone(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    """A handset: a thick arc with an ear and a mouth piece."""
    draw.arc((cx - r * 0.9, cy - r * 0.9, cx + r * 0.9, cy + r * 0.9), 110, 250, fill=color, width=max(6, int(r / 3)))
    for angle in (110, 250):
        x, y = cx + math.cos(math.radians(angle)) * r * 0.75, cy + math.sin(math.radians(angle)) * r * 0.75
        draw.ellipse((x - r * 0.28, y - r * 0.28, x + r * 0.28, y + r * 0.28), fill=color)


def _play(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.polygon([(cx - r * 0.4, cy - r * 0.6), (cx + r * 0.6, cy), (cx - r * 0.4, cy + r * 0.6)], fill=color)


def _bag(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.rounded_rectangle((cx - r * 0.75, cy - r * 0.4, cx + r * 0.75, cy + r * 0.9), r * 0.15, fill=color)
    draw.arc((cx - r * 0.4, cy - r * 0.9, cx + r * 0.4, cy + r * 0.1), 180, 360, fill=color, width=6)


def _calendar(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.rounded_rectangle((cx - r * 0.8, cy - r * 0.7, cx + r * 0.8, cy + r * 0.8), r * 0.15, outline=color, width=5)
    draw.line((cx - r * 0.8, cy - r * 0.3, cx + r * 0.8, cy - r * 0.3), fill=color, width=5)
    for dx in (-0.4, 0.4):
        draw.line((cx + r * dx, cy - r * 0.95, cx + r * dx, cy - r * 0.55), fill=color, width=6)


def _wifi(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    for scale in (1.0, 0.65, 0.3):
        draw.pieslice(
            (cx - r * scale, cy - r * scale + r * 0.5, cx + r * scale, cy + r * scale + r * 0.5), 225, 315, fill=color
        )
        draw.pieslice(
            (cx - r * scale + 5, cy - r * scale + r * 0.5 + 7, cx + r * scale - 5, cy + r * scale + r * 0.5),
            225,
            315,
            fill=(255, 255, 255) if scale > 0.3 else color,
        )


def _battery(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.rounded_rectangle((cx - r, cy - r * 0.45, cx + r * 0.8, cy + r * 0.45), 4, outline=color, width=3)
    draw.rectangle((cx - r + 5, cy - r * 0.45 + 5, cx + r * 0.4, cy + r * 0.45 - 5), fill=color)
    draw.rectangle((cx + r * 0.8, cy - r * 0.15, cx + r, cy + r * 0.15), fill=color)


def _signal(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    for i in range(4):
        x = cx - r + i * r * 0.5
        draw.rectangle((x, cy + r * 0.6 - (i + 1) * r * 0.35, x + r * 0.3, cy + r * 0.6), fill=color)


def _nav_back(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.polygon(
        [(cx + r * 0.5, cy - r * 0.6), (cx - r * 0.5, cy), (cx + r * 0.5, cy + r * 0.6)], outline=color, width=4
    )


def _nav_home(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.ellipse((cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6), outline=color, width=4)


def _nav_recents(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.rounded_rectangle((cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5), 6, outline=color, width=4)


def _bell(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.pieslice((cx - r * 0.7, cy - r * 0.8, cx + r * 0.7, cy + r * 0.6), 180, 360, fill=color)
    draw.rectangle((cx - r * 0.7, cy - r * 0.1, cx + r * 0.7, cy + r * 0.45), fill=color)
    draw.ellipse((cx - r * 0.2, cy + r * 0.45, cx + r * 0.2, cy + r * 0.85), fill=color)


def _sun(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    draw.ellipse((cx - r * 0.45, cy - r * 0.45, cx + r * 0.45, cy + r * 0.45), fill=color)
    for i in range(8):
        a = i * math.pi / 4
        draw.line(
            (cx + math.cos(a) * r * 0.65, cy + math.sin(a) * r * 0.65, cx + math.cos(a) * r, cy + math.sin(a) * r),
            fill=color,
            width=5,
        )


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: Color) -> None:
    points = [
        (
            cx + math.cos(math.pi / 2 + i * math.pi / 5) * (r if i % 2 == 0 else r * 0.45),
            cy - math.sin(math.pi / 2 + i * math.pi / 5) * (r if i % 2 == 0 else r * 0.45),
        )
        for i in range(10)
    ]
    draw.polygon(points, fill=color)


ICONS: dict[str, Painter] = {
    "search": _search,
    "back": _back,
    "chevron": _chevron,
    "heart": _heart,
    "heart_filled": _heart_filled,
    "comment": _comment,
    "share": _share,
    "cart": _cart,
    "home": _home,
    "user": _user,
    "plus": _plus,
    "minus": _minus,
    "check": _check,
    "close": _close,
    "more": _more,
    "gear": _gear,
    "play": _play,
    "bag": _bag,
    "phone": _phone,
    "calendar": _calendar,
    "wifi": _wifi,
    "battery": _battery,
    "signal": _signal,
    "nav_back": _nav_back,
    "nav_home": _nav_home,
    "nav_recents": _nav_recents,
    "bell": _bell,
    "sun": _sun,
    "star": _star,
}


def register_icon(name: str, painter: Painter) -> None:
    """Make an app's own drawing (a product, a chain link) usable as `Style(icon=name)`."""
    if ICONS.get(name, painter) is not painter:
        raise ValueError(f"icon {name!r} is already registered")
    ICONS[name] = painter


def paint_icon(draw: ImageDraw.ImageDraw, box: Rect, name: str, color: Color) -> None:
    """An icon centred in `box`, sized to its shorter side."""
    left, top, right, bottom = box
    radius = min(right - left, bottom - top) * 0.32
    ICONS[name](draw, (left + right) / 2, (top + bottom) / 2, radius, color)


@functools.lru_cache(maxsize=64)
def _picture(seed: int, width: int, height: int) -> Image.Image:
    """A soft still life or landscape, the same for the same seed: product photos and video frames."""
    rng = random.Random(seed)
    hue = [rng.randrange(60, 230) for _ in range(3)]
    top_color, bottom_color = tuple(min(255, c + 60) for c in hue), tuple(max(0, c - 40) for c in hue)
    image = Image.linear_gradient("L").resize((width, height))
    image = Image.composite(
        Image.new("RGB", (width, height), bottom_color), Image.new("RGB", (width, height), top_color), image
    )
    draw = ImageDraw.Draw(image)
    if seed % 2:  # a landscape: sun and hills
        sun = rng.uniform(0.1, 0.25) * width
        draw.ellipse((width * 0.6, height * 0.15, width * 0.6 + sun, height * 0.15 + sun), fill=(255, 236, 179))
        for layer in range(3):
            shade = tuple(max(0, c - 50 - layer * 30) for c in hue)
            base = height * (0.55 + layer * 0.12)
            points = [(x, base - rng.uniform(0, height * 0.15)) for x in range(0, width + 80, max(1, width // 6))]
            draw.polygon([(0, height), *points, (width, height)], fill=shade)
    else:  # an object on a table: a rounded product with a shadow
        w, h = width * rng.uniform(0.35, 0.55), height * rng.uniform(0.35, 0.6)
        x, y = (width - w) / 2, (height - h) / 2
        draw.ellipse((x - w * 0.1, y + h * 0.85, x + w * 1.1, y + h * 1.1), fill=tuple(max(0, c - 70) for c in hue))
        draw.rounded_rectangle((x, y, x + w, y + h), radius=w * 0.25, fill=tuple(255 - c // 2 for c in hue))
        draw.rounded_rectangle(
            (x + w * 0.15, y + h * 0.1, x + w * 0.35, y + h * 0.6), radius=w * 0.08, fill=(255, 255, 255)
        )
    return image.filter(ImageFilter.GaussianBlur(2))


def paint_picture(image: Image.Image, box: Rect, seed: int, radius: int = 0) -> None:
    left, top, right, bottom = box
    picture = _picture(seed, right - left, bottom - top)
    mask = Image.new("L", picture.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, picture.width - 1, picture.height - 1), radius, fill=255)
    image.paste(picture, (left, top), mask)


def paint_gradient(image: Image.Image, box: Rect, top: Color, bottom: Color) -> None:
    left, upper, right, lower = box
    mask = Image.linear_gradient("L").resize((right - left, lower - upper))
    size = mask.size
    image.paste(Image.composite(Image.new("RGB", size, bottom), Image.new("RGB", size, top), mask), (left, upper))
