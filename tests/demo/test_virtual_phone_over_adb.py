"""The virtual phone as a device layer sees it: adbutils over the loopback server, and the scripted agent."""

from __future__ import annotations

import base64
import io
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import openai
import pytest
from adbutils import AdbClient, AdbDevice, AdbError
from PIL import Image

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.domain import actions as act
from annotator.domain import parse_response
from annotator.domain.prompts import agent_system_prompt

ADB_IME = VirtualPhone.IME_ADB
BUTTON_KEYS = {"Back": "KEYCODE_BACK", "Home": "KEYCODE_HOME", "Enter": "KEYCODE_ENTER", "Menu": "KEYCODE_MENU"}


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone(serial="virtual-7")


@pytest.fixture
def device(phone: VirtualPhone) -> Iterator[AdbDevice]:
    with VirtualAdbServer([phone]) as server:
        yield AdbClient(host="127.0.0.1", port=server.port).device(phone.serial)


def nodes(device: AdbDevice) -> list[ET.Element]:
    return list(ET.fromstring(device.dump_hierarchy().encode()).iter("node"))


def bounds(node: ET.Element) -> tuple[int, int, int, int]:
    left, top, right, bottom = (int(v) for v in node.get("bounds", "").replace("][", ",").strip("[]").split(","))
    return left, top, right, bottom


def tap_text(device: AdbDevice, text: str, attribute: str = "text") -> None:
    node = next(n for n in nodes(device) if n.get(attribute) == text)
    left, top, right, bottom = bounds(node)
    device.click((left + right) // 2, (top + bottom) // 2)


def type_chinese(device: AdbDevice, text: str) -> None:
    """As a device layer types non-ASCII: switch to ADBKeyBoard, broadcast base64, switch back."""
    previous = device.shell(["settings", "get", "secure", "default_input_method"]).strip()
    device.shell(["ime", "set", ADB_IME])
    message = base64.b64encode(text.encode()).decode()
    device.shell(["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", message])
    device.shell(["ime", "set", previous])


def test_dumped_bounds_match_the_pixels(device: AdbDevice) -> None:
    device.app_start("com.android.settings")
    device.swipe(540, 1800, 540, 600, 0.3)
    tap_text(device, "关于手机")
    tap_text(device, "设备名称")
    ok = next(n for n in nodes(device) if n.get("text") == "确定")
    left, top, right, bottom = bounds(ok)
    screen = device.screenshot(error_ok=False)
    middle = (top + bottom) // 2
    blue = (26, 115, 232)
    assert screen.getpixel((left + 70, middle)) == blue and screen.getpixel((right - 70, middle)) == blue
    assert screen.getpixel((left - 8, middle)) != blue and screen.getpixel((right + 8, middle)) != blue
    assert screen.getpixel(((left + right) // 2, top - 8)) != blue


def test_swipes_scroll_lists_and_keys_go_back_and_home(device: AdbDevice) -> None:
    device.app_start("com.android.settings")
    assert not any(n.get("text") == "关于手机" for n in nodes(device))
    device.swipe(540, 1800, 540, 600, 0.3)
    assert any(n.get("text") == "关于手机" for n in nodes(device))
    assert any(n.get("scrollable") == "true" for n in nodes(device))
    tap_text(device, "关于手机")
    assert device.app_current().activity.endswith("MyDeviceInfoActivity")
    device.keyevent("KEYCODE_BACK")
    assert device.app_current().activity == "com.android.settings.Settings"
    device.keyevent("KEYCODE_HOME")
    assert device.app_current().package == "com.android.launcher3"


def test_chinese_through_the_ime_broadcast_and_ascii_through_input_text(device: AdbDevice) -> None:
    device.app_start("com.android.settings")
    device.swipe(540, 1800, 540, 600, 0.3)
    tap_text(device, "关于手机")
    tap_text(device, "设备名称")
    tap_text(device, "清除", attribute="content-desc")
    type_chinese(device, "小王的")
    device.send_keys("Pixel 9")
    field = next(n for n in nodes(device) if n.get("class") == "android.widget.EditText")
    assert field.get("text") == "小王的Pixel 9" and field.get("focused") == "true"
    assert device.shell(["settings", "get", "secure", "default_input_method"]).strip() == VirtualPhone.IME_LATIN


def perform(device: AdbDevice, action: act.Action, packages: dict[str, str]) -> None:
    """The adb commands for a tool call, as the collection issue's device layer will issue them."""
    match action:
        case act.Click(coordinate=(x, y)):
            device.click(round(x), round(y))
        case act.LongPress(coordinate=(x, y)):
            device.swipe(round(x), round(y), round(x), round(y), action.seconds)
        case act.Swipe(coordinate=(x1, y1), coordinate2=(x2, y2)):
            device.swipe(round(x1), round(y1), round(x2), round(y2), 0.3)
        case act.Type(text=text):
            type_chinese(device, text)
        case act.SystemButton(button=button):
            device.keyevent(BUTTON_KEYS[button])
        case act.Open(text=name):
            device.app_start(packages[name])


@pytest.mark.slow
def test_the_scripted_agent_drives_the_phone_over_adb(device: AdbDevice, phone: VirtualPhone) -> None:
    instruction = instruction_by_uid("settings-device-name")
    packages = {app.label: package for package, app in phone.apps.items()}
    messages: list[dict] = [{"role": "system", "content": agent_system_prompt(instruction.text)}]
    with ScriptedEndpoint(seed=3) as endpoint:
        client = openai.OpenAI(base_url=endpoint.base_url, api_key="not-used", timeout=30, max_retries=0)
        for _ in range(25):
            buffer = io.BytesIO()
            device.screenshot(error_ok=False).save(buffer, "PNG")
            url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
            messages.append({"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]})
            reply = client.chat.completions.create(model="scripted", messages=messages).choices[0].message.content
            messages.append({"role": "assistant", "content": reply})
            action = act.action_from_tool_call(parse_response(reply).tool_call)
            if isinstance(action, act.Terminate):
                break
            perform(device, action, packages)
    assert action == act.Terminate(status="success")
    assert device.shell(["settings", "get", "global", "device_name"]).strip() == "小王的手机"
    assert Image.open(io.BytesIO(device.shell(["screencap", "-p"], encoding=None))).size == (1080, 2400)


def test_a_screen_turned_off_gives_black_frames_and_no_hierarchy(device: AdbDevice) -> None:
    device.keyevent("KEYCODE_POWER")
    assert "mWakefulness=Asleep" in device.shell(["dumpsys", "power"])
    assert device.screenshot(error_ok=False).getextrema() == ((0, 0), (0, 0), (0, 0))
    with pytest.raises(AdbError, match="uiautomator dump failed"):
        device.dump_hierarchy()
    device.keyevent("KEYCODE_WAKEUP")
    assert device.dump_hierarchy().startswith("<?xml")
