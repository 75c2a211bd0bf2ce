"""The parts of the screen that Android draws around apps: status bar, navigation bar, keyboards, toasts."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from annotator.demo.phone.view import WIDGET, Node, Rect, Style, icon_button, text_node

SYSTEM_UI = "com.android.systemui"
LATIN_IME_PACKAGE = "com.android.inputmethod.latin"
ADB_IME_PACKAGE = "com.android.adbkeyboard"
STATUS_HEIGHT = 80
NAV_HEIGHT = 130
LATIN_KEYBOARD_HEIGHT = 680
ADB_KEYBOARD_HEIGHT = 110
KEY_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]


def status_bar(width: int, clock: str, background: tuple[int, int, int], wifi: bool, battery: int) -> Node:
    dark = sum(background) < 380
    color = (255, 255, 255) if dark else (33, 33, 33)
    bar = Node((0, 0, width, STATUS_HEIGHT), style=Style(background=background))
    bar.add(text_node((40, 0, 240, STATUS_HEIGHT), clock, size=34, color=color, bold=True))
    icons = [("signal", "手机信号满格"), *([("wifi", "WLAN 已连接")] if wifi else [])]
    x = width - 200 - 70 * len(icons)
    for icon, desc in icons:
        bar.add(Node((x, 10, x + 60, 70), cls=WIDGET + "ImageView", desc=desc, style=Style(icon=icon, color=color)))
        x += 70
    bar.add(
        Node(
            (x, 10, x + 60, 70),
            cls=WIDGET + "ImageView",
            desc=f"电池电量 {battery}%",
            style=Style(icon="battery", color=color),
        )
    )
    bar.add(text_node((x + 66, 0, width - 20, STATUS_HEIGHT), f"{battery}%", size=30, color=color))
    return bar


def navigation_bar(width: int, height: int, on_key: Callable[[str], None]) -> Node:
    top = height - NAV_HEIGHT
    bar = Node((0, top, width, height), style=Style(background=(248, 248, 248)))
    keys = [("nav_back", "返回", "KEYCODE_BACK", "back"), ("nav_home", "主屏幕", "KEYCODE_HOME", "home")]
    keys.append(("nav_recents", "概览", "KEYCODE_APP_SWITCH", "recent_apps"))
    slot = width // 3
    for index, (icon, desc, key, rid) in enumerate(keys):
        left = index * slot + (slot - 160) // 2
        bar.add(
            icon_button(
                (left, top + 5, left + 160, height - 5),
                icon,
                desc,
                partial(on_key, key),
                rid=f"{SYSTEM_UI}:id/{rid}",
                color=(80, 80, 80),
            )
        )
    return bar


def latin_keyboard(width: int, bottom: int, on_key: Callable[[str], None], on_char: Callable[[str], None]) -> Node:
    """Gboard-like QWERTY keys; tapping them types, so a person teleoperating can type too."""
    top = bottom - LATIN_KEYBOARD_HEIGHT
    board = Node((0, top, width, bottom), style=Style(background=(232, 234, 237)))
    key_height, key_width, y = 150, width // 10, top + 30
    key_style = {"background": (255, 255, 255), "radius": 14, "size": 44, "align": "center"}
    for row_index, row in enumerate(KEY_ROWS):
        x = (width - len(row) * key_width) // 2 + (key_width if row_index == 2 else 0) // 2
        for char in row:
            board.add(_key((x + 6, y, x + key_width - 6, y + key_height - 14), char, partial(on_char, char), key_style))
            x += key_width
        y += key_height
    board.add(_key((30, y, 230, y + key_height - 14), "?123", lambda: None, key_style | {"size": 34}))
    board.add(_key((240, y, width - 250, y + key_height - 14), "空格", lambda: on_char(" "), key_style | {"size": 34}))
    board.add(
        _key(
            (width - 240, y, width - 30, y + key_height - 14),
            "搜索",
            lambda: on_key("KEYCODE_ENTER"),
            key_style | {"background": (26, 115, 232), "color": (255, 255, 255), "size": 34},
        )
    )
    delete = (width - key_width - 20, top + 30 + 2 * key_height, width - 20, top + 30 + 3 * key_height - 14)
    board.add(
        _key(delete, "删除", lambda: on_key("KEYCODE_DEL"), key_style | {"background": (210, 213, 218), "size": 30})
    )
    return board


def _key(bounds: Rect, label: str, on_tap: Callable[[], None], style: dict) -> Node:
    look = Style(**style)
    return Node(bounds, cls=WIDGET + "Button", text=label, clickable=True, on_tap=on_tap, style=look)


def adb_keyboard(width: int, bottom: int) -> Node:
    """ADBKeyBoard shows only a thin bar; text arrives by broadcast."""
    bar = Node((0, bottom - ADB_KEYBOARD_HEIGHT, width, bottom), style=Style(background=(52, 52, 52)))
    bar.add(text_node(bar.bounds, "ADB Keyboard {ON}", size=36, color=(255, 255, 255), align="center"))
    return bar


def toast(width: int, bottom: int, message: str) -> Node:
    from annotator.demo.phone.fonts import text_width

    box_width = min(width - 120, text_width(message, 38) + 100)
    left = (width - box_width) // 2
    return text_node(
        (left, bottom - 260, left + box_width, bottom - 160),
        message,
        size=38,
        color=(255, 255, 255),
        background=(60, 60, 60),
        radius=50,
        align="center",
    )
