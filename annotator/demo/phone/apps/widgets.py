"""Widgets the apps share: app bars, list rows, switches, text fields, scrolled lists and tab bars."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Unpack

from annotator.demo.phone import fonts
from annotator.demo.phone.apps.base import App
from annotator.demo.phone.view import WIDGET, Callback, Node, Rect, Style, StyleFields, icon_button, text_node

APP_BAR = 160
ROW = 170
GREY, DARK, LINE = (117, 117, 117), (33, 33, 33), (235, 235, 235)
Block = tuple[int, Callable[[Rect], Node]]  # a height and what to draw in a rectangle of that height


def app_bar(frame: Rect, title: str, app: App, background: tuple[int, int, int] = (255, 255, 255)) -> Node:
    """A top bar with a back arrow (when there is a page to go back to) and a title."""
    left, top, right, _ = frame
    bar = Node((left, top, right, top + APP_BAR), rid="toolbar", style=Style(background=background))
    dark = sum(background) < 380
    color = (255, 255, 255) if dark else DARK
    if len(app.stack) > 1:
        bar.add(
            icon_button((left + 10, top + 20, left + 130, top + 140), "back", "返回", app.back, rid="back", color=color)
        )
    bar.add(text_node((left + 150, top, right - 40, top + APP_BAR), title, size=52, bold=True, color=color))
    return bar


def row(
    bounds: Rect,
    title: str,
    on_tap: Callback | None,
    subtitle: str = "",
    value: str = "",
    rid: str = "",
    icon: tuple[str, fonts.Color] | None = None,
) -> Node:
    """A list row on a white card: an optional coloured icon, title (and subtitle), a value and a chevron."""
    left, top, right, bottom = bounds
    look = Style(background=(255, 255, 255))
    item = Node(bounds, cls=WIDGET + "LinearLayout", rid=rid, clickable=on_tap is not None, on_tap=on_tap, style=look)
    middle = (top + bottom) // 2
    if icon is not None:
        glyph, color = icon
        badge = (left + 50, middle - 42, left + 134, middle + 42)
        item.add(
            Node(
                badge,
                cls=WIDGET + "ImageView",
                style=Style(background=color, radius=24, icon=glyph, color=(255, 255, 255)),
            )
        )
        left += 110
    if subtitle:
        item.add(text_node((left + 60, top + 15, right - 300, middle + 5), title, size=46))
        item.add(text_node((left + 60, middle + 5, right - 300, bottom - 15), subtitle, size=36, color=GREY))
    else:
        item.add(text_node((left + 60, top, right - 300, bottom), title, size=46))
    if value:
        item.add(text_node((right - 420, top, right - 110, bottom), value, size=40, color=GREY, align="right"))
    if on_tap is not None:
        item.add(Node((right - 100, top + 40, right - 30, bottom - 40), style=Style(icon="chevron", color=GREY)))
    item.add(Node((left + 60, bottom - 2, right, bottom), style=Style(background=LINE)))
    return item


def switch_row(bounds: Rect, title: str, on: bool, toggle: Callback, subtitle: str = "", rid: str = "") -> Node:
    """A row with a switch; the whole row toggles, and the switch reports checkable/checked."""
    _left, top, right, bottom = bounds
    item = row(bounds, title, None, subtitle, rid=rid)
    item.clickable, item.on_tap = True, toggle
    middle = (top + bottom) // 2
    track = (right - 190, middle - 40, right - 50, middle + 40)
    color = (26, 115, 232) if on else (189, 193, 198)
    knob_left = track[2] - 76 if on else track[0] + 4
    switch = Node(
        track,
        cls=WIDGET + "Switch",
        text="开启" if on else "关闭",
        checkable=True,
        checked=on,
        clickable=True,
        on_tap=toggle,
        rid=f"{rid}_switch" if rid else "switch_widget",
        style=Style(background=color, radius=40, size=1, color=color),
    )
    switch.add(
        Node(
            (knob_left, track[1] + 4, knob_left + 72, track[3] - 4), style=Style(background=(255, 255, 255), radius=36)
        )
    )
    return item.add(switch)


def text_field(bounds: Rect, key: str, hint: str, rid: str = "", **style: Unpack[StyleFields]) -> Node:
    """An EditText; the phone fills its text from the app's fields and marks it focused."""
    defaults: StyleFields = {"background": (241, 243, 244), "radius": 30, "padding": 40, "size": 42}
    look = Style(**(defaults | style))
    return Node(bounds, cls=WIDGET + "EditText", hint=hint, rid=rid, clickable=True, field_key=key, style=look)


def scroll_column(
    frame: Rect, app: App, blocks: Sequence[Block], rid: str = "list", background: fonts.Color | None = None
) -> Node:
    """A RecyclerView of blocks of any height, scrolled by the app page's offset; swipes scroll it."""
    left, top, right, bottom = frame
    total = sum(height for height, _ in blocks)

    def scroll(_dx: int, dy: int) -> None:
        app.scroll_by(dy, total, bottom - top)

    view = Node(frame, cls="androidx.recyclerview.widget.RecyclerView", rid=rid, scrollable=total > bottom - top)
    view.on_scroll, view.style = scroll, Style(background=background)
    y = top - app.page.scroll
    for height, make in blocks:
        if y + height > top and y < bottom:  # only what is on screen exists, as a RecyclerView binds it
            view.add(make((left, y, right, y + height)))
        y += height
    return view


def tab_bar(frame: Rect, tabs: list[tuple[str, str, Callback]], current: str, accent: tuple[int, int, int]) -> Node:
    """A bottom navigation bar: (label, icon, on_tap) per tab; the current tab is selected."""
    left, _, right, bottom = frame
    bar = Node((left, bottom - 150, right, bottom), rid="tab_bar", style=Style(background=(255, 255, 255)))
    bar.add(Node((left, bottom - 150, right, bottom - 148), style=Style(background=LINE)))
    width = (right - left) // len(tabs)
    for index, (label, icon, on_tap) in enumerate(tabs):
        x = left + index * width
        color = accent if label == current else GREY
        tab = Node(
            (x, bottom - 148, x + width, bottom),
            cls=WIDGET + "FrameLayout",
            desc=label,
            clickable=True,
            selected=label == current,
            on_tap=on_tap,
        )
        tab.add(
            Node(
                (x + width // 2 - 35, bottom - 140, x + width // 2 + 35, bottom - 70),
                style=Style(icon=icon, color=color),
            )
        )
        tab.add(text_node((x, bottom - 70, x + width, bottom - 10), label, size=32, color=color, align="center"))
        bar.add(tab)
    return bar
