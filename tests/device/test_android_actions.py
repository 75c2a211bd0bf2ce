"""Every mobile_use action reaches the phone and changes it; text arrives exactly, whatever it contains."""

from __future__ import annotations

import pytest

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone
from annotator.device.adb import adb_client
from annotator.device.android import AndroidDevice
from annotator.device.errors import ActionFailed
from annotator.device.hierarchy import UiNode, element_at, focused_text, parse_hierarchy
from annotator.device.observe import dump_hierarchy
from annotator.device.text_input import ADB_IME
from annotator.domain import actions as act

SETTINGS = "com.android.settings"


@pytest.fixture
def device(server: VirtualAdbServer, phone: VirtualPhone) -> AndroidDevice:
    """The shared device, with the phone's own app table (what `open 设置` launches)."""
    packages = {app.label: package for package, app in phone.apps.items()}
    return AndroidDevice(adb_client(port=server.port), phone.serial, packages=packages)


def nodes(device: AndroidDevice) -> list[UiNode]:
    """The hierarchy alone (the virtual phone cannot draw a newline in a one-line field, see the newline test)."""
    xml, error = dump_hierarchy(device.shell, retries=0)
    assert xml is not None, error
    return parse_hierarchy(xml)


def tap(device: AndroidDevice, text: str) -> None:
    """Tap what a person would tap to hit a label: the element the label's middle lies in."""
    label = next(node for node in nodes(device) if text in (node.text, node.content_desc))
    target = element_at(nodes(device), *label.center)
    assert target is not None
    device.perform(act.Click(coordinate=target.center))


def setting(device: AndroidDevice, namespace: str, key: str) -> str:
    return device.shell(["settings", "get", namespace, key]).text.strip()


def open_device_name(device: AndroidDevice) -> None:
    """设置 > 关于手机 > 设备名称, with its text field focused and emptied."""
    device.perform(act.Open(text="设置"))
    device.perform(act.Swipe(coordinate=(540, 1800), coordinate2=(540, 600)))
    tap(device, "关于手机")
    tap(device, "设备名称")
    tap(device, "清除")
    assert focused_text(nodes(device)) == ""


@pytest.mark.slow
def test_open_click_swipe_and_the_system_buttons_move_through_settings(device: AndroidDevice) -> None:
    device.perform(act.Open(text="设置"))
    assert device.observe().package == SETTINGS
    assert not any(node.text == "关于手机" for node in nodes(device))
    device.perform(act.Swipe(coordinate=(540, 1800), coordinate2=(540, 600)))
    assert any(node.text == "关于手机" for node in nodes(device))
    tap(device, "关于手机")
    assert (device.observe().activity or "").endswith("MyDeviceInfoActivity")
    device.perform(act.SystemButton(button="Back"))
    assert device.observe().activity == "com.android.settings.Settings"
    device.perform(act.SystemButton(button="Menu"))
    device.perform(act.SystemButton(button="Home"))
    assert device.observe().package == "com.android.launcher3"


def test_open_takes_a_package_name_too_and_names_the_known_apps_when_it_cannot(device: AndroidDevice) -> None:
    device.perform(act.Open(text="com.virtual.video"))
    assert device.observe().package == "com.virtual.video"
    with pytest.raises(ActionFailed, match=r"no app called '淘宝' is known.*优选商城, 桌面, 设置, 趣看视频"):
        device.perform(act.Open(text="淘宝"))
    with pytest.raises(ActionFailed, match="No activities found"):
        device.start_app("com.android.inputmethod.latin")


def test_a_long_press_asks_to_delete_a_cart_item_where_a_click_opens_it(device: AndroidDevice) -> None:
    device.perform(act.Open(text="优选商城"))
    tap(device, "购物车")
    item = next(node for node in nodes(device) if node.resource_id.endswith("cart_item"))
    device.perform(act.LongPress(coordinate=item.center, time=1))
    assert any(node.text == "确定删除该商品吗？" for node in nodes(device))


def test_keys_change_the_volume_and_enter_submits_the_field(device: AndroidDevice) -> None:
    device.perform(act.Key(text="volume_up"))
    before = int(setting(device, "system", "volume_music"))
    device.perform(act.Key(text="VOLUME_UP"))
    assert int(setting(device, "system", "volume_music")) == before + 1
    open_device_name(device)
    device.type_text("小王的手机")
    device.perform(act.SystemButton(button="Enter"))
    assert setting(device, "global", "device_name") == "小王的手机"
    with pytest.raises(ActionFailed, match=r"(?s)input keyevent KEYCODE_NO_SUCH_KEY.*Unknown keycode"):
        device.perform(act.Key(text="no_such_key"))
    with pytest.raises(ActionFailed, match="not an adb key name"):
        device.perform(act.Key(text="vol+"))


def test_wait_and_terminate_leave_the_phone_as_it_was(device: AndroidDevice) -> None:
    device.perform(act.Open(text="设置"))
    before = device.observe()
    device.perform(act.Wait(time=0.05))
    device.perform(act.Terminate(status="success"))
    after = device.observe()
    assert (after.png, after.hierarchy_xml) == (before.png, before.hierarchy_xml)


def test_chinese_goes_through_the_adb_keyboard_and_the_previous_keyboard_comes_back(
    device: AndroidDevice, phone: VirtualPhone
) -> None:
    open_device_name(device)
    previous = setting(device, "secure", "default_input_method")
    assert previous != ADB_IME
    assert device.type_text("小王的") == "小王的"
    assert device.type_text("Pixel 9") == "小王的Pixel 9"
    device.perform(act.Type(text="，你好"))
    assert focused_text(nodes(device)) == "小王的Pixel 9，你好"
    assert setting(device, "secure", "default_input_method") == previous
    assert ADB_IME in phone.ime_enabled


@pytest.mark.slow
@pytest.mark.parametrize(
    "text", ["a;reboot", "$(id)", "'\"", "line one\nline two", "100%s off", "`ls` & \\n", "a  b", "-rf /"]
)
def test_shell_special_text_is_typed_literally(device: AndroidDevice, text: str) -> None:
    """Read back from the field. (A screenshot of the newline case fails: the virtual phone cannot draw a
    newline in a one-line field, so these checks read the hierarchy only.)"""
    open_device_name(device)
    assert device.type_text(text) == text
    assert focused_text(nodes(device)) == text


def test_a_disabled_adb_keyboard_is_enabled_for_typing_and_disabled_again(
    device: AndroidDevice, phone: VirtualPhone
) -> None:
    device.shell(["ime", "disable", ADB_IME])
    open_device_name(device)
    assert device.type_text("你好") == "你好"
    assert ADB_IME not in device.shell(["ime", "list", "-s"]).text


def test_without_the_adb_keyboard_unicode_fails_clearly_and_ascii_still_types(
    device: AndroidDevice, phone: VirtualPhone
) -> None:
    phone.ime_enabled.remove(ADB_IME)  # a phone that never had ADBKeyBoard installed
    phone.ime_installed.remove(ADB_IME)
    open_device_name(device)
    with pytest.raises(ActionFailed) as failed:
        device.type_text("小王的手机")
    message = str(failed.value)
    assert "github.com/senzhk/ADBKeyBoard/releases" in message and "adb -s virtual-1 install" in message
    assert f"ime enable {ADB_IME}" in message
    assert focused_text(nodes(device)) == ""
    assert device.type_text("Pixel 9") == "Pixel 9"


def test_typing_with_no_field_focused_is_reported(device: AndroidDevice) -> None:
    device.perform(act.Open(text="设置"))
    with pytest.raises(ActionFailed, match="no text field has focus"):
        device.type_text("hello")
