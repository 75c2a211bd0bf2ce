"""The loopback adb server, driven by the real adbutils client and the real `adb` tool over real sockets."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import adbutils
import pytest
from adbutils import AdbClient, AdbDevice, AdbError
from PIL import Image

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone

LAUNCHER = "com.android.launcher3"
SETTINGS = "com.android.settings"


@pytest.fixture
def phones() -> list[VirtualPhone]:
    return [VirtualPhone(serial="virtual-1"), VirtualPhone(serial="virtual-2")]


@pytest.fixture
def server(phones: list[VirtualPhone]) -> Iterator[VirtualAdbServer]:
    with VirtualAdbServer(phones) as running:
        yield running


@pytest.fixture
def client(server: VirtualAdbServer) -> AdbClient:
    return AdbClient(host="127.0.0.1", port=server.port)


@pytest.fixture
def device(client: AdbClient) -> AdbDevice:
    return client.device("virtual-1")


def raw_request(port: int, *requests: bytes) -> bytes:
    """Send requests on one plain socket and return everything the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        for request in requests:
            sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        return b"".join(iter(lambda: sock.recv(65536), b""))


def framed(service: str) -> bytes:
    return f"{len(service.encode()):04x}{service}".encode()


# Devices and host services


def test_lists_each_phone_with_product_model_and_transport(client: AdbClient, server: VirtualAdbServer) -> None:
    assert client.server_version() == 41
    assert [d.serial for d in client.device_list()] == ["virtual-1", "virtual-2"]
    infos = client.list(extended=True)
    assert [(info.serial, info.state) for info in infos] == [("virtual-1", "device"), ("virtual-2", "device")]
    assert infos[0].tags == {
        "product": "virtual_phone",
        "model": "Virtual_Phone",
        "device": "virtual",
        "transport_id": "1",
    }
    assert infos[1].tags["transport_id"] == "2"
    assert server.serials == ["virtual-1", "virtual-2"]


def test_device_queries_answer_like_adb(client: AdbClient, device: AdbDevice) -> None:
    assert device.get_state() == "device"
    assert device.get_serialno() == "virtual-1"
    assert {"shell_v2", "stat_v2", "cmd"} <= set(device.get_features().split(","))
    client.wait_for("virtual-2", timeout=10)
    assert client.device(transport_id=2).shell("getprop ro.serialno") == "virtual-2"


def test_track_devices_reports_every_phone(client: AdbClient) -> None:
    events = client.track_devices()
    seen = {next(events).serial, next(events).serial}
    events.close()
    assert seen == {"virtual-1", "virtual-2"}


def test_unknown_serial_and_unknown_services_fail_with_a_message(client: AdbClient, server: VirtualAdbServer) -> None:
    with pytest.raises(AdbError, match="device 'nope' not found"):
        client.device("nope").shell("echo hi")
    with pytest.raises(AdbError, match="device 'nope' not found"):
        client.device("nope").get_state()
    with pytest.raises(AdbError, match="unsupported service 'framebuffer:'"):
        client.device("virtual-1").framebuffer()
    reply = raw_request(server.port, framed("host:no-such-thing"))
    assert reply.startswith(b"FAIL") and b"unknown host service 'host:no-such-thing'" in reply


def test_malformed_requests_get_fail_and_the_server_keeps_serving(client: AdbClient, server: VirtualAdbServer) -> None:
    reply = raw_request(server.port, b"zz!!host:version")
    assert reply.startswith(b"FAIL") and b"invalid length prefix" in reply
    assert raw_request(server.port, b"00") == b""  # a client that hangs up mid-prefix
    assert client.server_version() == 41
    assert client.device("virtual-1").shell("echo still here") == "still here"


# Shell


def test_shell_and_shell2_report_output_and_exit_codes(device: AdbDevice) -> None:
    assert device.shell("wm size") == "Physical size: 1080x2400"
    assert device.shell(["echo", "a;reboot", "$(id)"]) == "a;reboot $(id)"
    assert device.shell2("false").returncode == 1  # v1: adbutils appends `echo X4EXIT:$?`
    result = device.shell2("echo out; ls /missing", v2=True)
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "out\n",
        "ls: /missing: No such file or directory\n",
    )
    assert device.shell2("nosuch", v2=True).returncode == 127


def test_adbutils_screen_helpers_work_on_the_virtual_phone(device: AdbDevice) -> None:
    assert tuple(device.window_size()) == (1080, 2400)
    assert device.rotation() == 0
    assert device.screenshot(error_ok=False).size == (1080, 2400)
    hierarchy = device.dump_hierarchy()
    assert hierarchy.startswith("<?xml") and "<hierarchy" in hierarchy
    assert device.getprop("ro.product.model") == "Virtual Phone"


def test_apps_keys_and_touches_change_what_adbutils_sees(device: AdbDevice) -> None:
    assert device.app_current().package == LAUNCHER
    device.app_start(SETTINGS)
    current = device.app_current()
    assert (current.package, current.activity) == (SETTINGS, "com.android.settings.Settings")
    device.keyevent("HOME")
    assert device.app_current().package == LAUNCHER

    # Tap the settings icon on the home screen, found in the hierarchy as a person would find it.
    label = re.escape("设置")
    match = re.search(
        rf'(?:text|content-desc)="{label}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', device.dump_hierarchy()
    )
    assert match, "the home screen shows the Settings app"
    left, top, right, bottom = map(int, match.groups())
    device.click((left + right) // 2, (top + bottom) // 2)
    assert device.app_current().package == SETTINGS
    device.swipe(540, 1800, 540, 600, 0.3)  # a scroll; the app stays in front
    device.keyevent(4)
    assert device.app_current().package == LAUNCHER


def test_send_keys_types_into_the_focused_field(device: AdbDevice, phones: list[VirtualPhone]) -> None:
    phone = phones[0]
    x, y = text_field_centre(phone)
    device.click(x, y)
    assert "mInputShown=true" in device.shell("dumpsys input_method")
    device.send_keys("hello world;ls")
    assert 'text="hello world;ls"' in device.dump_hierarchy()


def text_field_centre(phone: VirtualPhone) -> tuple[int, int]:
    """Show a page with an empty text field (set up through the phone) and return where to tap it."""
    for package, app in phone.apps.items():
        for page in app.activities:
            phone.reset()
            phone.start_app(package)
            if page != app.home_page:
                app.push(page)
            pattern = r'text=""[^>]*class="android.widget.EditText"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"'
            match = re.search(pattern, phone.hierarchy_xml())
            if match:
                left, top, right, bottom = map(int, match.groups())
                return (left + right) // 2, (top + bottom) // 2
    pytest.fail("no app page of the virtual phone has an empty text field")


def test_two_phones_keep_separate_state(client: AdbClient, phones: list[VirtualPhone]) -> None:
    first, second = client.device("virtual-1"), client.device("virtual-2")
    first.app_start(SETTINGS)
    first.sync.push(b"only on the first", "/sdcard/mine.txt")
    assert first.app_current().package == SETTINGS
    assert second.app_current().package == LAUNCHER
    assert first.sync.exists("/sdcard/mine.txt")
    assert not second.sync.exists("/sdcard/mine.txt")
    assert "/sdcard/mine.txt" not in phones[1].files


def test_concurrent_clients_each_get_their_own_answers(client: AdbClient) -> None:
    answers: dict[tuple[str, int], str] = {}

    def work(serial: str, index: int) -> None:
        answers[(serial, index)] = client.device(serial).shell(f"getprop ro.serialno; echo {index}")

    threads = [
        threading.Thread(target=work, args=(serial, i)) for serial in ("virtual-1", "virtual-2") for i in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == {(serial, i): f"{serial}\n{i}" for serial in ("virtual-1", "virtual-2") for i in range(8)}


def test_abb_exec_runs_a_binder_service_with_exact_arguments(server: VirtualAdbServer) -> None:
    request = "abb_exec:" + "\0".join(["settings", "put", "global", "device_name", "a b;c"])
    assert raw_request(server.port, framed("host:transport:virtual-1"), framed(request)) == b"OKAYOKAY"
    reply = raw_request(server.port, framed("host:transport:virtual-1"), framed("exec:settings get global device_name"))
    assert reply == b"OKAYOKAYa b;c\n"


# Sync


def test_sync_push_stat_pull_list_and_read(device: AdbDevice, tmp_path: Path) -> None:
    payload = bytes(range(256)) * 800  # 200 KiB: several DATA chunks each way
    assert device.sync.push(payload, "/sdcard/Download/blob.bin") == len(payload)
    info = device.sync.stat("/sdcard/Download/blob.bin")
    assert info.size == len(payload) and info.mode & 0o100000 and info.mtime is not None
    assert device.sync.read_bytes("/sdcard/Download/blob.bin") == payload
    assert device.sync.pull("/sdcard/Download/blob.bin", tmp_path / "blob.bin") == len(payload)
    assert (tmp_path / "blob.bin").read_bytes() == payload
    names = {entry.path for entry in device.sync.list("/sdcard/Download")}
    assert "blob.bin" in names
    assert device.sync.stat("/sdcard").mode & 0o040000
    assert not device.sync.exists("/sdcard/nothing-here")
    with pytest.raises(AdbError, match="No such file or directory"):
        device.sync.read_bytes("/sdcard/nothing-here")


def test_sync_rejects_an_unknown_command(server: VirtualAdbServer) -> None:
    transport = framed("host:transport:virtual-1") + framed("sync:")
    reply = raw_request(server.port, transport, b"WHAT" + struct.pack("<I", 1) + b"/")
    assert reply.startswith(b"OKAYOKAYFAIL")
    assert b"unknown sync command b'WHAT'" in reply


# Lifecycle


def test_close_releases_the_port_and_ends_open_connections(phones: list[VirtualPhone]) -> None:
    server = VirtualAdbServer(phones).start()
    track = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    track.sendall(framed("host:track-devices"))
    assert track.recv(4) == b"OKAY"
    server.close()
    server.close()  # twice is harmless
    assert b"".join(iter(lambda: track.recv(65536), b"")).count(b"device") == 2  # the list, then the end
    track.close()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", server.port), timeout=10)


def test_duplicate_serials_are_refused() -> None:
    with pytest.raises(ValueError, match="its own serial"):
        VirtualAdbServer([VirtualPhone(serial="same"), VirtualPhone(serial="same")])


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no SIGINT to send to a child process")
def test_serve_forever_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    script = (
        "import signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)  # as the CLI does: even if started ignoring it\n"
        "from annotator.demo.phone.adb_server import VirtualAdbServer\n"
        "from annotator.demo.phone.phone import VirtualPhone\n"
        "server = VirtualAdbServer([VirtualPhone()])\n"
        "print(server.port, flush=True)\n"
        "server.serve_forever()\n"
        "print('stopped', flush=True)\n"
    )
    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen([sys.executable, "-c", script], cwd=root, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    port = int(process.stdout.readline())
    assert AdbClient(host="127.0.0.1", port=port).device("virtual-1").shell("echo up") == "up"
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=30) == 0
    assert process.stdout.read() == "stopped\n"


# The real adb tool


def adb_tool(server: VirtualAdbServer, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(server.port))
    return subprocess.run(
        [adbutils.adb_path(), *args], env=env, capture_output=True, timeout=60, stdin=subprocess.DEVNULL
    )


@pytest.fixture
def adb_runs() -> None:
    try:
        subprocess.run([adbutils.adb_path(), "version"], capture_output=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError) as error:
        pytest.skip(f"the adb binary shipped with adbutils cannot run on this machine: {error}")


@pytest.mark.usefixtures("adb_runs")
def test_adb_tool_lists_and_shells_into_the_phones(server: VirtualAdbServer) -> None:
    devices = adb_tool(server, "devices", "-l")
    assert devices.returncode == 0, devices.stderr
    lines = devices.stdout.decode().splitlines()
    assert lines[0] == "List of devices attached"
    assert re.match(
        r"virtual-1\s+device product:virtual_phone model:Virtual_Phone device:virtual transport_id:1", lines[1]
    )

    size = adb_tool(server, "-s", "virtual-2", "shell", "wm", "size")
    assert (size.returncode, size.stdout) == (0, b"Physical size: 1080x2400\n")
    failing = adb_tool(server, "-s", "virtual-1", "shell", "ls /missing")
    assert failing.returncode == 1
    assert failing.stderr == b"ls: /missing: No such file or directory\n"


@pytest.mark.usefixtures("adb_runs")
def test_adb_tool_exec_out_screencap_push_and_pull(server: VirtualAdbServer, tmp_path: Path) -> None:
    shot = adb_tool(server, "-s", "virtual-1", "exec-out", "screencap", "-p")
    assert shot.returncode == 0, shot.stderr
    (tmp_path / "screen.png").write_bytes(shot.stdout)
    assert Image.open(tmp_path / "screen.png").size == (1080, 2400)

    (tmp_path / "note.txt").write_text("备注 note")
    pushed = adb_tool(server, "-s", "virtual-1", "push", str(tmp_path / "note.txt"), "/sdcard/Download/")
    assert pushed.returncode == 0, pushed.stderr
    assert adb_tool(server, "-s", "virtual-1", "shell", "cat /sdcard/Download/note.txt").stdout == "备注 note".encode()
    pulled = adb_tool(server, "-s", "virtual-1", "pull", "/sdcard/Download/note.txt", str(tmp_path / "back.txt"))
    assert pulled.returncode == 0, pulled.stderr
    assert (tmp_path / "back.txt").read_text() == "备注 note"
    assert Image.open(io.BytesIO(adb_tool(server, "-s", "virtual-2", "exec-out", "screencap -p").stdout)).width == 1080
