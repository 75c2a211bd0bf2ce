"""Instructions for 设置 (the settings app), with their checks and solutions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from annotator.demo.phone.tasks import Instruction, OpenApp, Step, TypeText, tap

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

APP = "设置"


def setting(table: str, key: str, value: str):
    def check(phone: VirtualPhone) -> bool:
        return phone.settings[table].get(key) == value

    return check


def opened(page: str):
    def check(phone: VirtualPhone) -> bool:
        return phone.foreground == "com.android.settings" and phone.current.page.name == page

    return check


def _settings(uid: str, text: str, steps: list[Step], check, success: str, **facts: object) -> Instruction:
    return Instruction(f"settings-{uid}", APP, text, (OpenApp(APP), *steps), check, success, dict(facts))


SETTINGS_INSTRUCTIONS = [
    _settings(
        "wifi-off", "在设置里关闭WLAN", [tap("WLAN"), tap(rid="wifi_switch")],
        setting("global", "wifi_on", "0"), "WLAN 已关闭（settings global wifi_on = 0）", wifi_on="0",
    ),
    _settings(
        "bluetooth-on", "打开手机的蓝牙", [tap("蓝牙"), tap(rid="bluetooth_switch")],
        setting("global", "bluetooth_on", "1"), "蓝牙已开启（settings global bluetooth_on = 1）", bluetooth_on="1",
    ),
    _settings(
        "dark-mode", "帮我把手机切换成深色模式", [tap("显示和亮度"), tap(rid="dark_mode_switch")],
        setting("secure", "ui_night_mode", "2"), "深色模式已开启（ui_night_mode = 2）", ui_night_mode="2",
    ),
    _settings(
        "font-large", "把系统字体大小调成“大”", [tap("显示和亮度"), tap("字体大小"), tap("大")],
        setting("system", "font_scale", "1.15"), "字体大小为“大”（font_scale = 1.15）", font_scale="1.15",
    ),
    _settings(
        "zen-on", "开启勿扰模式", [tap("声音和振动"), tap(rid="zen_mode_switch")],
        setting("global", "zen_mode", "1"), "勿扰模式已开启（settings global zen_mode = 1）", zen_mode="1",
    ),
    _settings(
        "battery-saver", "电量不多了，打开省电模式", [tap("电池"), tap(rid="battery_saver_switch")],
        setting("global", "low_power", "1"), "省电模式已开启（settings global low_power = 1）", low_power="1",
    ),
    _settings(
        "volume-up", "把媒体音量调高两格", [tap("声音和振动"), tap(desc="媒体音量增大"), tap(desc="媒体音量增大")],
        setting("system", "volume_music", "10"), "媒体音量为 10（从 8 调高两格）", volume_music="10",
    ),
    _settings(
        "device-name", "把设备名称改成“小王的手机”",
        [tap("关于手机"), tap("设备名称"), tap(desc="清除"), TypeText("小王的手机"), tap("确定")],
        setting("global", "device_name", "小王的手机"), "设备名称为“小王的手机”（settings global device_name）",
        device_name="小王的手机",
    ),
    _settings(
        "android-version", "查看这台手机的Android版本", [tap("关于手机")],
        opened("about"), "停在“关于手机”页面，上面写着 Android 版本", page="about",
    ),
]  # fmt: skip
