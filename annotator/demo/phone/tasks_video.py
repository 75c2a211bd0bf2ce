"""Instructions for 趣看视频 (the short-video app), with their checks and solutions.

Checks read the app's data (likes, favourites, follows, comments, shares, the copied link) or, for the
instructions that only ask to look at something, the page on screen. Facts come from the catalog, so a
change of the default data shows up here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from annotator.demo.phone.apps.video import VideoApp
from annotator.demo.phone.apps.video_catalog import AUTHORS, DEFAULT_FOLLOWED, FEED, VIDEOS, search, videos_by
from annotator.demo.phone.tasks import Instruction, OpenApp, Scroll, Step, TypeText, tap

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

APP = "趣看视频"
Check = Callable[["VirtualPhone"], bool]


def _app(phone: VirtualPhone) -> VideoApp:
    return phone.app_of(VideoApp)


def liked(vid: str, wanted: bool = True) -> Check:
    return lambda phone: (vid in _app(phone).liked) == wanted


def favorited(vid: str) -> Check:
    return lambda phone: vid in _app(phone).favorites


def following(uid: str, wanted: bool = True) -> Check:
    return lambda phone: (uid in _app(phone).followed) == wanted


def commented(vid: str, text: str) -> Check:
    return lambda phone: text in _app(phone).my_comments.get(vid, [])


def shared(vid: str, where: str) -> Check:
    return lambda phone: (vid, where) in _app(phone).shared


def link_copied(vid: str) -> Check:
    return lambda phone: _app(phone).copied_link == VIDEOS[vid].link


def history_empty(phone: VirtualPhone) -> bool:
    return _app(phone).history == []


def paused_in_feed(phone: VirtualPhone) -> bool:
    app = _app(phone)
    return phone.foreground == app.package and app.page.name == "home" and app.paused


def showing(page: str, **params: str) -> Check:
    def check(phone: VirtualPhone) -> bool:
        app = _app(phone)
        current = app.page
        return phone.foreground == app.package and current.name == page and current.params.items() >= params.items()

    return check


def search_for(query: str) -> list[Step]:
    """Open search from the feed (the box takes the focus), type and press 搜索."""
    return [tap(desc="搜索"), TypeText(query), tap(rid="search_button")]


def _video(uid: str, text: str, steps: list[Step], check: Check, success: str, **facts: object) -> Instruction:
    return Instruction(f"video-{uid}", APP, text, (OpenApp(APP), *steps), check, success, dict(facts))


def _facts(vid: str) -> dict[str, str]:
    video = VIDEOS[vid]
    return {"video": vid, "caption": video.caption, "author": AUTHORS[video.author].name}


FIRST, SECOND, THIRD = FEED[0].vid, FEED[1].vid, FEED[2].vid
FOOD_FIRST = search("美食")[1][0].vid
GUITAR_FIRST = videos_by("a9")[0].vid
FOLLOWING_FIRST = next(video.vid for video in VIDEOS.values() if video.author in DEFAULT_FOLLOWED)
SNOW = "v13"  # liked in the default data

VIDEO_INSTRUCTIONS = [
    _video(
        "like-first", "在趣看视频里给第一个视频点个赞", [tap(rid="like_button")],
        liked(FIRST), "推荐页第一个视频在“喜欢”里（已点赞）", **_facts(FIRST),
    ),
    _video(
        "like-third", "刷到趣看视频推荐页的第三个视频，给它点赞", [Scroll("up"), Scroll("up"), tap(rid="like_button")],
        liked(THIRD), "推荐页第三个视频已点赞", **_facts(THIRD),
    ),
    _video(
        "follow-author", "关注趣看视频首页第一个视频的作者", [tap(desc="关注")],
        following(FEED[0].author), "第一个视频的作者在我的关注列表里", author=AUTHORS[FEED[0].author].name,
    ),
    _video(
        "comment-first", "在趣看视频第一个视频下面评论“太好看了”",
        [tap(rid="comment_button"), tap(rid="comment_input"), TypeText("太好看了"), tap(rid="send_button")],
        commented(FIRST, "太好看了"), "第一个视频下有我发的评论“太好看了”", comment="太好看了", **_facts(FIRST),
    ),
    _video(
        "comment-third", "在趣看视频推荐的第三个视频下评论“求教程”",
        [
            Scroll("up"), Scroll("up"), tap(rid="comment_button"), tap(rid="comment_input"), TypeText("求教程"),
            tap(rid="send_button"),
        ],
        commented(THIRD, "求教程"), "第三个视频下有我发的评论“求教程”", comment="求教程", **_facts(THIRD),
    ),
    _video(
        "favorite-second", "收藏趣看视频推荐页的第二个视频", [Scroll("up"), tap(desc="收藏")],
        favorited(SECOND), "推荐页第二个视频在我的收藏里", **_facts(SECOND),
    ),
    _video(
        "search-follow", "在趣看视频搜索“山野露营”，进入主页关注这个博主",
        [*search_for("山野露营"), tap(rid="user_item"), tap(rid="follow_button")],
        following("a8"), "“山野露营”在我的关注列表里", author="山野露营",
    ),
    _video(
        "search-like", "在趣看视频搜索“美食”，给搜到的第一个视频点赞",
        [*search_for("美食"), tap(rid="video_card"), tap(rid="like_button")],
        liked(FOOD_FIRST), "搜索“美食”的第一个视频结果已点赞", query="美食", **_facts(FOOD_FIRST),
    ),
    _video(
        "author-like", "打开“吉他少年阿杰”的主页，给他的第一个作品点赞",
        [*search_for("吉他少年阿杰"), tap(rid="user_item"), tap(rid="video_cell"), tap(rid="like_button")],
        liked(GUITAR_FIRST), "“吉他少年阿杰”主页的第一个作品已点赞", **_facts(GUITAR_FIRST),
    ),
    _video(
        "copy-link", "复制趣看视频第一个视频的分享链接", [tap(desc="分享"), tap("复制链接")],
        link_copied(FIRST), "复制的链接是第一个视频的链接", link=VIDEOS[FIRST].link, **_facts(FIRST),
    ),
    _video(
        "share-wechat", "把趣看视频推荐的第一个视频分享给微信好友", [tap(desc="分享"), tap("微信好友")],
        shared(FIRST, "微信好友"), "第一个视频已分享到微信好友", target="微信好友", **_facts(FIRST),
    ),
    _video(
        "my-likes", "打开趣看视频“我”里面的喜欢列表", [tap("我"), tap("喜欢")],
        showing("me", tab="喜欢"), "停在“我”页面的“喜欢”标签", page="me", tab="喜欢",
    ),
    _video(
        "my-favorites", "看看我在趣看视频收藏了哪些视频", [tap("我"), tap("收藏")],
        showing("me", tab="收藏"), "停在“我”页面的“收藏”标签", page="me", tab="收藏",
    ),
    _video(
        "my-following", "查看我在趣看视频关注了哪些人", [tap("我"), tap(rid="following_count")],
        showing("following"), "停在“我的关注”列表", page="following",
    ),
    _video(
        "unlike", "在趣看视频里取消对“胖虎第一次见到雪”的点赞",
        [tap("我"), tap("喜欢"), tap(desc=VIDEOS[SNOW].caption), tap(rid="like_button")],
        liked(SNOW, wanted=False), "“胖虎第一次见到雪”不在“喜欢”里了（默认已点赞）", **_facts(SNOW),
    ),
    _video(
        "unfollow", "在趣看视频取消关注“老张说数码”",
        [*search_for("老张说数码"), tap(rid="user_item"), tap(rid="follow_button")],
        following("a3", wanted=False), "“老张说数码”不在我的关注列表里了（默认已关注）", author="老张说数码",
    ),
    _video(
        "following-like", "切到趣看视频的关注页，给第一个视频点赞", [tap("关注"), tap(rid="like_button")],
        liked(FOLLOWING_FIRST), "关注页第一个视频已点赞", **_facts(FOLLOWING_FIRST),
    ),
    _video(
        "pause", "暂停趣看视频正在播放的视频", [tap(rid="video_view")],
        paused_in_feed, "首页的视频处于暂停状态", page="home", paused=True,
    ),
    _video(
        "clear-history", "清空趣看视频的搜索历史", [tap(desc="搜索"), tap("清空")],
        history_empty, "搜索历史为空（默认有三条）", history=[],
    ),
]  # fmt: skip
