"""The virtual phone's view tree: one structure that is drawn, dumped as uiautomator XML and hit-tested.

Drawing and the hierarchy come from the same nodes, so the `bounds` in a dump always match the pixels.
Scrolled children keep their full bounds; drawing, dumping and hit-testing clip them to the container.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TypedDict, Unpack
from xml.sax.saxutils import quoteattr

from PIL import Image, ImageDraw

from annotator.demo.phone import fonts
from annotator.demo.phone.paint import paint_gradient, paint_icon, paint_picture

Rect = tuple[int, int, int, int]
Callback = Callable[[], object]  # what a tap runs; its result, if any, is not used
ScrollCallback = Callable[[int, int], None]
WIDGET = "android.widget."
Background = fonts.Color | tuple[int, int, int, int]  # a fourth number: translucent (a dialog's scrim, the dock)


@dataclass
class Style:
    background: Background | None = None
    color: fonts.Color = (33, 33, 33)
    size: int = 40
    bold: bool = False
    align: str = "left"  # left | center | right
    radius: int = 0
    border: fonts.Color | None = None
    padding: int = 0
    lines: int = 1
    icon: str | None = None  # a glyph painted by paint.paint_icon
    picture: int | None = None  # a seed: a product photo or video frame painted by paint.paint_picture
    gradient: tuple[fonts.Color, fonts.Color] | None = None  # top and bottom colours of a vertical gradient


class StyleFields(TypedDict, total=False):
    """Style's fields as keyword arguments: what the node helpers pass on to Style."""

    background: Background | None
    color: fonts.Color
    size: int
    bold: bool
    align: str
    radius: int
    border: fonts.Color | None
    padding: int
    lines: int
    icon: str | None
    picture: int | None
    gradient: tuple[fonts.Color, fonts.Color] | None


@dataclass
class Node:
    """A view: what uiautomator reports about it, how it looks, and what it does when touched."""

    bounds: Rect
    cls: str = WIDGET + "FrameLayout"
    text: str = ""
    desc: str = ""
    rid: str = ""
    hint: str = ""
    clickable: bool = False
    long_clickable: bool = False
    scrollable: bool = False
    focusable: bool = False
    focused: bool = False
    checkable: bool = False
    checked: bool = False
    selected: bool = False
    enabled: bool = True
    style: Style = field(default_factory=Style)
    on_tap: Callback | None = None
    on_long_press: Callback | None = None
    on_scroll: ScrollCallback | None = None
    field_key: str | None = None  # an editable text field: the app's key for its value
    children: list[Node] = field(default_factory=list)

    def add(self, *children: Node) -> Node:
        self.children.extend(children)
        return self

    def walk(self, clip: Rect | None = None) -> Iterator[tuple[Node, Rect]]:
        """Every visible node with its visible rectangle, parents before children (drawing order)."""
        visible = intersect(self.bounds, clip) if clip else self.bounds
        if visible is None:
            return
        yield self, visible
        for child in self.children:  # children are clipped to their parent, as Android's clipChildren does
            yield from child.walk(visible)


def intersect(a: Rect, b: Rect) -> Rect | None:
    left, top, right, bottom = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (left, top, right, bottom) if left < right and top < bottom else None


def contains(rect: Rect, x: int, y: int) -> bool:
    return rect[0] <= x < rect[2] and rect[1] <= y < rect[3]


def text_node(bounds: Rect, text: str, **style: Unpack[StyleFields]) -> Node:
    return Node(bounds, cls=WIDGET + "TextView", text=text, style=Style(**style))


def button(bounds: Rect, text: str, on_tap: Callback, rid: str = "", **style: Unpack[StyleFields]) -> Node:
    style.setdefault("align", "center")
    look = Style(**style)
    return Node(bounds, cls=WIDGET + "Button", text=text, rid=rid, clickable=True, on_tap=on_tap, style=look)


def icon_button(  # bounds and icon positional-only: `icon` is also a style field
    bounds: Rect, icon: str, /, desc: str, on_tap: Callback, rid: str = "", **style: Unpack[StyleFields]
) -> Node:
    style["icon"] = icon
    look = Style(**style)
    return Node(bounds, cls=WIDGET + "ImageView", desc=desc, rid=rid, clickable=True, on_tap=on_tap, style=look)


def picture(bounds: Rect, seed: int, desc: str = "", radius: int = 0) -> Node:
    return Node(bounds, cls=WIDGET + "ImageView", desc=desc, style=Style(picture=seed, radius=radius))


# Drawing


def _paint_text(draw: ImageDraw.ImageDraw, node: Node, rect: Rect) -> None:
    style, shown = node.style, node.text or node.hint
    if not shown:
        return
    color = style.color if node.text else (150, 150, 150)
    left, top, right, bottom = node.bounds
    inner = right - left - 2 * style.padding
    lines = fonts.wrap(shown, style.size, inner, style.lines) if style.lines > 1 else [shown]
    lines = [fonts.elide(line, style.size, inner, style.bold) for line in lines]
    line_height = round(style.size * 1.35)
    y = top + (bottom - top - line_height * len(lines)) // 2 + round(style.size * 0.12)
    for line in lines:
        width = fonts.text_width(line, style.size, style.bold)
        x = {"left": left + style.padding, "center": (left + right - width) / 2, "right": right - style.padding - width}
        fonts.draw_text(draw, (x[style.align], y), line, style.size, color, style.bold)
        y += line_height


def paint_node(image: Image.Image, node: Node, rect: Rect) -> None:
    """Paint one node inside its visible rectangle (clipped by painting on a crop when it is cut)."""
    clipped = rect != node.bounds
    left, top, right, bottom = node.bounds
    canvas = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0)) if clipped else None
    target = canvas if canvas is not None else image
    dx, dy = (left, top) if clipped else (0, 0)
    local = replace(node, bounds=(left - dx, top - dy, right - dx, bottom - dy))
    draw = ImageDraw.Draw(target, "RGBA")  # RGBA colours blend (scrims, shadows over pictures)
    box = local.bounds
    style = node.style
    if style.background or style.border:
        draw.rounded_rectangle(
            (box[0], box[1], box[2] - 1, box[3] - 1), style.radius, fill=style.background, outline=style.border, width=3
        )
    if style.gradient is not None:
        paint_gradient(target, box, *style.gradient)
    if style.picture is not None:
        paint_picture(target, box, style.picture, style.radius)
    if style.icon:
        paint_icon(draw, box, style.icon, style.color)
    _paint_text(draw, local, box)
    if canvas is not None:
        crop = (rect[0] - left, rect[1] - top, rect[2] - left, rect[3] - top)
        image.paste(canvas.crop(crop), rect[:2], canvas.crop(crop))


# The uiautomator hierarchy


def _attributes(node: Node, rect: Rect, index: int, package: str) -> str:
    rid = f"{package}:id/{node.rid}" if node.rid and ":" not in node.rid else node.rid
    flags = {
        "checkable": node.checkable,
        "checked": node.checked,
        "clickable": node.clickable,
        "enabled": node.enabled,
        "focusable": node.focusable or node.field_key is not None,
        "focused": node.focused,
        "scrollable": node.scrollable,
        "long-clickable": node.long_clickable,
        "password": False,
        "selected": node.selected,
    }
    parts = [f'index="{index}"', f"text={quoteattr(node.text)}", f"resource-id={quoteattr(rid)}"]
    parts += [f'class="{node.cls}"', f'package="{package}"', f"content-desc={quoteattr(node.desc)}"]
    parts += [f'{name}="{str(value).lower()}"' for name, value in flags.items()]
    parts.append(f'bounds="[{rect[0]},{rect[1]}][{rect[2]},{rect[3]}]"')
    if node.hint and node.field_key is not None:
        parts.append(f"hint={quoteattr(node.hint)}")
    return " ".join(parts)


def _dump_node(node: Node, clip: Rect, index: int, package: str, out: list[str]) -> None:
    rect = intersect(node.bounds, clip)
    if rect is None:
        return
    inner = rect
    out.append(f"<node {_attributes(node, rect, index, package)}")
    visible = [child for child in node.children if intersect(child.bounds, inner)]
    if not visible:
        out.append(" />")
        return
    out.append(">")
    for child_index, child in enumerate(visible):
        _dump_node(child, inner, child_index, package, out)
    out.append("</node>")


def dump(windows: list[tuple[Node, str]], size: tuple[int, int], rotation: int = 0) -> str:
    """uiautomator's `dump` format: one root node per window (package), children clipped to the screen."""
    out = [f"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"{rotation}\">"]
    for index, (root, package) in enumerate(windows):
        _dump_node(root, (0, 0, *size), index, package, out)
    out.append("</hierarchy>")
    return "".join(out)


# Touch


def hit(root: Node, x: int, y: int, want: Callable[[Node], bool]) -> Node | None:
    """The topmost node under (x, y) that `want`s the touch (the last drawn wins, as on Android)."""
    found = None
    for node, rect in root.walk():
        if contains(rect, x, y) and want(node):
            found = node
    return found


def find(root: Node, predicate: Callable[[Node], bool]) -> list[tuple[Node, Rect]]:
    """Visible nodes matching `predicate`, with their visible rectangles."""
    return [(node, rect) for node, rect in root.walk() if predicate(node)]
