"""The phone's own task hooks through the real adbutils client: the success check and the start state."""

from __future__ import annotations

import pytest

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.device.adb import adb_client
from annotator.device.android import AndroidDevice
from annotator.device.errors import DeviceGone
from annotator.device.success_check import reset_to_start, task_check


def test_the_check_follows_the_phones_state(device: AndroidDevice, phone: VirtualPhone) -> None:
    wifi_off = instruction_by_uid("settings-wifi-off").text
    assert task_check(device, wifi_off) is False
    device.shell(["settings", "put", "global", "wifi_on", "0"])
    assert task_check(device, wifi_off) is True
    assert task_check(device, " ".join(wifi_off)) is True  # spacing is not part of the task


def test_a_text_with_quotes_and_shell_characters_arrives_whole(device: AndroidDevice) -> None:
    name = instruction_by_uid("settings-device-name").text  # 把设备名称改成“小王的手机”
    assert task_check(device, name) is False
    device.shell(["settings", "put", "global", "device_name", "小王的手机"])
    assert task_check(device, name) is True
    assert task_check(device, 'it\'s $(reboot); `id` "x"') is None  # not in the set: unknown, and nothing ran


def test_an_instruction_the_phone_does_not_know_has_no_check(device: AndroidDevice) -> None:
    assert task_check(device, "把屏幕亮度调到最高") is None


def test_reset_puts_the_phone_back_in_the_start_state(device: AndroidDevice, phone: VirtualPhone) -> None:
    device.shell(["settings", "put", "global", "wifi_on", "0"])
    device.shell(["am", "start", "-n", "com.android.settings/.Settings"])
    assert reset_to_start(device) is True
    assert phone.settings["global"]["wifi_on"] == "1" and phone.foreground == phone.launcher_package


def test_a_phone_that_is_gone_raises_instead_of_answering(phone: VirtualPhone) -> None:
    server = VirtualAdbServer([phone]).start()
    device = AndroidDevice(adb_client(port=server.port, timeout_s=5), phone.serial)
    server.close()
    with pytest.raises(DeviceGone):
        task_check(device, instruction_by_uid("settings-wifi-off").text)
    with pytest.raises(DeviceGone):
        reset_to_start(device)
