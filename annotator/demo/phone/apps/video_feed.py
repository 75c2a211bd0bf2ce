"""趣看视频's player: the full-screen feed, a video opened from a list, and the comment and share sheets.

Swiping the player up shows the next video and down the previous one; a swipe to the left opens the
author's page; a tap on the frame pauses and resumes.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from annotator.demo.phone import fonts
from annotator.demo.phone.apps.video_catalog import Comment, Video, author_of, format_count
from annotator.demo.phone.apps.video_widgets import (
    GOLD,
    GREY,
    INK,
    RED,
    TAB_BAR,
    WHITE,
    avatar,
    bottom_tabs,
    caption_text,
    initial_avatar,
)
from annotator.demo.phone.apps.widgets import scroll_column, text_field
from annotator.demo.phone.view import WIDGET, Node, Rect, Style, StyleFields, icon_button, text_node

if TYPE_CHECKING:
    from annotator.demo.phone.apps.video import VideoApp

BLACK = (0, 0, 0)
TOP_BAND = 150  # the feed's 关注 / 推荐 tabs
DETAIL_BAND = 130  # back arrow above a video opened from a list
SWIPE_MIN = 150  # pixels of finger travel that turn the page
COMMENT_ROW = 250
AVATAR_COLOURS = [(255, 138, 101), (77, 182, 172), (121, 134, 203), (240, 98, 146), (255, 183, 77), (100, 181, 246)]


def _on_swipe(app: VideoApp, dx: int, dy: int) -> None:
    if abs(dx) > abs(dy):
        video = app.current_video()
        if dx > SWIPE_MIN and video is not None:  # the finger moved left: the author's page
            app.open_author(video.author)
        return
    if abs(dy) >= SWIPE_MIN:
        app.swipe_feed(1 if dy > 0 else -1)


def _pager(bounds: Rect, app: VideoApp, rid: str) -> Node:
    return Node(
        bounds,
        cls="androidx.viewpager2.widget.ViewPager2",
        rid=rid,
        scrollable=True,
        on_scroll=partial(_on_swipe, app),
        style=Style(background=BLACK),
    )


def _toggle_pause(app: VideoApp) -> None:
    app.paused = not app.paused


# The player


def video_item(area: Rect, app: VideoApp, video: Video) -> Node:
    """One page of the pager: the frame, the action column on the right and the caption bottom left."""
    left, top, right, bottom = area
    item = Node(area, rid="video_item")
    surface = Node(area, cls="android.view.TextureView", desc="视频", rid="video_view", clickable=True)
    surface.on_tap, surface.style = partial(_toggle_pause, app), Style(picture=video.seed)
    item.add(surface)
    if app.paused:
        cx, cy = (left + right) // 2, (top + bottom) // 2
        item.add(
            Node(
                (cx - 120, cy - 120, cx + 120, cy + 120), desc="已暂停", style=Style(icon="play", color=(235, 235, 235))
            )
        )
    played = left + (right - left) * (int(video.vid[1:]) * 37 % 80 + 10) // 100
    item.add(Node((left, bottom - 5, right, bottom - 1), style=Style(background=(70, 70, 76))))
    item.add(Node((left, bottom - 5, played, bottom - 1), style=Style(background=(225, 225, 225))))
    item.add(*_side_column(area, app, video), *_caption(area, app, video))
    return item


def _action(bounds: Rect, icon: str, count: str, desc: str, rid: str, on_tap, colour=WHITE, chosen=False) -> Node:
    """An icon with its count under it; the pair is one clickable view, as in the real apps."""
    left, top, right, bottom = bounds
    button = Node(
        bounds, cls=WIDGET + "LinearLayout", desc=desc, rid=rid, clickable=True, selected=chosen, on_tap=on_tap
    )
    button.add(Node((left, top, right, bottom - 60), cls=WIDGET + "ImageView", style=Style(icon=icon, color=colour)))
    button.add(
        text_node(
            (left - 10, bottom - 62, right + 10, bottom - 8), count, size=34, bold=True, color=WHITE, align="center"
        )
    )
    return button


def _side_column(area: Rect, app: VideoApp, video: Video) -> list[Node]:
    bottom = area[3]
    author = author_of(video)
    nodes = [
        Node((907, bottom - 1238, 1043, bottom - 1102), style=Style(background=WHITE, radius=68)),
        avatar(
            (913, bottom - 1232, 1037, bottom - 1108), author.seed, author.name, partial(app.open_author, author.uid)
        ),
    ]
    nodes[-1].rid = "author_avatar"
    if author.uid not in app.followed and author.uid != "me":
        follow = partial(app.follow, author.uid)
        plus: StyleFields = {"background": RED, "radius": 30, "color": WHITE}
        nodes.append(
            icon_button((945, bottom - 1134, 1005, bottom - 1074), "plus", "关注", follow, "follow_button", **plus)
        )
    liked, kept, vid = video.vid in app.liked, video.vid in app.favorites, video.vid
    actions = [  # icon, count, desc, rid, on_tap, colour, selected
        ("heart_filled" if liked else "heart", app.likes(video), "点赞", "like_button", partial(app.toggle_like, vid)),
        ("comment", app.comment_count(video), "评论", "comment_button", partial(app.push, "comments", video=vid)),
        ("star", app.favorite_count(video), "收藏", "favorite_button", partial(app.toggle_favorite, vid)),
        ("share", app.share_count(video), "分享", "share_button", partial(app.push, "share", video=vid)),
    ]
    for index, (icon, count, desc, rid, on_tap) in enumerate(actions):
        top, chosen = bottom - 1040 + index * 210, (liked, False, kept, False)[index]
        colour = GOLD if icon == "star" and kept else WHITE
        nodes.append(_action((890, top, 1060, top + 180), icon, format_count(count), desc, rid, on_tap, colour, chosen))
    nodes.append(
        Node((915, bottom - 170, 1035, bottom - 50), desc="原声", style=Style(background=(34, 34, 38), radius=60))
    )
    return [*nodes, avatar((945, bottom - 140, 1005, bottom - 80), author.seed)]


def _caption(area: Rect, app: VideoApp, video: Video) -> list[Node]:
    """@author, the caption (hashtags on their own line when they do not fit) and the sound, from the bottom up."""
    left, _, _, bottom = area
    author = author_of(video)
    text = caption_text(video, 40, 820)
    caption_top = bottom - 120 - 54 * len(fonts.wrap(text, 40, 820, 2))
    name = text_node(
        (left + 40, caption_top - 75, 860, caption_top - 5), f"@{author.name}", size=46, bold=True, color=WHITE
    )
    name.rid, name.clickable, name.on_tap = "author_name", True, partial(app.open_author, author.uid)
    return [
        name,
        text_node((left + 40, caption_top, 860, bottom - 115), text, size=40, color=WHITE, lines=2),
        Node((left + 40, bottom - 100, left + 90, bottom - 50), style=Style(icon="music", color=WHITE)),
        text_node((left + 100, bottom - 105, 820, bottom - 45), f"@{author.name}创作的原声", size=34, color=WHITE),
    ]


def feed_page(app: VideoApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = Node(frame, style=Style(background=BLACK))
    pager = _pager((left, top, right, bottom - TAB_BAR), app, "feed_pager")
    video = app.current_video()
    if video is not None:
        pager.add(video_item((left, top + TOP_BAND, right, bottom - TAB_BAR), app, video))
    else:
        pager.add(
            text_node(
                (left, top + 700, right, top + 800), "你关注的人还没有发布作品", size=42, color=GREY, align="center"
            )
        )
    return root.add(pager, _top_tabs(frame, app), bottom_tabs(frame, app, "home", dark=True))


def _top_tabs(frame: Rect, app: VideoApp) -> Node:
    left, top, right, _ = frame
    band = Node((left, top, right, top + TOP_BAND), rid="top_tabs")
    for name, rid, x in (("关注", "tab_following", 330), ("推荐", "tab_recommend", 570)):
        chosen = app.feed_tab == name
        tab = text_node(
            (x, top + 20, x + 180, top + 130),
            name,
            size=50,
            bold=chosen,
            align="center",
            color=WHITE if chosen else (160, 160, 165),
        )
        tab.rid, tab.clickable, tab.selected, tab.on_tap = rid, True, chosen, partial(app.set_feed_tab, name)
        band.add(tab)
        if chosen:
            band.add(Node((x + 60, top + 122, x + 120, top + 128), style=Style(background=WHITE, radius=3)))
    return band.add(_search_entry((right - 140, top + 25, right - 40, top + 125), app))


def _search_entry(bounds: Rect, app: VideoApp) -> Node:
    return icon_button(bounds, "search", "搜索", app.open_search, rid="search_entry", color=WHITE)


def video_page(app: VideoApp, frame: Rect) -> Node:
    """A video opened from a list (search results, a profile grid); the pager walks that list."""
    left, top, right, bottom = frame
    root = Node(frame, style=Style(background=BLACK))
    pager = _pager((left, top, right, bottom - DETAIL_BAND), app, "video_pager")
    video = app.current_video()
    if video is not None:
        pager.add(video_item((left, top + DETAIL_BAND, right, bottom - DETAIL_BAND), app, video))
    root.add(pager)
    root.add(
        icon_button((left + 20, top + 15, left + 120, top + 115), "back", "返回", app.back, rid="back", color=WHITE)
    )
    root.add(_search_entry((right - 130, top + 15, right - 30, top + 115), app))
    if video is not None:
        look: StyleFields = {
            "size": 38,
            "color": (150, 150, 155),
            "padding": 40,
            "background": (38, 38, 44),
            "radius": 47,
        }
        entry = text_node((left + 30, bottom - 112, right - 30, bottom - 18), "说点什么...", **look)
        entry.rid, entry.clickable, entry.on_tap = "comment_entry", True, partial(app.push, "comments", video=video.vid)
        root.add(entry)
    return root


# Sheets over the video


def _sheet_backdrop(app: VideoApp, frame: Rect, sheet_top: int, video: Video, desc: str) -> Node:
    """The video above a sheet; tapping it closes the sheet."""
    left, top, right, _ = frame
    return Node(
        (left, top, right, sheet_top + 40),
        desc=desc,
        rid="sheet_outside",
        clickable=True,
        on_tap=app.back,
        style=Style(picture=video.seed),
    )


def _sheet(bounds: Rect, colour=WHITE) -> Node:
    left, top, right, bottom = bounds
    sheet = Node(bounds, style=Style(background=colour, radius=36))
    return sheet.add(Node((left, top + 40, right, bottom), style=Style(background=colour)))


def comments_page(app: VideoApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    video = app.current_video()
    assert video is not None
    sheet_top = top + (bottom - top) * 3 // 10
    root = Node(frame, style=Style(background=BLACK))
    root.add(_sheet_backdrop(app, frame, sheet_top, video, "关闭评论区"))
    sheet = _sheet((left, sheet_top, right, bottom))
    title = f"{format_count(app.comment_count(video))}条评论"
    sheet.add(
        text_node(
            (left + 150, sheet_top, right - 150, sheet_top + 120), title, size=40, bold=True, color=INK, align="center"
        )
    )
    sheet.add(
        icon_button(
            (right - 130, sheet_top + 15, right - 30, sheet_top + 115),
            "close",
            "关闭",
            app.back,
            rid="close_button",
            color=INK,
        )
    )
    comments = app.comments(video.vid)
    blocks = [(COMMENT_ROW, partial(_comment_row, app, video.vid, comment)) for comment in comments]
    sheet.add(scroll_column((left, sheet_top + 120, right, bottom - 150), app, blocks, "comment_list", WHITE))
    sheet.add(*_comment_bar((left, bottom - 150, right, bottom), app, video))
    return root.add(sheet)


def _comment_row(app: VideoApp, vid: str, comment: Comment, bounds: Rect) -> Node:
    left, top, right, _bottom = bounds
    row = Node(bounds, cls=WIDGET + "LinearLayout", rid="comment_item")
    colour = RED if comment.mine else AVATAR_COLOURS[sum(map(ord, comment.author)) % len(AVATAR_COLOURS)]
    row.add(initial_avatar((left + 40, top + 30, left + 140, top + 130), comment.author, colour))
    row.add(text_node((left + 170, top + 20, right - 200, top + 75), comment.author, size=34, color=GREY))
    row.add(text_node((left + 170, top + 75, right - 160, top + 180), comment.text, size=42, color=INK, lines=2))
    meta = "  ".join(part for part in (comment.when, comment.place, "回复") if part)
    row.add(text_node((left + 170, top + 182, right - 200, top + 232), meta, size=32, color=GREY))
    key = (vid, comment.author, comment.text)
    liked = key in app.comment_likes
    like = partial(_like_comment, app, key)
    heart = icon_button((right - 140, top + 30, right - 40, top + 130), "heart", "赞", like, color=GREY)
    heart.style.icon, heart.selected = "heart_filled" if liked else "heart", liked
    count = format_count(comment.likes + liked) if comment.likes + liked else ""
    return row.add(
        heart, text_node((right - 150, top + 130, right - 30, top + 180), count, size=30, color=GREY, align="center")
    )


def _like_comment(app: VideoApp, key: tuple[str, str, str]) -> None:
    app.comment_likes ^= {key}


def _comment_bar(bounds: Rect, app: VideoApp, video: Video) -> list[Node]:
    left, top, right, bottom = bounds
    typed = bool(app.text("comment").strip())
    return [
        Node((left, top, right, top + 2), style=Style(background=(236, 236, 240))),
        text_field(
            (left + 30, top + 22, right - 230, bottom - 22), "comment", "说点什么...", rid="comment_input", size=40
        ),
        Node(
            (right - 210, top + 27, right - 30, bottom - 27),
            cls=WIDGET + "Button",
            text="发送",
            rid="send_button",
            clickable=True,
            on_tap=partial(app.send_comment, video.vid),
            style=Style(
                background=RED if typed else (255, 170, 188), color=WHITE, radius=48, size=40, align="center", bold=True
            ),
        ),
    ]


SHARE_TARGETS = [  # (label, icon, disc colour)
    ("微信好友", "comment", (7, 193, 96)),
    ("朋友圈", "sun", (7, 193, 96)),
    ("QQ好友", "user", (18, 150, 219)),
    ("复制链接", "link", (118, 118, 128)),
]
SHEET_ACTIONS = [  # (label, icon, what the app says)
    ("稍后再看", "calendar", "已添加到稍后再看"),
    ("不感兴趣", "close", "将减少推荐类似作品"),
    ("举报", "bell", "举报已提交，我们会尽快处理"),
    ("合拍", "user", "虚拟手机没有摄像头"),
]


def share_page(app: VideoApp, frame: Rect) -> Node:
    left, _top, right, bottom = frame
    video = app.current_video()
    assert video is not None
    y = bottom - 1000
    root = Node(frame, style=Style(background=BLACK))
    root.add(_sheet_backdrop(app, frame, y, video, "关闭分享"))
    sheet = _sheet((left, y, right, bottom), (246, 246, 248))
    sheet.add(text_node((left + 50, y + 20, right - 150, y + 120), "分享给朋友", size=42, bold=True, color=INK))
    sheet.add(
        icon_button(
            (right - 130, y + 20, right - 30, y + 120), "close", "关闭", app.back, rid="close_button", color=INK
        )
    )
    for index, uid in enumerate(app.followed[:5]):
        author, x = app.author(uid), left + 40 + index * 200
        item = Node((x, y + 130, x + 200, y + 380), desc=f"私信给{author.name}", rid="share_friend", clickable=True)
        item.on_tap = partial(app.share, video.vid, author.name)
        item.add(avatar((x + 40, y + 150, x + 160, y + 270), author.seed))
        item.add(text_node((x, y + 280, x + 200, y + 340), author.name, size=30, color=INK, align="center"))
        sheet.add(item)
    sheet.add(Node((left + 40, y + 380, right - 40, y + 382), style=Style(background=(228, 228, 232))))
    for index, (label, icon, colour) in enumerate(SHARE_TARGETS):
        disc = Style(background=colour, radius=65, icon=icon, color=WHITE)
        sheet.add(_share_item((left + 40 + index * 250, y + 400), label, disc, partial(app.share, video.vid, label)))
    for index, (label, icon, message) in enumerate(SHEET_ACTIONS):
        disc = Style(background=WHITE, radius=65, icon=icon, color=INK)
        sheet.add(_share_item((left + 40 + index * 250, y + 660), label, disc, partial(_close_saying, app, message)))
    return root.add(sheet)


def _share_item(corner: tuple[int, int], label: str, disc: Style, on_tap) -> Node:
    """A round icon over its label; the pair is the button."""
    x, y = corner
    item = Node((x, y, x + 250, y + 250), cls=WIDGET + "LinearLayout", desc=label, rid="share_target", clickable=True)
    item.on_tap = on_tap
    item.add(Node((x + 60, y + 20, x + 190, y + 150), style=disc))
    return item.add(text_node((x, y + 160, x + 250, y + 220), label, size=34, color=INK, align="center"))


def _close_saying(app: VideoApp, message: str) -> None:
    app.back()
    app.toast = message


PAGES = {"home": feed_page, "video": video_page, "comments": comments_page, "share": share_page}
