"""The UI hierarchy as data: parsing real dumps, finding the element a tap lands on, reading a text field."""

from __future__ import annotations

import pytest

from annotator.demo.phone import view
from annotator.demo.phone.apps.shop import ShopApp
from annotator.demo.phone.phone import VirtualPhone
from annotator.device.android import AndroidDevice
from annotator.device.hierarchy import element_at, focused_text, parse_hierarchy
from annotator.domain.actions import Click, Swipe

ROW = '<node index="0" text="{text}" class="{cls}" clickable="{click}" focused="{focused}" bounds="{bounds}"{extra} />'


def dump(*nodes: str, windows: int = 1) -> str:
    body = "".join(f'<node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">{n}</node>' for n in nodes)
    return f"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">{body}</hierarchy>"


def row(
    text: str = "", cls: str = "android.widget.TextView", click: bool = False, focused: bool = False, **attributes: str
) -> str:
    bounds = attributes.pop("bounds", "[0,0][10,10]")
    extra = "".join(f' {name}="{value}"' for name, value in attributes.items())
    flags = {"click": str(click).lower(), "focused": str(focused).lower()}
    return ROW.format(text=text, cls=cls, bounds=bounds, extra=extra, **flags)


def phone_target(windows: list[tuple[view.Node, str]], x: int, y: int) -> tuple[int, int, int, int] | None:
    """The visible rectangle of what the virtual phone's own hit test gives a touch at (x, y)."""
    wants = lambda node: node.clickable or node.long_clickable or node.checkable  # noqa: E731
    for root, _ in reversed(windows):
        if view.contains(root.bounds, x, y):
            target = view.hit(root, x, y, wants)
            return next((rect for node, rect in root.walk(root.bounds) if node is target), None)
    return None


@pytest.mark.slow
@pytest.mark.parametrize("screen", ["home", "settings", "shop", "cart", "video", "keyboard"])
def test_element_at_finds_what_the_phone_itself_would_touch(
    screen: str, phone: VirtualPhone, device: AndroidDevice
) -> None:
    if screen == "keyboard":  # a focused field: the keyboard window lies over the app
        device.start_app("com.android.settings")
        device.perform(Swipe(coordinate=(540, 1800), coordinate2=(540, 600)))
        for label in ("关于手机", "设备名称", "android.widget.EditText"):
            nodes = parse_hierarchy(device.observe(settle_timeout_s=0).hierarchy_xml or "")
            target = next(node for node in nodes if label in (node.text, node.class_name))
            device.perform(Click(coordinate=target.center))
        assert phone.focus is not None
    elif screen != "home":
        package = {"settings": "com.android.settings", "video": "com.virtual.video"}.get(screen, "com.virtual.shop")
        device.start_app(package)
        if screen == "cart":
            phone.app_of(ShopApp).switch_tab("cart")
    nodes = parse_hierarchy(device.observe(settle_timeout_s=0).hierarchy_xml or "")
    compared, windows = 0, phone.windows()
    for x in range(7, 1080, 53):
        for y in range(7, 2400, 53):
            expected = phone_target(windows, x, y)
            if expected is not None:
                found = element_at(nodes, x, y)
                assert found is not None and found.bounds == expected, (x, y)
                compared += 1
    assert compared > 100


def test_a_tap_on_a_label_targets_the_smallest_clickable_around_it() -> None:
    nodes = parse_hierarchy(
        dump(
            row(click=True, bounds="[0,600][1080,900]")
            + row(text="设置", click=True, bounds="[540,600][810,860]")
            + row(text="label", bounds="[540,775][810,835]")
        )
    )
    assert element_at(nodes, 600, 800).text == "设置"  # the tile, not the plain label or the big row
    assert element_at(nodes, 100, 700).bounds == (0, 600, 1080, 900)
    assert element_at(nodes, 100, 100).class_name == "android.widget.FrameLayout"  # nothing clickable: smallest
    assert element_at(nodes, 2000, 100) is None


def test_where_elements_overlap_the_one_drawn_on_top_wins() -> None:
    # The virtual keyboard's last letter and its backspace key overlap, as views often do on a phone.
    letter = row(text="m", click=True, bounds="[870,1920][966,2056]")
    backspace = row(text="del", click=True, bounds="[952,1920][1060,2056]")
    nodes = parse_hierarchy(dump(letter + backspace))
    assert element_at(nodes, 900, 2000).text == "m"
    assert element_at(nodes, 960, 2000).text == "del"


def test_the_topmost_window_wins_over_smaller_elements_below_it() -> None:
    app = row(text="tiny", click=True, bounds="[100,2000][110,2010]")
    keyboard = row(text="key", click=True, bounds="[0,1900][540,2100]")
    nodes = parse_hierarchy(dump(app, keyboard))
    assert [node.window for node in nodes] == [0, 0, 1, 1]
    assert element_at(nodes, 105, 2005).text == "key"


def test_focused_text_reads_the_focused_field_and_not_its_hint() -> None:
    field = 'class="android.widget.EditText" focused="true" bounds="[0,0][9,9]"'
    typed = f'<node text="a;reboot&#10;$(id)" {field} />'
    hint = f'<node text="搜索商品" hint="搜索商品" {field} />'
    assert focused_text(parse_hierarchy(dump(typed))) == "a;reboot\n$(id)"
    assert focused_text(parse_hierarchy(dump(hint))) == ""
    button = row(text="OK", cls="android.widget.Button", focused=True)
    assert focused_text(parse_hierarchy(dump(button))) is None


def test_malformed_dumps_are_errors_that_say_where() -> None:
    with pytest.raises(ValueError, match=r"line 1, column \d+"):
        parse_hierarchy("<hierarchy><node bounds='[0,0][1,1]'></hierarchy>")
    with pytest.raises(ValueError, match=r"node 1 .*bounds '\[0,0\]'"):
        parse_hierarchy(dump(row(bounds="[0,0]")))


def test_control_characters_that_apps_put_in_labels_do_not_break_parsing() -> None:
    nodes = parse_hierarchy(dump(row(text="a&#8;b\x01c", click=True)))
    assert nodes[1].text == "abc"
