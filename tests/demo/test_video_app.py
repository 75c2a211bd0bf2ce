"""趣看视频 on the virtual phone: what a user sees change when they swipe, like, comment, follow and search."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from annotator.demo.phone.apps.video import VideoApp
from annotator.demo.phone.apps.video_catalog import FEED, VIDEOS
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.tasks import Target, locate


@pytest.fixture
def phone() -> VirtualPhone:
    phone = VirtualPhone()
    phone.reset()
    phone.start_app(VideoApp.package)
    return phone


def app_of(phone: VirtualPhone) -> VideoApp:
    return phone.app_of(VideoApp)


def tap(phone: VirtualPhone, **target: object) -> None:
    rect = locate(phone, Target(**target))  # type: ignore[arg-type]
    assert rect is not None, f"{target} is not on the screen"
    phone.tap((rect[0] + rect[2]) // 2, (rect[1] + rect[3]) // 2)


def texts(phone: VirtualPhone) -> list[str]:
    return [node.text for node, _, _ in phone.find(lambda node: bool(node.text))]


def node(phone: VirtualPhone, **target: object):
    found = phone.find(Target(**target).matches)  # type: ignore[arg-type]
    assert found, f"{target} is not on the screen"
    return found[0][0]


def swipe_up(phone: VirtualPhone) -> None:
    phone.swipe(540, 1700, 540, 600)


def test_swiping_up_and_down_walks_the_feed(phone: VirtualPhone) -> None:
    assert f"@{'旅行的阿敏'}" in texts(phone)
    swipe_up(phone)
    swipe_up(phone)
    assert any(text.startswith(FEED[2].caption) for text in texts(phone))
    phone.swipe(540, 600, 540, 1700)
    assert any(text.startswith(FEED[1].caption) for text in texts(phone))


def test_the_end_of_the_feed_says_so(phone: VirtualPhone) -> None:
    for _ in range(len(FEED) + 2):
        swipe_up(phone)
    assert any(text.startswith(FEED[-1].caption) for text in texts(phone))
    assert "暂时没有更多了" in texts(phone)


def test_like_fills_the_heart_and_counts_one_more_then_undoes(phone: VirtualPhone) -> None:
    assert node(phone, rid="like_button").children[-1].text == "8912"
    tap(phone, rid="like_button")
    like = node(phone, rid="like_button")
    assert like.selected and like.children[0].style.icon == "heart_filled" and like.children[-1].text == "8913"
    tap(phone, rid="like_button")
    like = node(phone, rid="like_button")
    assert not like.selected and like.children[-1].text == "8912"
    assert FEED[0].vid not in app_of(phone).liked


def test_tapping_the_frame_pauses_and_resumes(phone: VirtualPhone) -> None:
    tap(phone, rid="video_view")
    assert phone.find(lambda n: n.desc == "已暂停")
    tap(phone, rid="video_view")
    assert not phone.find(lambda n: n.desc == "已暂停")


def test_a_sent_comment_shows_first_with_my_name(phone: VirtualPhone) -> None:
    tap(phone, rid="comment_button")
    assert "356条评论" in texts(phone)
    tap(phone, rid="comment_input")
    assert phone.keyboard_height() > 0
    phone.input_text("太好看了")
    tap(phone, rid="send_button")
    shown = texts(phone)
    assert "357条评论" in shown and "评论成功" in shown
    first_row = node(phone, rid="comment_item")
    assert [child.text for child in first_row.children[1:3]] == ["我", "太好看了"]
    assert phone.keyboard_height() == 0


def test_an_empty_comment_is_not_sent(phone: VirtualPhone) -> None:
    tap(phone, rid="comment_button")
    tap(phone, rid="send_button")
    assert "说点什么吧" in texts(phone)
    assert app_of(phone).my_comments == {}


def test_follow_hides_the_plus_and_lists_the_author(phone: VirtualPhone) -> None:
    tap(phone, desc="关注")
    assert "已关注" in texts(phone)
    assert not phone.find(lambda n: n.rid.endswith("follow_button"))
    tap(phone, text="我")
    tap(phone, rid="following_count")
    assert "旅行的阿敏" in texts(phone)


def test_search_finds_users_and_videos_and_opens_them(phone: VirtualPhone) -> None:
    tap(phone, desc="搜索")
    assert phone.focus == "search"
    phone.input_text("美食")
    tap(phone, rid="search_button")
    shown = texts(phone)
    assert "美食家小王" in shown and any(text.startswith("街边十块钱的炒面") for text in shown)
    assert app_of(phone).history[0] == "美食"
    tap(phone, rid="video_card")
    assert app_of(phone).current_video() == VIDEOS["v02"]
    phone.keyevent("KEYCODE_BACK")
    tap(phone, rid="user_item")
    assert node(phone, rid="follow_button").text == "关注"
    tap(phone, rid="follow_button")
    assert node(phone, rid="follow_button").text == "已关注"


def test_a_search_with_no_match_says_so(phone: VirtualPhone) -> None:
    tap(phone, desc="搜索")
    phone.input_text("火星")
    phone.keyevent("KEYCODE_ENTER")
    assert "没有找到“火星”相关的内容" in texts(phone)


def test_copy_link_puts_the_video_link_on_the_clipboard(phone: VirtualPhone) -> None:
    tap(phone, desc="分享")
    tap(phone, text="复制链接")
    assert "链接已复制" in texts(phone)
    assert app_of(phone).copied_link == FEED[0].link


def test_my_likes_grid_shows_the_liked_videos_and_unlike_keeps_the_video(phone: VirtualPhone) -> None:
    tap(phone, rid="like_button")
    tap(phone, text="我")
    tap(phone, text="喜欢")
    cells = [n.desc for n, _, _ in phone.find(lambda n: n.rid.endswith("video_cell"))]
    assert cells == [FEED[0].caption, VIDEOS["v06"].caption, VIDEOS["v13"].caption]
    tap(phone, desc=VIDEOS["v13"].caption)
    tap(phone, rid="like_button")
    assert "v13" not in app_of(phone).liked
    assert app_of(phone).current_video() == VIDEOS["v13"]  # the list it was opened from does not shift


def test_back_from_a_tab_returns_to_the_feed_then_leaves(phone: VirtualPhone) -> None:
    tap(phone, text="消息")
    assert "胖虎是只猫" in texts(phone)
    phone.keyevent("KEYCODE_BACK")
    assert app_of(phone).page.name == "home" and phone.foreground == VideoApp.package
    phone.keyevent("KEYCODE_BACK")
    assert phone.foreground != VideoApp.package


def test_pm_clear_resets_the_data_and_force_stop_keeps_it(phone: VirtualPhone) -> None:
    app = app_of(phone)
    tap(phone, rid="like_button")
    tap(phone, desc="关注")
    swipe_up(phone)
    phone.force_stop(VideoApp.package)
    phone.start_app(VideoApp.package)
    assert FEED[0].vid in app.liked and "a1" in app.followed
    assert any(text.startswith(FEED[0].caption) for text in texts(phone))  # back at the top of the feed
    phone.clear_app(VideoApp.package)
    assert app.liked == ["v06", "v13"] and app.followed == ["a3", "a4"] and app.copied_link == ""


def test_the_screen_is_a_dark_full_screen_player_with_described_icons(phone: VirtualPhone) -> None:
    image = Image.open(io.BytesIO(phone.screencap_png()))
    assert image.size == (1080, 2400)
    assert image.getpixel((540, 10)) == (0, 0, 0)  # the status bar is black over the player
    xml = phone.hierarchy_xml()
    for desc in ("点赞", "评论", "收藏", "分享", "关注", "搜索"):
        assert f'content-desc="{desc}"' in xml
    assert 'resource-id="com.virtual.video:id/like_button"' in xml
