"""Finding phones, connecting over the network, and what a user sees when a phone or the adb server goes away."""

from __future__ import annotations

import socket
import threading

import pytest

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone
from annotator.device.adb import DeviceInfo, adb_client, connect_network, list_devices
from annotator.device.android import AndroidDevice
from annotator.device.errors import CommandTimedOut, DeviceError, DeviceGone
from annotator.domain.actions import Click


def test_two_phones_are_listed_with_what_the_device_picker_shows() -> None:
    small = VirtualPhone(serial="virtual-b", width=720, height=1600, density=320)
    small.rotation = 1
    with VirtualAdbServer([VirtualPhone(serial="virtual-a"), small]) as server:
        devices = list_devices(adb_client(port=server.port))
    assert devices == [
        DeviceInfo("virtual-a", "device", "Virtual Phone", "14", 1080, 2400, 440, 0),
        DeviceInfo("virtual-b", "device", "Virtual Phone", "14", 720, 1600, 320, 1),
    ]
    assert not devices[0].network


def test_the_default_port_comes_from_the_environment(
    server: VirtualAdbServer, phone: VirtualPhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(server.port))
    assert [info.serial for info in list_devices(adb_client())] == [phone.serial]
    assert AndroidDevice(adb_client(), phone.serial).info().model == "Virtual Phone"


class ListingServer:
    """An adb server that only lists phones that cannot be used yet (the virtual server's are always ready)."""

    LISTING = "emulator-5554\toffline\nR58M40ABCDE\tunauthorized usb:1-1 transport_id:3\n"

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                connection, _ = self.sock.accept()
            except OSError:
                return
            with connection:
                request = connection.recv(4 + int(connection.recv(4), 16)).decode()
                if request == "host:devices-l":
                    connection.sendall(f"OKAY{len(self.LISTING):04x}{self.LISTING}".encode())
                else:
                    connection.sendall(b"FAIL000bunsupported")


def test_offline_and_unauthorized_phones_are_listed_without_details() -> None:
    listing = ListingServer()
    try:
        devices = list_devices(adb_client(port=listing.port))
    finally:
        listing.sock.close()
    assert devices == [DeviceInfo("emulator-5554", "offline"), DeviceInfo("R58M40ABCDE", "unauthorized")]


def test_a_failed_network_connection_says_what_to_check_on_the_phone(server: VirtualAdbServer) -> None:
    client = adb_client(port=server.port)
    with pytest.raises(DeviceError, match=r"could not connect to 192\.168\.1\.23:5555: failed .*Wireless debugging"):
        connect_network(client, "192.168.1.23")
    with pytest.raises(DeviceError, match="not a network address"):
        connect_network(client, "my phone:5555")


def test_stopping_the_adb_server_mid_use_is_device_gone(server: VirtualAdbServer, device: AndroidDevice) -> None:
    device.perform(Click(coordinate=(540, 1200)))
    server.close()
    with pytest.raises(DeviceGone, match=r"phone virtual-1 cannot be reached: .* refused the connection") as gone:
        device.perform(Click(coordinate=(540, 1200)))
    assert gone.value.serial == "virtual-1"
    with pytest.raises(DeviceGone):
        device.observe()
    with pytest.raises(DeviceGone, match="adb start-server"):
        list_devices(device.client)


def test_an_unplugged_phone_is_device_gone(server: VirtualAdbServer) -> None:
    unplugged = AndroidDevice(adb_client(port=server.port), "R58M40ABCDE")
    with pytest.raises(DeviceGone, match=r"phone R58M40ABCDE is no longer reachable .*not found"):
        unplugged.observe()
    with pytest.raises(DeviceGone, match="R58M40ABCDE is not connected"):
        unplugged.info()


def test_a_server_that_never_answers_times_out_instead_of_hanging() -> None:
    silent = socket.create_server(("127.0.0.1", 0))  # accepts connections (in the backlog), never replies
    try:
        client = adb_client(port=silent.getsockname()[1], timeout_s=0.3)
        with pytest.raises(CommandTimedOut, match="did not answer in time"):
            list_devices(client)
        with pytest.raises(CommandTimedOut):
            AndroidDevice(client, "virtual-d", command_timeout_s=0.3).perform(Click(coordinate=(1, 1)))
    finally:
        silent.close()


def test_a_session_keeps_the_screen_on_and_the_rotation_locked_then_restores_both(
    device: AndroidDevice, phone: VirtualPhone
) -> None:
    device.shell(["svc", "power", "stayon", "usb"])
    phone.rotation = 1
    setting = lambda namespace, key: device.shell(["settings", "get", namespace, key]).text.strip()  # noqa: E731
    with device.session():
        assert "mStayOnWhilePluggedInSetting=7" in device.shell(["dumpsys", "power"]).text
        assert setting("system", "accelerometer_rotation") == "0"
        assert setting("system", "user_rotation") == "1"
    assert "mStayOnWhilePluggedInSetting=2" in device.shell(["dumpsys", "power"]).text
    assert setting("system", "accelerometer_rotation") == "1"
    assert setting("system", "user_rotation") == "0"


def test_a_session_that_fails_still_restores_the_settings(device: AndroidDevice, phone: VirtualPhone) -> None:
    with pytest.raises(RuntimeError, match="collection broke"), device.session():
        assert phone.stay_on == "true"
        raise RuntimeError("collection broke")
    assert phone.stay_on == "false"
    assert phone.settings["system"]["accelerometer_rotation"] == "1"


def test_a_session_wakes_a_sleeping_screen(device: AndroidDevice, phone: VirtualPhone) -> None:
    device.shell(["input", "keyevent", "KEYCODE_SLEEP"])
    with device.session():
        assert not device.observe(settle_timeout_s=0).black
