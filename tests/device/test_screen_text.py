"""The screen's elements compressed from a stored UI hierarchy (annotator.device.screen_text), on dumps the demo
phone made while a trajectory was recorded."""

from __future__ import annotations

import pytest

from annotator.device.hierarchy import parse_hierarchy
from annotator.device.screen_text import describe_screen
from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import model_space
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import add_virtual_trajectory

SCREEN = ScreenSize(1080, 2400)
AGENT = model_space("qwen2.5-vl")  # the pixels of the 1092x2408 image the agent is shown


@pytest.fixture
def shop_home(workspace: Workspace) -> list:
    """The shop's home screen, as stored with the step that taps its search box."""
    trajectory_id = add_virtual_trajectory(workspace, "shop-search-earbuds", hierarchy=True)
    step = load_trajectory(workspace.database, trajectory_id).steps[1]
    return parse_hierarchy(workspace.blobs.read_bytes(step.raw.hierarchy_sha256).decode())


def test_the_meaningful_elements_in_reading_order_in_the_models_pixels(shop_home: list) -> None:
    text = describe_screen(shop_home, SCREEN, AGENT)
    lines = text.splitlines()
    assert 'TextView "搜索" id=search_box clickable centre (546, 271) box [30, 211, 1062, 331]' in lines
    # a clickable card without a label of its own is named by the texts inside it, which are not repeated
    card = 'LinearLayout "无线蓝牙耳机 降噪长续航 ￥199 已售5万+" id=product_card clickable centre (279, 1542)'
    assert any(line.startswith(card) for line in lines)
    assert not any(line.startswith(('TextView "￥"', 'TextView "199"', 'TextView "无线蓝牙耳机')) for line in lines)
    assert 'FrameLayout "首页" id=home_tab clickable selected centre (137, 2203) box [0, 2129, 273, 2278]' in lines
    assert lines[-1].startswith('ImageView "概览" id=recent_apps clickable') and lines[-1].endswith("window 2")
    tops = [int(line.split("box [")[1].split(", ")[1]) for line in lines if "window" not in line]
    assert tops == sorted(tops)  # top to bottom within the app's window
    assert len(text) < len(shop_home) * 80 and describe_screen(shop_home, SCREEN, AGENT) == text  # short, stable


def test_capped_text_keeps_what_can_be_acted_on_and_says_how_much_was_left_out(shop_home: list) -> None:
    text = describe_screen(shop_home, SCREEN, AGENT, max_chars=600)
    *lines, note = text.splitlines()
    assert len(text) <= 600 and note.endswith("more elements left out)")
    assert all("clickable" in line or "scrollable" in line for line in lines)
    assert int(note.strip("(").split()[0]) + len(lines) == len(describe_screen(shop_home, SCREEN, AGENT).splitlines())


def test_coordinates_follow_the_model_space(shop_home: list) -> None:
    relative = describe_screen(shop_home, SCREEN, model_space("qwen2-vl")).splitlines()
    assert 'TextView "搜索" id=search_box clickable centre (500, 113) box [28, 88, 972, 138]' in relative


def test_hidden_empty_and_off_screen_nodes_are_left_out() -> None:
    xml = (
        '<hierarchy rotation="0"><node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">'
        '<node text="看得见" class="android.widget.TextView" bounds="[0,100][500,200]"/>'
        '<node text="看不见" class="android.widget.TextView" visible-to-user="false" bounds="[0,300][500,400]"/>'
        '<node text="屏幕外" class="android.widget.TextView" bounds="[0,2500][500,2600]"/>'
        '<node class="android.view.View" bounds="[0,500][500,600]"/>'
        '<node content-desc="关闭" class="android.widget.ImageButton" clickable="true" enabled="false" '
        'bounds="[900,-20][1100,60]"/></node></hierarchy>'
    )
    assert describe_screen(parse_hierarchy(xml), SCREEN, AGENT).splitlines() == [
        'ImageButton "关闭" clickable disabled centre (1001, 30) box [910, 0, 1092, 60]',  # clipped to the screen
        'TextView "看得见" centre (253, 151) box [0, 100, 506, 201]',
    ]
    assert describe_screen([], SCREEN, AGENT) == ""
