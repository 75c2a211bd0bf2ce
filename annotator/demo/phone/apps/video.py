"""趣看视频: a short-video app in the style of Douyin and Kuaishou.

The data a user changes (likes, favourites, follows, comments, search history, shares, the copied link)
is reset by `pm clear`; `am force-stop` keeps it and starts again at the top of the 推荐 feed.
Pages live in `video_feed` (the full-screen player and its sheets) and `video_pages` (everything else).
"""

from __future__ import annotations

from typing import ClassVar

from annotator.demo.phone.apps import video_feed, video_pages
from annotator.demo.phone.apps.base import App, Page
from annotator.demo.phone.apps.video_catalog import (
    AUTHORS,
    DEFAULT_FAVORITES,
    DEFAULT_FOLLOWED,
    DEFAULT_HISTORY,
    DEFAULT_LIKED,
    FEED,
    ME,
    MY_WORKS,
    VIDEOS,
    Author,
    Comment,
    Video,
    default_comments,
    search,
    videos_by,
)
from annotator.demo.phone.view import Node, Rect

ME_TABS = ("作品", "喜欢", "收藏")


class VideoApp(App):
    package = "com.virtual.video"
    label = "趣看视频"
    icon = "play"
    color = (22, 24, 35)
    activities: ClassVar[dict[str, str]] = {
        "home": "com.virtual.video.MainActivity",
        "video": "com.virtual.video.detail.VideoDetailActivity",
        "search": "com.virtual.video.search.SearchActivity",
        "author": "com.virtual.video.profile.UserProfileActivity",
        "following": "com.virtual.video.profile.FollowListActivity",
        "create": "com.virtual.video.record.RecordActivity",
    }

    # Data: what `pm clear` resets

    def clear(self) -> None:
        self.liked: list[str] = list(DEFAULT_LIKED)  # newest first, as the 喜欢 tab of 我 lists them
        self.favorites: list[str] = list(DEFAULT_FAVORITES)
        self.followed: list[str] = list(DEFAULT_FOLLOWED)  # in the order they were followed
        self.my_comments: dict[str, list[str]] = {}  # video -> my comments, newest first
        self.comment_likes: set[tuple[str, str, str]] = set()  # (video, author, text)
        self.history: list[str] = list(DEFAULT_HISTORY)
        self.shared: list[tuple[str, str]] = []  # (video, where to)
        self.copied_link = ""
        self.messages_read = False
        super().clear()

    def restart(self) -> None:
        super().restart()
        self.feed_tab = "推荐"
        self.positions = {"推荐": 0, "关注": 0}
        self.paused = False
        self.following_snapshot: list[str] = []  # 我的关注 keeps a row after an unfollow, until reopened
        self.opened_lists: dict[str, list[str]] = {}  # a list a video was opened from, as it was then

    # The screen

    def content(self, frame: Rect) -> Node:
        if self.page.name in video_feed.PAGES:
            return video_feed.PAGES[self.page.name](self, frame)
        return video_pages.PAGES[self.page.name](self, frame)

    def status_bar_color(self) -> tuple[int, int, int]:  # the colour follows the page
        return video_pages.status_colour(self)

    # Navigation

    def switch_tab(self, name: str) -> None:
        """The bottom tabs swap the root page (the stack's first), as a main activity's fragments do."""
        self.stack = [Page(name, {"tab": ME_TABS[0]} if name == "me" else {})]
        self.phone.focus, self.paused = None, False
        self.messages_read = self.messages_read or name == "messages"

    def back(self) -> bool:
        if len(self.stack) == 1 and self.page.name != "home":
            self.switch_tab("home")  # Back on 朋友 / 消息 / 我 returns to 首页 before leaving the app
            return True
        self.paused = False
        return super().back()

    def open_video(self, source: str, index: int) -> None:
        """Open a video of a list (search results, an author's works, my likes) full screen."""
        self.opened_lists[source] = [video.vid for video in self.video_list(source)]
        self.push("video", source=source)
        self.page.scroll = index  # a pager's position: which video of the list is on screen
        self.paused = False

    def open_author(self, uid: str) -> None:
        if uid == ME.uid:
            self.switch_tab("me")
        else:
            self.push("author", author=uid)

    def open_search(self) -> None:
        self.push("search")
        self.fields["search"] = ""
        self.phone.focus = "search"  # the search box takes the focus, as the real apps do

    def open_following(self) -> None:
        self.following_snapshot = list(self.followed)
        self.push("following")

    # Lists of videos

    def feed(self, tab: str | None = None) -> list[Video]:
        if (tab or self.feed_tab) == "推荐":
            return FEED
        return [video for video in VIDEOS.values() if video.author in self.followed]

    def video_list(self, source: str) -> list[Video]:
        kind, _, key = source.partition(":")
        if kind == "search":
            return search(key)[1]
        if kind == "author":
            return videos_by(key)
        if kind == "me":
            return self.my_videos(key)
        return self.feed("关注")

    def my_videos(self, tab: str) -> list[Video]:
        if tab in ("喜欢", "收藏"):
            return [VIDEOS[vid] for vid in (self.liked if tab == "喜欢" else self.favorites)]
        return MY_WORKS

    def current_video(self) -> Video | None:
        """The video on screen (under a comment or share sheet too)."""
        if "video" in self.page.params:
            return VIDEOS[self.page.params["video"]]
        videos, index = self._pager()
        return videos[min(index, len(videos) - 1)] if videos else None

    def _pager(self) -> tuple[list[Video], int]:
        """The videos the player pages through, and the position on screen."""
        if self.page.name == "video":
            vids = self.opened_lists.get(self.page.params["source"], [])
            return [VIDEOS[vid] for vid in vids], self.page.scroll
        return self.feed(), self.positions[self.feed_tab]

    def swipe_feed(self, step: int) -> None:
        """Next (+1) or previous (-1) video of the feed or of the opened list."""
        videos, index = self._pager()
        target = index + step
        if target >= len(videos):
            self.toast = "暂时没有更多了"
            return
        target = max(0, target)
        if self.page.name == "home":
            self.positions[self.feed_tab] = target
        else:
            self.page.scroll = target
        self.paused = False

    def set_feed_tab(self, tab: str) -> None:
        self.feed_tab, self.paused = tab, False
        self.positions[tab] = min(self.positions[tab], max(0, len(self.feed()) - 1))

    # What a user does to a video or an author

    def toggle_like(self, vid: str) -> None:
        _toggle(self.liked, vid)

    def toggle_favorite(self, vid: str) -> None:
        _toggle(self.favorites, vid)
        self.toast = "已收藏" if vid in self.favorites else "已取消收藏"

    def follow(self, uid: str) -> None:
        if uid not in self.followed:
            self.followed.append(uid)
        self.toast = "已关注"

    def unfollow(self, uid: str) -> None:
        if uid in self.followed:
            self.followed.remove(uid)
        self.toast = "已取消关注"

    def toggle_follow(self, uid: str) -> None:
        (self.unfollow if uid in self.followed else self.follow)(uid)

    def likes(self, video: Video) -> int:
        return video.likes + (video.vid in self.liked)

    def favorite_count(self, video: Video) -> int:
        return video.favorites + (video.vid in self.favorites)

    def share_count(self, video: Video) -> int:
        return video.shares + sum(vid == video.vid for vid, _ in self.shared)

    def comment_count(self, video: Video) -> int:
        return video.comments + len(self.my_comments.get(video.vid, []))

    def comments(self, vid: str) -> list[Comment]:
        mine = [Comment("我", text, 0, "刚刚", mine=True) for text in self.my_comments.get(vid, [])]
        return mine + default_comments(vid)

    def send_comment(self, vid: str) -> None:
        text = self.text("comment").strip()
        if not text:
            self.toast = "说点什么吧"
            return
        self.my_comments.setdefault(vid, []).insert(0, text)
        self.fields["comment"] = ""
        self.phone.focus = None
        self.page.scroll = 0
        self.toast = "评论成功"

    def share(self, vid: str, where: str) -> None:
        self.shared.append((vid, where))
        self.back()
        if where == "复制链接":
            self.copied_link = VIDEOS[vid].link
            self.toast = "链接已复制"
        elif where in ("微信好友", "朋友圈", "QQ好友"):
            self.toast = f"已分享到{where}"
        else:
            self.toast = f"已发送给{where}"

    # Search

    def run_search(self, query: str | None = None) -> None:
        query = (self.text("search") if query is None else query).strip()
        if not query:
            self.toast = "请输入搜索内容"
            return
        self.fields["search"] = query
        self.history = [query, *(item for item in self.history if item != query)][:10]
        self.page.params["query"] = query
        self.page.scroll = 0
        self.phone.focus = None

    def clear_history(self) -> None:
        self.history = []

    def submit(self, key: str) -> None:
        if key == "search":
            self.run_search()
        elif key == "comment" and (video := self.current_video()) is not None:
            self.send_comment(video.vid)

    def search_results(self) -> tuple[list[Author], list[Video]]:
        return search(self.page.params.get("query", ""))

    def author(self, uid: str) -> Author:
        return ME if uid == ME.uid else AUTHORS[uid]


def _toggle(items: list[str], item: str) -> None:
    """Remove the item, or put it first (the newest)."""
    if item in items:
        items.remove(item)
    else:
        items.insert(0, item)
