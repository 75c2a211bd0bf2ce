"""Pieces that 趣看视频's pages share: avatars, a scrolled column of blocks, video cells and cards, tab bars."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Unpack

from PIL import ImageDraw

from annotator.demo.phone import fonts, paint
from annotator.demo.phone.apps.video_catalog import Video, author_of, format_count
from annotator.demo.phone.apps.widgets import Block
from annotator.demo.phone.view import WIDGET, Callback, Node, Rect, Style, StyleFields, text_node

if TYPE_CHECKING:
    from annotator.demo.phone.apps.video import VideoApp

RED, WHITE, INK, GOLD = (254, 44, 85), (255, 255, 255), (22, 24, 35), (255, 196, 0)
GREY, LIGHT_GREY, FAINT = (138, 139, 145), (200, 200, 205), (242, 242, 244)
TAB_BAR = 150


def _link(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: paint.Color) -> None:
    """Two chain links side by side (复制链接)."""
    for left in (-1.0, -0.2):
        box = (cx + r * left, cy - r * 0.4, cx + r * (left + 1.2), cy + r * 0.4)
        draw.rounded_rectangle(box, r * 0.4, outline=color, width=max(4, int(r / 6)))


def _music(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: paint.Color) -> None:
    """An eighth note (the sound a video uses)."""
    draw.ellipse((cx - r * 0.8, cy + r * 0.3, cx - r * 0.1, cy + r * 0.9), fill=color)
    draw.line((cx - r * 0.15, cy + r * 0.6, cx - r * 0.15, cy - r * 0.9), fill=color, width=max(3, int(r / 6)))
    draw.line((cx - r * 0.15, cy - r * 0.9, cx + r * 0.7, cy - r * 0.4), fill=color, width=max(3, int(r / 5)))


paint.register_icon("link", _link)
paint.register_icon("music", _music)


def caption_text(video: Video, size: int, width: int) -> str:
    """The caption with its hashtags; the tags start a new line when only the caption fits on one."""
    tags = " ".join(f"#{tag}" for tag in video.tags)
    one_line = f"{video.caption} {tags}"
    if fonts.text_width(one_line, size) <= width or fonts.text_width(video.caption, size) > width:
        return one_line
    return f"{video.caption}\n{tags}"


def avatar(bounds: Rect, seed: int, desc: str = "", on_tap: Callback | None = None, rid: str = "") -> Node:
    """A round photo; clickable when it opens a profile."""
    size = bounds[2] - bounds[0]
    look = Style(picture=seed, radius=size // 2)
    return Node(
        bounds, cls=WIDGET + "ImageView", desc=desc, rid=rid, clickable=on_tap is not None, on_tap=on_tap, style=look
    )


def initial_avatar(bounds: Rect, name: str, color: tuple[int, int, int]) -> Node:
    """A default avatar: the name's first character on a coloured disc."""
    size = bounds[2] - bounds[0]
    return Node(
        bounds,
        cls=WIDGET + "ImageView",
        text="",
        desc=f"{name}的头像",
        style=Style(background=color, radius=size // 2),
    ).add(text_node(bounds, name[0], size=size * 9 // 20, color=WHITE, align="center"))


def grid_rows(videos: list[Video], columns: int, height: int, cell: Callable[[Rect, int], Node]) -> list[Block]:
    """Rows of `columns` cells for a scroll column; `cell(bounds, index)` draws video `index`."""

    def make_row(start: int) -> Callable[[Rect], Node]:
        def draw(bounds: Rect) -> Node:
            left, top, right, bottom = bounds
            width = (right - left) // columns
            row = Node(bounds)
            for index in range(start, min(start + columns, len(videos))):
                x = left + (index - start) * width
                row.add(cell((x, top, x + width, bottom), index))
            return row

        return draw

    return [(height, make_row(start)) for start in range(0, len(videos), columns)]


def video_cell(bounds: Rect, video: Video, likes: int, on_tap: Callback) -> Node:
    """A profile grid cell: the frame with a play glyph and the like count over its bottom."""
    left, top, right, bottom = bounds
    cell = Node(
        (left + 2, top + 2, right - 2, bottom - 2),
        cls=WIDGET + "FrameLayout",
        desc=video.caption,
        rid="video_cell",
        clickable=True,
        on_tap=on_tap,
        style=Style(picture=video.seed),
    )
    cell.add(Node((left + 14, bottom - 66, left + 64, bottom - 16), style=Style(icon="play", color=WHITE)))
    cell.add(text_node((left + 66, bottom - 70, right - 10, bottom - 12), format_count(likes), size=32, color=WHITE))
    return cell


def video_card(bounds: Rect, video: Video, likes: int, on_tap: Callback, dark: bool = False) -> Node:
    """A two-column card: frame, two lines of caption, the author and likes (search results, 朋友)."""
    left, top, right, bottom = bounds
    ink, grey, face = (WHITE, LIGHT_GREY, (28, 30, 40)) if dark else (INK, GREY, WHITE)
    box = (left + 15, top + 15, right - 15, bottom - 15)
    card = Node(box, cls=WIDGET + "FrameLayout", desc=video.caption, rid="video_card", clickable=True, on_tap=on_tap)
    card.style = Style(background=face, radius=18)
    x0, y0, x1, y1 = box
    card.add(Node((x0, y0, x1, y1 - 220), cls=WIDGET + "ImageView", style=Style(picture=video.seed, radius=18)))
    text = caption_text(video, 38, x1 - x0 - 40)
    card.add(text_node((x0 + 20, y1 - 212, x1 - 20, y1 - 92), text, size=38, color=ink, lines=2))
    author = author_of(video)
    card.add(avatar((x0 + 20, y1 - 78, x0 + 72, y1 - 26), author.seed))
    card.add(text_node((x0 + 84, y1 - 82, x1 - 170, y1 - 22), author.name, size=32, color=grey))
    card.add(Node((x1 - 170, y1 - 78, x1 - 118, y1 - 26), style=Style(icon="heart", color=grey)))
    card.add(text_node((x1 - 118, y1 - 82, x1 - 16, y1 - 22), format_count(likes), size=32, color=grey))
    return card


def pill_button(
    bounds: Rect, text: str, on_tap: Callback, rid: str, primary: bool = False, **style: Unpack[StyleFields]
) -> Node:
    """A rounded button: red (关注) or grey (已关注, 私信)."""
    look: StyleFields = {"background": RED if primary else FAINT, "color": WHITE if primary else INK, "radius": 16}
    look |= {"size": 42, "align": "center", "bold": primary} | style
    return Node(bounds, cls=WIDGET + "Button", text=text, rid=rid, clickable=True, on_tap=on_tap, style=Style(**look))


def bottom_tabs(frame: Rect, app: VideoApp, current: str, dark: bool) -> Node:
    """首页 / 朋友 / + / 消息 / 我, text-only as in Douyin; the middle + opens the camera."""
    left, _, right, bottom = frame
    top = bottom - TAB_BAR
    face, idle, active = ((0, 0, 0), (150, 150, 155), WHITE) if dark else (WHITE, GREY, INK)
    bar = Node((left, top, right, bottom), rid="tab_bar", style=Style(background=face))
    bar.add(Node((left, top, right, top + 2), style=Style(background=(38, 38, 44) if dark else (232, 232, 236))))
    width = (right - left) // 5
    tabs = [("首页", "home"), ("朋友", "friends"), ("", ""), ("消息", "messages"), ("我", "me")]
    for index, (label, page) in enumerate(tabs):
        x = left + index * width
        if not label:
            bar.add(_create_button((x, top, x + width, bottom), app, dark))
            continue
        chosen = page == current
        tab = Node(
            (x, top, x + width, bottom),
            desc=label,
            rid=f"tab_{page}",
            clickable=True,
            selected=chosen,
            on_tap=partial(app.switch_tab, page),
        )
        tab.add(
            text_node(
                (x, top, x + width, bottom),
                label,
                size=42,
                bold=chosen,
                align="center",
                color=active if chosen else idle,
            )
        )
        if page == "messages" and not app.messages_read:
            tab.add(
                text_node(
                    (x + width // 2 + 38, top + 26, x + width // 2 + 88, top + 76),
                    "3",
                    size=30,
                    color=WHITE,
                    background=RED,
                    radius=25,
                    align="center",
                )
            )
        bar.add(tab)
    return bar


def _create_button(slot: Rect, app: VideoApp, dark: bool) -> Node:
    left, top, right, bottom = slot
    cx, cy = (left + right) // 2, (top + bottom) // 2
    button = Node(
        (cx - 70, cy - 45, cx + 70, cy + 45),
        cls=WIDGET + "ImageView",
        desc="拍摄",
        rid="create_button",
        clickable=True,
        on_tap=lambda: app.push("create"),
        style=Style(background=WHITE if dark else INK, radius=22, icon="plus", color=INK if dark else WHITE),
    )
    return button
