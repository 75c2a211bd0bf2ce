"""优选商城's product photos: flat drawings of each kind of product in the chosen colour, on a pale backdrop.

The drawings are icon painters registered with `paint.register_icon` under "shop_<kind>", so a picture is one ImageView
node (nothing extra in the hierarchy). Each painter draws around (cx, cy) in units of r (a third of the box).
"""

from __future__ import annotations

from PIL import ImageDraw

from annotator.demo.phone.apps.shop_catalog import Product
from annotator.demo.phone.paint import Color, register_icon
from annotator.demo.phone.view import WIDGET, Node, Rect, Style

Draw = ImageDraw.ImageDraw
RGB = tuple[int, int, int]
COLORS: dict[str, RGB] = {
    "白色": (246, 246, 244), "黑色": (52, 52, 56), "灰色": (150, 152, 158), "蓝色": (66, 126, 222),
    "粉色": (246, 164, 192), "红色": (214, 46, 46), "紫色": (156, 118, 206), "银色": (204, 206, 212),
    "绿色": (96, 172, 116), "卡其色": (196, 172, 124), "浅蓝": (150, 186, 226), "深蓝": (44, 64, 124),
    "透明": (226, 234, 242), "混色": (120, 140, 170), "星空蓝": (42, 62, 134), "正红色": (204, 22, 44),
    "豆沙色": (190, 112, 112), "枫叶红": (178, 52, 40), "樱桃红": (212, 32, 72), "奶茶色": (202, 152, 122),
    "蜜桃色": (250, 152, 132), "玫瑰色": (222, 82, 122),
}  # fmt: skip
BACKDROPS: list[RGB] = [(246, 246, 246), (244, 239, 233), (236, 242, 248), (244, 238, 246), (238, 245, 240)]
GOLD, DARK, PAPER = (214, 178, 96), (60, 60, 64), (252, 252, 250)


def _shade(color: Color, factor: float) -> RGB:
    """Darker (factor < 1) or lighter (factor > 1, towards white)."""
    r, g, b = color if isinstance(color, tuple) else (128, 128, 128)
    if factor <= 1:
        return round(r * factor), round(g * factor), round(b * factor)
    mix = factor - 1
    return round(r + (255 - r) * mix), round(g + (255 - g) * mix), round(b + (255 - b) * mix)


def _poly(draw: Draw, cx: float, cy: float, r: float, points: list[tuple[float, float]], fill: Color) -> None:
    draw.polygon([(cx + x * r, cy + y * r) for x, y in points], fill=fill, outline=_shade(fill, 0.8), width=3)


def _box(
    draw: Draw, cx: float, cy: float, r: float, box: tuple[float, float, float, float], fill: Color, round_: float = 0.1
) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(
        (cx + x0 * r, cy + y0 * r, cx + x1 * r, cy + y1 * r),
        radius=round_ * r,
        fill=fill,
        outline=_shade(fill, 0.8),
        width=3,
    )


def _oval(draw: Draw, cx: float, cy: float, r: float, box: tuple[float, float, float, float], fill: Color) -> None:
    x0, y0, x1, y1 = box
    draw.ellipse((cx + x0 * r, cy + y0 * r, cx + x1 * r, cy + y1 * r), fill=fill, outline=_shade(fill, 0.8), width=3)


def _shadow(draw: Draw, cx: float, cy: float, r: float, y: float = 1.3, width: float = 1.1) -> None:
    draw.ellipse((cx - width * r, cy + (y - 0.1) * r, cx + width * r, cy + (y + 0.1) * r), fill=(222, 222, 222))


# Digital


def _earbuds(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.25)
    _box(d, cx, cy, r, (-0.95, 0.2, 0.95, 1.2), c, 0.45)
    d.line((cx - 0.95 * r, cy + 0.55 * r, cx + 0.95 * r, cy + 0.55 * r), fill=_shade(c, 0.75), width=4)
    for side in (-1, 1):
        _box(d, cx, cy, r, (side * 0.5 - 0.1, -0.75, side * 0.5 + 0.1, 0.1), c, 0.1)
        _oval(d, cx, cy, r, (side * 0.5 - 0.32, -1.15, side * 0.5 + 0.32, -0.55), c)
        _oval(d, cx, cy, r, (side * 0.5 - 0.12, -0.95, side * 0.5 + 0.12, -0.75), _shade(c, 0.6))


def _headphones(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.05)
    d.arc((cx - 1.0 * r, cy - 1.2 * r, cx + 1.0 * r, cy + 0.8 * r), 180, 360, fill=_shade(c, 0.85), width=int(r * 0.18))
    for side in (-1, 1):
        _box(d, cx, cy, r, (side * 1.02 - 0.28, -0.35, side * 1.02 + 0.28, 0.85), c, 0.22)
        _box(d, cx, cy, r, (side * 0.72 - 0.08, -0.2, side * 0.72 + 0.08, 0.7), _shade(c, 0.55), 0.08)


def _powerbank(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.25, 0.9)
    _box(d, cx, cy, r, (-0.65, -1.1, 0.65, 1.15), c, 0.2)
    for index in range(4):
        x = -0.3 + index * 0.2
        _oval(d, cx, cy, r, (x - 0.05, 0.75, x + 0.05, 0.85), (80, 200, 120) if index < 3 else (200, 200, 200))
    _box(d, cx, cy, r, (-0.22, -1.1, 0.22, -1.0), _shade(c, 0.5), 0.04)
    bolt = [(0.12, -0.6), (-0.25, 0.08), (0.0, 0.08), (-0.12, 0.55), (0.25, -0.12), (0.0, -0.12)]
    _poly(d, cx, cy, r, bolt, _shade(c, 0.7) if isinstance(c, tuple) and sum(c) > 300 else (255, 210, 80))


def _cable(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.2)
    for scale in (1.0, 0.8, 0.6):
        d.ellipse(
            (cx - scale * r, cy - scale * 0.8 * r, cx + scale * r, cy + scale * 0.8 * r),
            outline=_shade(c, 0.85),
            width=int(r * 0.07),
        )
    for side in (-1, 1):
        _box(d, cx, cy, r, (side * 0.55 - 0.13, 0.7, side * 0.55 + 0.13, 1.15), c, 0.05)
        _box(d, cx, cy, r, (side * 0.55 - 0.07, 1.15, side * 0.55 + 0.07, 1.3), (190, 190, 196), 0.02)


def _phone_case(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.3, 0.9)
    _box(d, cx, cy, r, (-0.7, -1.25, 0.7, 1.25), c, 0.3)
    _box(d, cx, cy, r, (-0.55, -1.1, -0.05, -0.55), _shade(c, 0.85), 0.14)
    for x, y in ((-0.42, -0.95), (-0.2, -0.72), (-0.42, -0.72)):
        _oval(d, cx, cy, r, (x - 0.09, y - 0.09, x + 0.09, y + 0.09), DARK)


def _watch(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.35, 0.7)
    _box(d, cx, cy, r, (-0.35, -1.35, 0.35, 1.35), _shade(c, 0.9), 0.12)
    _box(d, cx, cy, r, (-0.6, -0.65, 0.6, 0.65), c, 0.25)
    _box(d, cx, cy, r, (-0.48, -0.53, 0.48, 0.53), (24, 24, 28), 0.18)
    d.arc((cx - 0.3 * r, cy - 0.3 * r, cx + 0.3 * r, cy + 0.3 * r), 200, 330, fill=(80, 210, 140), width=8)
    _box(d, cx, cy, r, (0.6, -0.15, 0.7, 0.1), _shade(c, 0.8), 0.03)


# Clothes


def _tshirt(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    shirt = [
        (-0.45, -1.05),
        (-1.2, -0.65),
        (-0.9, -0.1),
        (-0.65, -0.25),
        (-0.65, 1.15),
        (0.65, 1.15),
        (0.65, -0.25),
        (0.9, -0.1),
        (1.2, -0.65),
        (0.45, -1.05),
        (0.2, -0.85),
        (-0.2, -0.85),
    ]
    _poly(d, cx, cy, r, shirt, c)
    d.arc((cx - 0.45 * r, cy - 1.3 * r, cx + 0.45 * r, cy - 0.75 * r), 20, 160, fill=_shade(c, 0.75), width=6)


def _hoodie(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    body = [
        (-0.45, -0.95),
        (-1.05, -0.6),
        (-1.3, 1.0),
        (-0.95, 1.05),
        (-0.72, -0.1),
        (-0.72, 1.15),
        (0.72, 1.15),
        (0.72, -0.1),
        (0.95, 1.05),
        (1.3, 1.0),
        (1.05, -0.6),
        (0.45, -0.95),
    ]
    _poly(d, cx, cy, r, body, c)
    _oval(d, cx, cy, r, (-0.5, -1.3, 0.5, -0.55), _shade(c, 0.85))
    _oval(d, cx, cy, r, (-0.3, -1.1, 0.3, -0.65), _shade(c, 0.6))
    _box(d, cx, cy, r, (-0.45, 0.35, 0.45, 0.8), _shade(c, 0.9), 0.08)
    for x in (-0.1, 0.1):
        d.line((cx + x * r, cy - 0.65 * r, cx + x * r, cy - 0.2 * r), fill=PAPER, width=5)


def _jacket(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _hoodie(d, cx, cy, r, c)
    for y in (-0.3, 0.05, 0.4, 0.75):
        d.line((cx - 0.7 * r, cy + y * r, cx + 0.7 * r, cy + y * r), fill=_shade(c, 0.8), width=4)
    d.line((cx, cy - 0.65 * r, cx, cy + 1.15 * r), fill=_shade(c, 0.6), width=5)


def _jeans(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    legs = [(-0.72, -1.15), (0.72, -1.15), (0.85, 1.2), (0.15, 1.2), (0.0, -0.25), (-0.15, 1.2), (-0.85, 1.2)]
    _poly(d, cx, cy, r, legs, c)
    _box(d, cx, cy, r, (-0.72, -1.15, 0.72, -0.95), _shade(c, 0.85), 0.02)
    _oval(d, cx, cy, r, (-0.05, -1.1, 0.05, -1.0), GOLD)
    d.arc((cx - 0.6 * r, cy - 1.2 * r, cx - 0.1 * r, cy - 0.5 * r), 0, 90, fill=_shade(c, 0.7), width=4)
    d.arc((cx + 0.1 * r, cy - 1.2 * r, cx + 0.6 * r, cy - 0.5 * r), 90, 180, fill=_shade(c, 0.7), width=4)


def _shoes(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 0.85, 1.3)
    upper = [
        (-1.2, 0.55),
        (-1.15, -0.05),
        (-0.4, -0.25),
        (0.1, -0.75),
        (0.6, -0.75),
        (0.75, 0.0),
        (1.2, 0.25),
        (1.25, 0.55),
    ]
    _poly(d, cx, cy, r, upper, c)
    _box(d, cx, cy, r, (-1.25, 0.5, 1.3, 0.78), PAPER, 0.12)
    for index in range(3):
        x = -0.25 + index * 0.18
        d.line((cx + x * r, cy - 0.3 * r, cx + (x + 0.15) * r, cy - 0.05 * r), fill=_shade(c, 0.6), width=5)


def _socks(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    for dx, color in ((-0.35, _shade(c, 0.85)), (0.25, c)):
        sock = [
            (dx - 0.3, -1.15),
            (dx + 0.3, -1.15),
            (dx + 0.3, 0.35),
            (dx + 0.85, 0.55),
            (dx + 0.85, 1.05),
            (dx - 0.3, 1.05),
        ]
        _poly(d, cx, cy, r, sock, color)
        for y in (-1.0, -0.85):
            d.line((cx + (dx - 0.28) * r, cy + y * r, cx + (dx + 0.28) * r, cy + y * r), fill=PAPER, width=6)


def _dress(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    dress = [
        (-0.35, -1.2),
        (-0.25, -1.2),
        (-0.18, -0.9),
        (0.18, -0.9),
        (0.25, -1.2),
        (0.35, -1.2),
        (0.4, -0.2),
        (1.0, 1.2),
        (-1.0, 1.2),
        (-0.4, -0.2),
    ]
    _poly(d, cx, cy, r, dress, c)
    d.line((cx - 0.4 * r, cy - 0.2 * r, cx + 0.4 * r, cy - 0.2 * r), fill=_shade(c, 0.7), width=6)
    for x, y in ((-0.5, 0.6), (0.1, 0.2), (0.5, 0.8), (-0.1, 0.9), (0.3, -0.5), (-0.2, -0.5)):
        d.ellipse((cx + (x - 0.06) * r, cy + (y - 0.06) * r, cx + (x + 0.06) * r, cy + (y + 0.06) * r), fill=PAPER)


# Home


def _cup(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.25, 0.7)
    _box(d, cx, cy, r, (-0.45, -0.8, 0.45, 1.25), c, 0.18)
    _box(d, cx, cy, r, (-0.42, -1.25, 0.42, -0.82), _shade(c, 0.75), 0.1)
    d.rounded_rectangle((cx - 0.3 * r, cy - 0.6 * r, cx - 0.2 * r, cy + 0.9 * r), 0.05 * r, fill=_shade(c, 1.25))


def _kids_cup(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    d.line((cx + 0.15 * r, cy - 0.9 * r, cx + 0.3 * r, cy - 1.35 * r), fill=(240, 240, 240), width=int(0.1 * r))
    _cup(d, cx, cy, r, c)
    d.arc((cx + 0.25 * r, cy - 0.5 * r, cx + 0.85 * r, cy + 0.5 * r), 270, 90, fill=_shade(c, 0.8), width=9)


def _bottle(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.25, 0.9)
    d.arc((cx + 0.35 * r, cy - 0.8 * r, cx + 1.0 * r, cy + 0.2 * r), 270, 90, fill=_shade(c, 0.7), width=int(0.12 * r))
    _box(d, cx, cy, r, (-0.6, -0.7, 0.6, 1.25), c, 0.25)
    _box(d, cx, cy, r, (-0.35, -1.2, 0.35, -0.7), _shade(c, 0.7), 0.12)
    d.rounded_rectangle((cx - 0.45 * r, cy - 0.4 * r, cx - 0.32 * r, cy + 0.9 * r), 0.05 * r, fill=_shade(c, 1.25))


def _mug(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.0, 1.0)
    d.arc(
        (cx + 0.3 * r, cy - 0.45 * r, cx + 1.05 * r, cy + 0.55 * r), 270, 90, fill=_shade(c, 0.8), width=int(0.14 * r)
    )
    _box(d, cx, cy, r, (-0.75, -0.7, 0.55, 1.0), c, 0.12)
    _box(d, cx, cy, r, (-0.82, -0.85, 0.62, -0.68), _shade(c, 0.85), 0.06)
    d.line((cx + 0.2 * r, cy - 0.85 * r, cx + 0.55 * r, cy - 1.35 * r), fill=(200, 200, 206), width=int(0.08 * r))


def _tissue(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 0.95, 1.2)
    _box(d, cx, cy, r, (-1.2, -0.45, 1.2, 0.9), c, 0.2)
    _poly(d, cx, cy, r, [(-0.35, -0.45), (-0.2, -0.95), (0.0, -0.75), (0.2, -1.0), (0.35, -0.45)], PAPER)
    _box(d, cx, cy, r, (-0.7, 0.05, 0.7, 0.55), PAPER, 0.2)
    d.line((cx - 0.4 * r, cy + 0.3 * r, cx + 0.4 * r, cy + 0.3 * r), fill=_shade(c, 0.8), width=6)


def _pillow(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 0.85, 1.3)
    _box(d, cx, cy, r, (-1.3, -0.6, 1.3, 0.7), c, 0.5)
    d.rounded_rectangle(
        (cx - 1.15 * r, cy - 0.45 * r, cx + 1.15 * r, cy + 0.55 * r), 0.4 * r, outline=_shade(c, 0.85), width=4
    )
    d.line((cx - 0.9 * r, cy + 0.05 * r, cx + 0.9 * r, cy + 0.05 * r), fill=_shade(c, 0.9), width=4)


def _bedding(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.05, 1.3)
    for index, factor in enumerate((0.8, 0.92, 1.0, 1.15)):
        y = 0.55 - index * 0.45
        _box(d, cx, cy, r, (-1.2 + index * 0.05, y - 0.4, 1.2 - index * 0.05, y + 0.1), _shade(c, factor), 0.12)


def _lamp(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.2, 0.8)
    _box(d, cx, cy, r, (-0.7, 1.0, 0.3, 1.2), c, 0.08)
    width = int(0.12 * r)
    d.line(
        (cx - 0.3 * r, cy + r, cx - 0.6 * r, cy - 0.2 * r, cx + 0.2 * r, cy - 0.9 * r),
        fill=_shade(c, 0.85),
        width=width,
        joint="curve",
    )
    _poly(d, cx, cy, r, [(0.0, -1.1), (0.45, -0.8), (1.05, -0.15), (0.6, -0.05), (0.1, -0.6)], c)
    d.ellipse((cx + 0.55 * r, cy - 0.3 * r, cx + 0.95 * r, cy + 0.1 * r), fill=(255, 240, 170))


# Beauty


def _lipstick(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.3, 0.6)
    _box(d, cx, cy, r, (-0.38, 0.15, 0.38, 1.3), (40, 40, 44), 0.08)
    _box(d, cx, cy, r, (-0.32, -0.2, 0.32, 0.2), GOLD, 0.04)
    _poly(d, cx, cy, r, [(-0.26, -0.2), (-0.26, -0.85), (0.26, -1.2), (0.26, -0.2)], c)


def _balm(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.3, 0.5)
    _box(d, cx, cy, r, (-0.3, -0.4, 0.3, 1.3), PAPER, 0.1)
    _box(d, cx, cy, r, (-0.3, -1.25, 0.3, -0.4), c, 0.2)
    _box(d, cx, cy, r, (-0.3, 0.3, 0.3, 0.6), c, 0.02)


def _gloss(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.3, 0.5)
    _box(d, cx, cy, r, (-0.25, -0.1, 0.25, 1.3), c, 0.12)
    _box(d, cx, cy, r, (-0.2, -1.3, 0.2, -0.1), (40, 40, 44), 0.12)
    d.rounded_rectangle((cx - 0.15 * r, cy + 0.1 * r, cx - 0.07 * r, cy + 1.1 * r), 4, fill=_shade(c, 1.35))


def _jar(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 0.85, 1.0)
    _box(d, cx, cy, r, (-0.85, -0.2, 0.85, 0.85), c, 0.2)
    _box(d, cx, cy, r, (-0.9, -0.65, 0.9, -0.2), GOLD, 0.12)
    _box(d, cx, cy, r, (-0.5, 0.15, 0.5, 0.5), PAPER, 0.05)


def _tube(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.3, 0.7)
    _poly(d, cx, cy, r, [(-0.55, -1.25), (0.55, -1.25), (0.38, 0.9), (-0.38, 0.9)], c)
    _box(d, cx, cy, r, (-0.42, 0.9, 0.42, 1.3), _shade(c, 0.6), 0.08)
    _box(d, cx, cy, r, (-0.35, -0.6, 0.35, 0.1), PAPER, 0.06)


# Food


def _pouch(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.25, 0.9)
    _box(d, cx, cy, r, (-0.8, -1.1, 0.8, 1.2), c, 0.18)
    _box(d, cx, cy, r, (-0.8, -1.1, 0.8, -0.9), _shade(c, 0.8), 0.04)
    _oval(d, cx, cy, r, (-0.5, -0.3, 0.5, 0.7), PAPER)
    for x, y in ((-0.2, 0.0), (0.15, 0.05), (0.0, 0.35), (-0.25, 0.35), (0.25, 0.38)):
        _oval(d, cx, cy, r, (x - 0.12, y - 0.1, x + 0.12, y + 0.1), (176, 120, 64))


def _coffee(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.0, 1.1)
    for index in range(4):
        x = -0.8 + index * 0.25
        _box(d, cx, cy, r, (x, -1.2, x + 0.18, -0.2), _shade(c, 1.2 if index % 2 else 1.0), 0.04)
    _box(d, cx, cy, r, (-1.0, -0.5, 1.0, 1.0), c, 0.08)
    _oval(d, cx, cy, r, (-0.35, -0.05, 0.35, 0.55), (110, 70, 40))


def _gift(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.2, 1.2)
    _box(d, cx, cy, r, (-1.05, -0.35, 1.05, 1.15), c, 0.06)
    _box(d, cx, cy, r, (-1.15, -0.65, 1.15, -0.3), _shade(c, 0.85), 0.06)
    d.rectangle((cx - 0.12 * r, cy - 0.65 * r, cx + 0.12 * r, cy + 1.15 * r), fill=GOLD)
    for side in (-1, 1):
        _oval(d, cx, cy, r, (side * 0.45 - 0.3, -1.1, side * 0.45 + 0.3, -0.65), GOLD)


def _tea(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.25, 0.8)
    _box(d, cx, cy, r, (-0.7, -0.8, 0.7, 1.25), c, 0.1)
    _box(d, cx, cy, r, (-0.75, -1.15, 0.75, -0.8), GOLD, 0.08)
    d.pieslice((cx - 0.4 * r, cy - 0.3 * r, cx + 0.4 * r, cy + 0.7 * r), 0, 180, fill=(120, 190, 110))
    d.pieslice((cx - 0.4 * r, cy - 0.1 * r, cx + 0.4 * r, cy + 0.9 * r), 180, 360, fill=(150, 210, 130))


def _milk(d: Draw, cx: float, cy: float, r: float, c: Color) -> None:
    _shadow(d, cx, cy, r, 1.25, 0.9)
    _box(d, cx, cy, r, (-0.7, -0.6, 0.7, 1.25), PAPER, 0.04)
    _poly(d, cx, cy, r, [(-0.7, -0.6), (-0.45, -1.1), (0.45, -1.1), (0.7, -0.6)], _shade(c, 1.3))
    _box(d, cx, cy, r, (-0.7, 0.3, 0.7, 0.8), c, 0.02)
    _oval(d, cx, cy, r, (-0.25, -0.35, 0.25, 0.1), _shade(c, 1.5))
    d.line((cx - 0.45 * r, cy + 0.55 * r, cx + 0.45 * r, cy + 0.55 * r), fill=PAPER, width=6)


PAINTERS = {
    "earbuds": _earbuds,
    "headphones": _headphones,
    "powerbank": _powerbank,
    "cable": _cable,
    "phone_case": _phone_case,
    "watch": _watch,
    "tshirt": _tshirt,
    "hoodie": _hoodie,
    "jacket": _jacket,
    "jeans": _jeans,
    "shoes": _shoes,
    "socks": _socks,
    "dress": _dress,
    "cup": _cup,
    "kids_cup": _kids_cup,
    "bottle": _bottle,
    "mug": _mug,
    "tissue": _tissue,
    "pillow": _pillow,
    "bedding": _bedding,
    "lamp": _lamp,
    "lipstick": _lipstick,
    "balm": _balm,
    "gloss": _gloss,
    "jar": _jar,
    "tube": _tube,
    "pouch": _pouch,
    "coffee": _coffee,
    "gift": _gift,
    "tea": _tea,
    "milk": _milk,
}
for kind, painter in PAINTERS.items():
    register_icon(f"shop_{kind}", painter)

ART: dict[str, tuple[str, RGB]] = {  # product id -> (drawing, colour when the product has no colour choice)
    "earbuds": ("earbuds", (246, 246, 244)), "headphones": ("headphones", (52, 52, 56)),
    "sport-earbuds": ("earbuds", (52, 52, 56)), "wired-earbuds": ("earbuds", (246, 246, 244)),
    "powerbank": ("powerbank", (246, 246, 244)), "mini-powerbank": ("powerbank", (246, 164, 192)),
    "magsafe-powerbank": ("powerbank", (156, 118, 206)), "cable": ("cable", (246, 246, 244)),
    "phone-case": ("phone_case", (226, 234, 242)), "watch": ("watch", (52, 52, 56)),
    "tshirt": ("tshirt", (246, 246, 244)), "hoodie": ("hoodie", (150, 152, 158)),
    "jeans": ("jeans", (90, 130, 190)), "down-jacket": ("jacket", (52, 52, 56)),
    "sneakers": ("shoes", (246, 246, 244)), "socks": ("socks", (52, 52, 56)), "dress": ("dress", (66, 126, 222)),
    "cup": ("cup", (42, 62, 134)), "kids-cup": ("kids_cup", (246, 164, 192)), "tea-cup": ("cup", (52, 52, 56)),
    "mini-cup": ("cup", (96, 172, 116)), "ceramic-cup": ("cup", (246, 246, 244)), "bottle": ("bottle", (52, 52, 56)),
    "mug": ("mug", (246, 246, 244)), "tissue": ("tissue", (120, 180, 120)), "pillow": ("pillow", (240, 240, 236)),
    "bedding": ("bedding", (150, 186, 226)), "lamp": ("lamp", (246, 246, 244)), "lipstick": ("lipstick", (204, 22, 44)),
    "lip-balm": ("balm", (212, 32, 72)), "lip-gloss": ("gloss", (250, 152, 132)), "cream": ("jar", (236, 226, 246)),
    "sunscreen": ("tube", (255, 196, 64)), "cleanser": ("tube", (120, 200, 220)), "nuts": ("pouch", (196, 120, 60)),
    "coffee": ("coffee", (60, 44, 36)), "snacks": ("gift", (226, 60, 60)), "tea": ("tea", (70, 130, 90)),
    "milk": ("milk", (60, 120, 210)),
}  # fmt: skip


def photo(bounds: Rect, item: Product, color: str = "", radius: int = 0, view: int = 0, desc: str = "") -> Node:
    """The product's photo as an ImageView: its drawing in `color` (or its first colour) on a pale backdrop.

    `view` picks another backdrop for the detail pictures further down a product page.
    """
    kind, tint = ART[item.pid]
    chosen = color or (item.colors[0] if item.colors else "")
    rgb = COLORS.get(chosen, tint)
    backdrop = BACKDROPS[(item.seed // 2 + view) % len(BACKDROPS)]
    look = Style(background=backdrop, radius=radius, icon=f"shop_{kind}", color=rgb)
    return Node(bounds, cls=WIDGET + "ImageView", desc=desc, style=look)
