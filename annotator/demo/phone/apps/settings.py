"""设置: the system settings app. Its switches read and write the phone's `settings` tables, so
`adb shell settings get global wifi_on` tells the same story as the screen."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import ClassVar

from annotator.demo.phone.apps.base import App
from annotator.demo.phone.apps.widgets import APP_BAR, ROW, app_bar, row, scroll_column, switch_row, text_field
from annotator.demo.phone.view import Node, Rect, Style, button, icon_button, text_node

NETWORKS = ["Home-5G", "ChinaNet-8F2A", "CMCC-Guest", "TP-LINK_3B7C"]
FONT_SIZES = {"小": "0.85", "标准": "1.0", "大": "1.15", "超大": "1.3"}
BLUE, GREEN, ORANGE, PURPLE, RED, TEAL, GREY_ICON = (
    (25, 118, 210),
    (67, 160, 71),
    (245, 124, 0),
    (126, 87, 194),
    (229, 57, 53),
    (0, 150, 136),
    (120, 144, 156),
)
MAIN_ITEMS = [  # (title, subtitle, page, icon, icon colour); None marks a gap between groups
    ("WLAN", "", "wlan", "wifi", BLUE), ("蓝牙", "", "bluetooth", "share", BLUE),
    ("移动网络", "中国移动", None, "signal", GREEN), None,
    ("显示和亮度", "深色模式、字体大小", "display", "sun", ORANGE),
    ("声音和振动", "音量、勿扰", "sound", "bell", PURPLE),
    ("通知", "应用通知、锁屏通知", None, "bell", RED), None,
    ("电池", "86%", "battery", "battery", GREEN), ("存储", "已使用 41.2 GB / 128 GB", None, "more", TEAL),
    ("应用", "应用管理、默认应用", None, "home", BLUE), None,
    ("安全", "锁屏、指纹", None, "check", GREEN), ("隐私", "权限管理", None, "user", BLUE),
    ("位置信息", "已开启", None, "star", ORANGE), ("辅助功能", "无障碍", None, "user", GREY_ICON), None,
    ("系统和更新", "语言、日期和时间", None, "gear", GREY_ICON), ("关于手机", "", "about", "more", GREY_ICON),
]  # fmt: skip
GAP = 30
RowMaker = Callable[[Rect], Node]  # builds one row of a settings page in the bounds it is given


def gap(bounds: Rect) -> Node:
    return Node(bounds)


class SettingsApp(App):
    package = "com.android.settings"
    label = "设置"
    icon = "gear"
    color = (96, 125, 139)
    status_bar = (246, 246, 246)
    activities: ClassVar[dict[str, str]] = {
        "home": "com.android.settings.Settings",
        "wlan": "com.android.settings.Settings$WifiSettingsActivity",
        "bluetooth": "com.android.settings.Settings$BluetoothSettingsActivity",
        "display": "com.android.settings.Settings$DisplaySettingsActivity",
        "font_size": "com.android.settings.Settings$TextReadingSettingsActivity",
        "sound": "com.android.settings.Settings$SoundSettingsActivity",
        "battery": "com.android.settings.Settings$PowerUsageSummaryActivity",
        "about": "com.android.settings.Settings$MyDeviceInfoActivity",
        "device_name": "com.android.settings.Settings$DeviceNameActivity",
    }

    def clear(self) -> None:
        tables = self.phone.settings
        tables["global"] |= {
            "wifi_on": "1",
            "bluetooth_on": "0",
            "zen_mode": "0",
            "low_power": "0",
            "device_name": "我的手机",
        }
        tables["secure"] |= {"ui_night_mode": "1"}
        tables["system"] |= {"font_scale": "1.0", "volume_music": "8", "screen_brightness": "128"}
        super().clear()

    # State, kept in the phone's settings tables

    def value(self, table: str, key: str) -> str:
        return self.phone.settings[table].get(key, "")

    def is_on(self, table: str, key: str, on: str = "1") -> bool:
        return self.value(table, key) == on

    def toggle(self, table: str, key: str, on: str = "1", off: str = "0") -> None:
        self.phone.settings[table][key] = off if self.is_on(table, key, on) else on

    def set_value(self, table: str, key: str, value: str) -> None:
        self.phone.settings[table][key] = value

    # Pages

    def content(self, frame: Rect) -> Node:
        page = self.page.name
        titles = {
            "home": "设置",
            "wlan": "WLAN",
            "bluetooth": "蓝牙",
            "display": "显示和亮度",
            "font_size": "字体大小",
            "sound": "声音和振动",
            "battery": "电池",
            "about": "关于手机",
            "device_name": "设备名称",
        }
        root = Node(frame, style=Style(background=(246, 246, 246)))
        root.add(app_bar(frame, titles[page], self, (246, 246, 246)))
        body = (frame[0], frame[1] + APP_BAR, frame[2], frame[3])
        return root.add(getattr(self, f"_{page}")(body))

    def _home(self, body: Rect) -> Node:
        def make(title: str, subtitle: str, page: str | None, icon: str, color: tuple[int, int, int]):
            on_tap = partial(self.push, page) if page else None
            return lambda bounds: row(bounds, title, on_tap, subtitle, self._summary(page), icon=(icon, color))

        blocks = [(GAP, gap) if item is None else (ROW, make(*item)) for item in MAIN_ITEMS]
        return scroll_column(body, self, blocks, rid="settings_list")

    def _summary(self, page: str | None) -> str:
        if page == "wlan":
            return NETWORKS[0] if self.is_on("global", "wifi_on") else "已关闭"
        if page == "bluetooth":
            return "已开启" if self.is_on("global", "bluetooth_on") else "已关闭"
        return ""

    def _column(self, body: Rect, rows: list[RowMaker]) -> Node:
        column = Node(body)
        y = body[1] + 20
        for make in rows:
            column.add(make((body[0], y, body[2], y + ROW)))
            y += ROW
        return column

    def _wlan(self, body: Rect) -> Node:
        on = self.is_on("global", "wifi_on")
        rows: list[RowMaker] = [
            lambda b: switch_row(b, "WLAN", on, partial(self.toggle, "global", "wifi_on"), rid="wifi")
        ]
        if on:
            rows.append(lambda b: row(b, NETWORKS[0], None, "已连接"))
            rows += [partial(row, title=name, on_tap=None, subtitle="加密") for name in NETWORKS[1:]]
        return self._column(body, rows)

    def _bluetooth(self, body: Rect) -> Node:
        on = self.is_on("global", "bluetooth_on")
        rows = [lambda b: switch_row(b, "蓝牙", on, partial(self.toggle, "global", "bluetooth_on"), rid="bluetooth")]
        rows.append(lambda b: row(b, "设备名称", None, self.value("global", "device_name")))
        if on:
            rows.append(lambda b: row(b, "可用设备", None, "正在搜索…"))
        return self._column(body, rows)

    def _display(self, body: Rect) -> Node:
        dark = self.is_on("secure", "ui_night_mode", "2")
        size = next((name for name, scale in FONT_SIZES.items() if scale == self.value("system", "font_scale")), "标准")
        rows = [
            lambda b: switch_row(
                b, "深色模式", dark, partial(self.toggle, "secure", "ui_night_mode", "2", "1"), rid="dark_mode"
            ),
            lambda b: row(b, "字体大小", partial(self.push, "font_size"), value=size),
            lambda b: self._stepper(b, "亮度", "screen_brightness", 0, 255, 32),
        ]
        return self._column(body, rows)

    def _font_size(self, body: Rect) -> Node:
        current = self.value("system", "font_scale")

        def choose(scale: str) -> None:
            self.set_value("system", "font_scale", scale)
            self.back()

        def option(name: str, scale: str):
            return lambda b: row(b, name, partial(choose, scale), value="当前" if scale == current else "")

        return self._column(body, [option(name, scale) for name, scale in FONT_SIZES.items()])

    def _sound(self, body: Rect) -> Node:
        zen = self.is_on("global", "zen_mode")
        rows = [
            lambda b: self._stepper(b, "媒体音量", "volume_music", 0, 15, 1),
            lambda b: switch_row(b, "勿扰模式", zen, partial(self.toggle, "global", "zen_mode"), rid="zen_mode"),
        ]
        return self._column(body, rows)

    def _battery(self, body: Rect) -> Node:
        saver = self.is_on("global", "low_power")
        rows = [
            lambda b: row(b, "电量", None, "预计可用 1 天 4 小时", value="86%"),
            lambda b: switch_row(
                b, "省电模式", saver, partial(self.toggle, "global", "low_power"), rid="battery_saver"
            ),
        ]
        return self._column(body, rows)

    def _about(self, body: Rect) -> Node:
        phone = self.phone
        rows = [
            lambda b: row(b, "设备名称", partial(self._edit_name), value=self.value("global", "device_name")),
            lambda b: row(b, "型号", None, value=phone.model),
            lambda b: row(b, "Android 版本", None, value=phone.android_version),
            lambda b: row(b, "序列号", None, value=phone.serial),
        ]
        return self._column(body, rows)

    def _edit_name(self) -> None:
        self.push("device_name")
        self.set_text("device_name", self.value("global", "device_name"))

    def _device_name(self, body: Rect) -> Node:
        left, top, right, _ = body
        page = Node(body)
        page.add(
            text_field(
                (left + 50, top + 60, right - 50, top + 200), "device_name", "输入设备名称", rid="device_name_edit"
            )
        )
        if self.text("device_name"):
            page.add(
                icon_button(
                    (right - 170, top + 75, right - 60, top + 185),
                    "close",
                    "清除",
                    self._clear_name,
                    rid="clear",
                    color=(117, 117, 117),
                )
            )
        page.add(
            button(
                (right - 330, top + 260, right - 50, top + 380),
                "确定",
                self._save_name,
                rid="ok",
                background=(26, 115, 232),
                color=(255, 255, 255),
                radius=60,
                size=42,
            )
        )
        page.add(
            text_node(
                (left + 60, top + 420, right - 60, top + 500),
                "其他设备通过蓝牙或 WLAN 看到的名称",
                size=36,
                color=(117, 117, 117),
            )
        )
        return page

    def _clear_name(self) -> None:
        self.set_text("device_name", "")
        self.phone.focus = "device_name"

    def _save_name(self) -> None:
        name = self.text("device_name").strip()
        if not name:
            self.toast = "设备名称不能为空"
            return
        self.set_value("global", "device_name", name)
        self.back()
        self.toast = "已保存"

    def submit(self, key: str) -> None:
        if key == "device_name":
            self._save_name()

    def _stepper(self, bounds: Rect, title: str, key: str, low: int, high: int, step: int) -> Node:
        """A value with minus and plus buttons (a slider that a tap can drive)."""
        _left, top, right, bottom = bounds
        value = int(self.value("system", key) or low)

        def change(delta: int) -> None:
            self.set_value("system", key, str(max(low, min(high, value + delta))))

        item = row(bounds, title, None, value=str(value))
        item.children[-2].bounds = (right - 560, top, right - 230, bottom)  # the value sits between the buttons
        middle = (top + bottom) // 2
        item.add(
            button(
                (right - 680, middle - 50, right - 580, middle + 50),
                "",
                partial(change, -step),
                rid=f"{key}_down",
                background=(232, 234, 237),
                radius=50,
            ).add()
        )
        item.children[-1].desc, item.children[-1].style.icon = f"{title}减小", "minus"
        item.add(
            button(
                (right - 190, middle - 50, right - 90, middle + 50),
                "",
                partial(change, step),
                rid=f"{key}_up",
                background=(232, 234, 237),
                radius=50,
            )
        )
        item.children[-1].desc, item.children[-1].style.icon = f"{title}增大", "plus"
        return item
