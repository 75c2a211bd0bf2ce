"""趣看视频's pages besides the player and the profiles: search, 我的关注, 消息, 朋友 and the camera."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Unpack

from annotator.demo.phone import fonts
from annotator.demo.phone.apps import video_profile
from annotator.demo.phone.apps.video_catalog import HOT_SEARCHES, NOTIFICATIONS, Author, Video, format_count
from annotator.demo.phone.apps.video_widgets import (
    FAINT,
    GREY,
    INK,
    LIGHT_GREY,
    RED,
    TAB_BAR,
    WHITE,
    avatar,
    bottom_tabs,
    grid_rows,
    initial_avatar,
    pill_button,
    video_card,
)
from annotator.demo.phone.apps.widgets import Block, scroll_column, text_field
from annotator.demo.phone.view import WIDGET, Node, Rect, Style, StyleFields, icon_button, text_node

if TYPE_CHECKING:
    from annotator.demo.phone.apps.video import VideoApp

BAR, FILTERS = 150, 110  # the search bar, the 综合 / 视频 / 用户 strip
CARD_ROW, USER_ROW, MESSAGE_ROW = 880, 200, 190
RANK_COLOURS = [RED, (255, 120, 0), (255, 170, 0)]
SEARCH_FILTERS = ("综合", "视频", "用户")


def _label(bounds: Rect, text: str, size: int, colour: fonts.Color = INK, /, **style: Unpack[StyleFields]) -> Node:
    style["size"], style["color"] = size, colour
    return text_node(bounds, text, **style)


def _clickable(node: Node, rid: str, on_tap) -> Node:
    node.rid, node.clickable, node.on_tap = rid, True, on_tap
    return node


# 搜索


def search_page(app: VideoApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = Node(frame, style=Style(background=WHITE))
    root.add(icon_button((left + 10, top + 25, left + 110, top + 125), "back", "返回", app.back, rid="back", color=INK))
    field = (left + 120, top + 22, right - 210, top + 128)
    root.add(text_field(field, "search", "搜索你感兴趣的内容", rid="search_input", size=40, radius=53))
    if app.text("search"):
        wipe = (field[2] - 100, top + 35, field[2] - 20, top + 115)
        root.add(icon_button(wipe, "close", "清除", partial(_wipe_search, app), rid="clear_search", color=GREY))
    go = Node((right - 200, top + 22, right - 20, top + 128), cls=WIDGET + "Button", text="搜索")
    go.style = Style(color=RED, size=44, bold=True, align="center")
    root.add(_clickable(go, "search_button", app.run_search))
    body = (left, top + BAR, right, bottom)
    query = app.page.params.get("query")
    return root.add(*(_results(app, body, query) if query else [_suggestions(app, body)]))


def _wipe_search(app: VideoApp) -> None:
    app.fields["search"] = ""
    app.phone.focus = "search"


def _suggestions(app: VideoApp, body: Rect) -> Node:
    left, top, right, _ = body
    page = Node(body)
    y = top + 20
    if app.history:
        page.add(_label((left + 40, y, right - 300, y + 90), "历史记录", 42, bold=True))
        clear = _label((right - 200, y, right - 40, y + 90), "清空", 36, GREY, align="right")
        page.add(_clickable(clear, "clear_history", app.clear_history))
        y = _history_chips(app, page, (left + 40, y + 110, right - 40))
    page.add(_label((left + 40, y + 20, right - 40, y + 110), "猜你想搜", 42, bold=True))
    for index, word in enumerate(HOT_SEARCHES):
        x, row_top = left + 40 + (index % 2) * 520, y + 130 + (index // 2) * 110
        item = _label((x, row_top, x + 500, row_top + 100), word, 40, padding=70)
        rank = RANK_COLOURS[index] if index < len(RANK_COLOURS) else GREY
        item.add(_label((x, row_top, x + 60, row_top + 100), str(index + 1), 40, rank, bold=True))
        page.add(_clickable(item, "hot_search", partial(app.run_search, word)))
    return page


def _history_chips(app: VideoApp, page: Node, span: tuple[int, int, int]) -> int:
    """History words as chips that wrap; returns the y under the last row."""
    left, y, right = span
    x = left
    for word in app.history:
        width = fonts.text_width(word, 38) + 80
        if x + width > right:
            x, y = left, y + 114
        chip = _label((x, y, x + width, y + 90), word, 38, background=FAINT, radius=45, align="center")
        page.add(_clickable(chip, "history_item", partial(app.run_search, word)))
        x += width + 24
    return y + 110


def _results(app: VideoApp, body: Rect, query: str) -> list[Node]:
    """The 综合 / 视频 / 用户 strip and, under it, the users and videos that match."""
    left, top, right, bottom = body
    chosen = app.page.params.get("filter", SEARCH_FILTERS[0])
    users, videos = app.search_results()
    users, videos = (users if chosen != "视频" else []), (videos if chosen != "用户" else [])
    blocks: list[Block] = [(USER_ROW, partial(_user_row, app, author)) for author in users]
    if videos:
        blocks.append((100, lambda b: _label((b[0] + 40, b[1], b[2] - 40, b[3]), "视频", 42, bold=True)))
        blocks += _cards(app, videos, f"search:{query}", dark=False)
    if not blocks:
        empty = f"没有找到“{query}”相关的内容"
        blocks.append((300, lambda b: _label(b, empty, 40, GREY, align="center")))
    strip = Node((left, top, right, top + FILTERS), rid="search_filters", style=Style(background=WHITE))
    for index, name in enumerate(SEARCH_FILTERS):
        x, selected = left + 20 + index * 180, name == chosen
        tab = _label((x, top, x + 160, top + FILTERS - 8), name, 42, INK if selected else GREY, bold=selected)
        tab.style.align, tab.selected = "center", selected
        strip.add(_clickable(tab, "search_filter", partial(_filter, app, name)))
        if selected:
            strip.add(Node((x + 50, top + FILTERS - 10, x + 110, top + FILTERS - 4), style=Style(background=INK)))
    strip.add(Node((left, top + FILTERS - 2, right, top + FILTERS), style=Style(background=(236, 236, 240))))
    return [strip, scroll_column((left, top + FILTERS, right, bottom), app, blocks, "search_results", WHITE)]


def _filter(app: VideoApp, name: str) -> None:
    app.page.params["filter"], app.page.scroll = name, 0


def _cards(app: VideoApp, videos: list[Video], source: str, dark: bool) -> list[Block]:
    def card(bounds: Rect, index: int) -> Node:
        video = videos[index]
        return video_card(bounds, video, app.likes(video), partial(app.open_video, source, index), dark)

    return grid_rows(videos, 2, CARD_ROW, card)


def _user_row(app: VideoApp, author: Author, bounds: Rect) -> Node:
    left, top, right, _ = bounds
    row = Node(bounds, cls=WIDGET + "LinearLayout", rid="user_item", clickable=True)
    row.on_tap = partial(app.open_author, author.uid)
    row.add(avatar((left + 40, top + 30, left + 180, top + 170), author.seed))
    row.add(_label((left + 210, top + 35, right - 300, top + 100), author.name, 44, bold=True))
    about = f"粉丝 {format_count(author.followers)} · 趣看号：{author.handle}"
    row.add(_label((left + 210, top + 105, right - 300, top + 160), about, 32, GREY))
    followed = author.uid in app.followed
    text, follow = "已关注" if followed else "关注", partial(app.toggle_follow, author.uid)
    return row.add(
        pill_button(
            (right - 270, top + 55, right - 40, top + 145), text, follow, "user_follow_button", not followed, size=38
        )
    )


# 我的关注


def following_page(app: VideoApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = Node(frame, style=Style(background=WHITE))
    root.add(icon_button((left + 10, top + 25, left + 110, top + 125), "back", "返回", app.back, rid="back", color=INK))
    root.add(_label((left + 150, top, right - 150, top + BAR), "我的关注", 48, bold=True, align="center"))
    blocks: list[Block] = [(USER_ROW, partial(_user_row, app, app.author(uid))) for uid in app.following_snapshot]
    if not blocks:
        blocks.append((300, lambda b: _label(b, "还没有关注任何人", 40, GREY, align="center")))
    return root.add(scroll_column((left, top + BAR, right, bottom), app, blocks, "following_list", WHITE))


# 消息 and 朋友, two of the bottom tabs

SHORTCUTS = [("新朋友", "user", (64, 158, 255)), ("互动消息", "comment", RED), ("系统通知", "bell", (255, 152, 0))]


def messages_page(app: VideoApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = Node(frame, style=Style(background=WHITE))
    root.add(_label((left, top, right, top + 140), "消息", 50, bold=True, align="center"))
    for index, (label, icon, colour) in enumerate(SHORTCUTS):
        x = left + 60 + index * 330
        disc = Style(background=colour, radius=70, icon=icon, color=WHITE)
        root.add(Node((x + 65, top + 160, x + 205, top + 300), desc=label, style=disc))
        root.add(_label((x, top + 310, x + 270, top + 370), label, 36, align="center"))
    root.add(Node((left, top + 398, right, top + 400), style=Style(background=(236, 236, 240))))
    blocks: list[Block] = [(MESSAGE_ROW, partial(_notification_row, item)) for item in NOTIFICATIONS]
    root.add(scroll_column((left, top + 400, right, bottom - TAB_BAR), app, blocks, "message_list", WHITE))
    return root.add(bottom_tabs(frame, app, "messages", dark=False))


def _notification_row(item: tuple[str, str, str, int | None], bounds: Rect) -> Node:
    name, text, when, seed = item
    left, top, right, _ = bounds
    row = Node(bounds, cls=WIDGET + "LinearLayout", rid="message_item")
    face = (left + 40, top + 30, left + 170, top + 160)
    row.add(avatar(face, seed) if seed is not None else initial_avatar(face, name, (64, 158, 255)))
    row.add(_label((left + 200, top + 30, right - 220, top + 95), name, 42, bold=True))
    row.add(_label((right - 220, top + 30, right - 40, top + 95), when, 32, GREY, align="right"))
    return row.add(_label((left + 200, top + 100, right - 40, top + 160), text, 36, GREY))


def friends_page(app: VideoApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = Node(frame, style=Style(background=(0, 0, 0)))
    root.add(_label((left, top, right, top + 140), "朋友", 50, WHITE, bold=True, align="center"))
    videos = app.feed("关注")
    blocks: list[Block] = [(90, lambda b: _label((b[0] + 40, b[1], b[2], b[3]), "你关注的人最近发布", 36, LIGHT_GREY))]
    blocks += _cards(app, videos, "following", dark=True)
    if not videos:
        blocks = [(400, lambda b: _label(b, "关注的人发布的作品会出现在这里", 40, LIGHT_GREY, align="center"))]
    root.add(scroll_column((left, top + 140, right, bottom - TAB_BAR), app, blocks, "friends_list"))
    return root.add(bottom_tabs(frame, app, "friends", dark=True))


# 拍摄

CAMERA_TOOLS = [("闪光灯", "sun"), ("滤镜", "star"), ("美颜", "user")]


def create_page(app: VideoApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = Node(frame, style=Style(background=(0, 0, 0)))
    preview = Node((left, top + 140, right, bottom - 420), cls="android.view.TextureView", desc="取景框")
    preview.rid, preview.style = "camera_preview", Style(picture=69, radius=36)
    root.add(preview)
    root.add(
        icon_button(
            (left + 20, top + 20, left + 120, top + 120), "close", "关闭", app.back, rid="close_button", color=WHITE
        )
    )
    music = _label((left + 340, top + 30, right - 340, top + 110), "选择音乐", 36, WHITE, background=(44, 44, 50))
    music.style.radius, music.style.padding, music.style.align = 40, 40, "center"
    music.add(Node((left + 400, top + 45, left + 450, top + 95), style=Style(icon="music", color=WHITE)))
    root.add(_clickable(music, "choose_music", partial(_say, app, "暂时没有可用的音乐")))
    for index, (label, icon) in enumerate(CAMERA_TOOLS):
        y = top + 900 + index * 180
        root.add(Node((right - 140, y, right - 50, y + 90), desc=label, style=Style(icon=icon, color=WHITE)))
        root.add(_label((right - 170, y + 90, right - 20, y + 140), label, 30, WHITE, align="center"))
    cx, cy = (left + right) // 2, bottom - 250
    root.add(Node((cx - 110, cy - 110, cx + 110, cy + 110), style=Style(background=(255, 140, 160), radius=110)))
    record = Node(
        (cx - 85, cy - 85, cx + 85, cy + 85),
        cls=WIDGET + "ImageView",
        desc="拍摄",
        style=Style(background=RED, radius=85),
    )
    root.add(_clickable(record, "record_button", partial(_say, app, "虚拟手机没有摄像头")))
    root.add(avatar((left + 120, cy - 60, left + 240, cy + 60), 47, "相册"))
    root.add(_label((left + 100, cy + 65, left + 260, cy + 115), "相册", 30, WHITE, align="center"))
    for index, mode in enumerate(("照片", "视频", "文字")):
        x = cx - 300 + index * 200
        root.add(
            _label((x, bottom - 100, x + 200, bottom - 30), mode, 38, WHITE if mode == "视频" else GREY, align="center")
        )
    return root


def _say(app: VideoApp, message: str) -> None:
    app.toast = message


PAGES = {
    "search": search_page,
    "author": video_profile.author_page,
    "me": video_profile.me_page,
    "following": following_page,
    "messages": messages_page,
    "friends": friends_page,
    "create": create_page,
}


def status_colour(app: VideoApp) -> tuple[int, int, int]:
    """The status bar follows the page: black over the player, the cover photo's colour over a profile."""
    name = app.page.name
    if name in ("home", "video", "comments", "share", "friends", "create"):
        return (0, 0, 0)
    if name in ("author", "me"):
        return video_profile.cover_colour(video_profile.cover_seed(video_profile.profile_author(app)))
    return WHITE
