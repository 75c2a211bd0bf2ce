"""趣看视频's profiles: an author's page and 我 (cover, avatar, counts, buttons, tabs, a grid of videos)."""

from __future__ import annotations

import functools
from functools import partial
from typing import TYPE_CHECKING

from PIL import Image

from annotator.demo.phone import fonts
from annotator.demo.phone.apps.video_catalog import ME, Author, Video, format_count, videos_by
from annotator.demo.phone.apps.video_widgets import (
    GREY,
    INK,
    TAB_BAR,
    WHITE,
    avatar,
    bottom_tabs,
    grid_rows,
    pill_button,
    video_cell,
)
from annotator.demo.phone.apps.widgets import Block, scroll_column
from annotator.demo.phone.paint import paint_picture
from annotator.demo.phone.view import WIDGET, Callback, Node, Rect, Style, icon_button, text_node

if TYPE_CHECKING:
    from annotator.demo.phone.apps.video import VideoApp

COVER, HEADER, TABS, CELL_ROW = 420, 980, 110, 480
Stat = tuple[str, str, Callback | None]  # value, label, what a tap does
Tab = tuple[str, Callback | None]
STAT_IDS = {"获赞": "likes_count", "关注": "following_count", "粉丝": "followers_count"}


def cover_seed(author: Author) -> int:
    return author.seed + 200  # another landscape than the avatar's


@functools.cache
def cover_colour(seed: int) -> tuple[int, int, int]:
    """The top edge of a cover photo, so the status bar above it blends in."""
    image = Image.new("RGB", (1080, COVER))
    paint_picture(image, (0, 0, 1080, COVER), seed)
    pixel = image.getpixel((540, 2))
    if not isinstance(pixel, tuple):  # Pillow types a pixel of any mode; an RGB image's is (r, g, b)
        raise TypeError(f"an RGB pixel, not {pixel!r}")
    return pixel[0], pixel[1], pixel[2]


def profile_author(app: VideoApp) -> Author:
    return app.author(app.page.params.get("author", ME.uid))


def author_page(app: VideoApp, frame: Rect) -> Node:
    left, top, right, _ = frame
    author = profile_author(app)
    followed = author.uid in app.followed
    stats: list[Stat] = [(format_count(author.likes), "获赞", None), (str(author.following), "关注", None)]
    stats.append((format_count(author.followers + followed), "粉丝", None))
    follow = partial(app.toggle_follow, author.uid)
    buttons = [
        pill_button(
            (left + 50, 0, left + 700, 0), "已关注" if followed else "关注", follow, "follow_button", not followed
        ),
        pill_button((left + 720, 0, right - 50, 0), "私信", partial(_say, app, "对方开启了私信保护"), "message_button"),
    ]
    videos = videos_by(author.uid)
    tabs: list[Tab] = [(f"作品 {len(videos)}", None)]
    blocks: list[Block] = [(HEADER, partial(_header, author, stats, buttons)), (TABS, partial(_tabs, tabs, tabs[0][0]))]
    blocks += _grid(app, videos, f"author:{author.uid}", "还没有作品")
    root = Node(frame, style=Style(background=WHITE))
    root.add(scroll_column(frame, app, blocks, "profile", WHITE))
    back = icon_button((left + 20, top + 20, left + 120, top + 120), "back", "返回", app.back, rid="back", color=WHITE)
    return root.add(back)


def me_page(app: VideoApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    chosen = app.page.params["tab"]
    stats: list[Stat] = [("224", "获赞", None), (str(len(app.followed)), "关注", app.open_following)]
    stats.append((str(ME.followers), "粉丝", None))
    buttons = [
        pill_button((left + 50, 0, left + 700, 0), "编辑资料", partial(_say, app, "暂不支持修改资料"), "edit_profile"),
        pill_button((left + 720, 0, right - 50, 0), "添加朋友", partial(_say, app, "暂无可添加的朋友"), "add_friend"),
    ]
    tabs: list[Tab] = [(name, partial(_me_tab, app, name)) for name in ("作品", "喜欢", "收藏")]
    blocks: list[Block] = [(HEADER, partial(_header, ME, stats, buttons)), (TABS, partial(_tabs, tabs, chosen))]
    empty = {"作品": "还没有作品", "喜欢": "还没有喜欢的视频", "收藏": "还没有收藏的视频"}[chosen]
    blocks += _grid(app, app.my_videos(chosen), f"me:{chosen}", empty)
    root = Node(frame, style=Style(background=WHITE))
    root.add(scroll_column((left, top, right, bottom - TAB_BAR), app, blocks, "profile", WHITE))
    return root.add(bottom_tabs(frame, app, "me", dark=False))


def _me_tab(app: VideoApp, name: str) -> None:
    app.page.params["tab"], app.page.scroll = name, min(app.page.scroll, HEADER)


def _say(app: VideoApp, message: str) -> None:
    app.toast = message


def _grid(app: VideoApp, videos: list[Video], source: str, empty: str) -> list[Block]:
    if not videos:
        return [(360, lambda b: text_node(b, empty, size=40, color=GREY, align="center"))]

    def cell(bounds: Rect, index: int) -> Node:
        return video_cell(bounds, videos[index], app.likes(videos[index]), partial(app.open_video, source, index))

    return grid_rows(videos, 3, CELL_ROW, cell)


def _header(author: Author, stats: list[Stat], buttons: list[Node], bounds: Rect) -> Node:
    left, top, right, _ = bounds
    header = Node(bounds, style=Style(background=WHITE))
    cover = Node((left, top, right, top + COVER), cls=WIDGET + "ImageView", desc="背景图", rid="cover")
    cover.style = Style(picture=cover_seed(author))
    header.add(cover, Node((left + 40, top + 270, left + 270, top + 500), style=Style(background=WHITE, radius=115)))
    header.add(avatar((left + 50, top + 280, left + 260, top + 490), author.seed, f"{author.name}的头像"))
    header.add(text_node((left + 50, top + 520, right - 50, top + 600), author.name, size=56, bold=True, color=INK))
    header.add(
        text_node((left + 50, top + 605, right - 50, top + 655), f"趣看号：{author.handle}", size=34, color=GREY)
    )
    header.add(text_node((left + 50, top + 665, right - 50, top + 725), author.bio, size=38, color=INK))
    x = left + 50
    for value, label, on_tap in stats:
        group = _stat((x, top + 745), value, label, on_tap)
        header.add(group)
        x = group.bounds[2] + 60
    for button in buttons:
        button.bounds = (button.bounds[0], top + 850, button.bounds[2], top + 960)
    return header.add(*buttons)


def _stat(corner: tuple[int, int], value: str, label: str, on_tap: Callback | None) -> Node:
    """A bold number and its grey label ("86 关注"); clickable where it opens a list."""
    x, y = corner
    number, caption = fonts.text_width(value, 44, True), fonts.text_width(label, 36)
    rid = STAT_IDS.get(label, "stat")
    group = Node((x, y, x + number + caption + 30, y + 80), desc=f"{value}{label}", rid=rid)
    group.clickable, group.on_tap = on_tap is not None, on_tap
    group.add(text_node((x, y, x + number + 10, y + 80), value, size=44, bold=True, color=INK))
    return group.add(text_node((x + number + 22, y, x + number + caption + 30, y + 80), label, size=36, color=GREY))


def _tabs(tabs: list[Tab], chosen: str, bounds: Rect) -> Node:
    left, top, right, bottom = bounds
    bar = Node(bounds, rid="profile_tabs", style=Style(background=WHITE))
    width = (right - left) // len(tabs) if len(tabs) > 1 else 300
    for index, (name, on_tap) in enumerate(tabs):
        x, selected = left + index * width, name == chosen
        tab = text_node((x, top, x + width, bottom - 6), name, size=42, bold=selected, align="center")
        tab.style.color, tab.rid = INK if selected else GREY, "profile_tab"
        tab.clickable, tab.on_tap, tab.selected = on_tap is not None, on_tap, selected
        bar.add(tab)
        if selected:
            line = (x + width // 2 - 50, bottom - 8, x + width // 2 + 50, bottom - 2)
            bar.add(Node(line, style=Style(background=INK, radius=3)))
    return bar.add(Node((left, bottom - 2, right, bottom), style=Style(background=(236, 236, 240))))
