"""The adb client, the one place shell commands run, and the list of phones with what the app shows of each.

adbutils is used as is, with three changes made in a client subclass, because the defaults hurt a desktop
app: a connection that finds no server does not run `adb start-server` (adbutils does, silently, waiting up
to 20 s); adbutils' implicit 10-minute socket timeout becomes the client's ``timeout_s``; and the server
version, which adbutils asks before every transport switch, is asked once per client.

Every command goes through :func:`run_shell`: argument lists only (adbutils quotes each one with
``shlex.quote``, so no text is ever pasted into a shell line), the shell v2 protocol (separate stdout and
stderr, a real exit code, and a cut connection is an error rather than a short output), an explicit
timeout, and errors translated by :func:`annotator.device.errors.translate`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

import adbutils
from adbutils import AdbDevice, AdbError, AdbTimeout

from annotator.device.errors import DeviceError, translate

DEFAULT_ADB_PORT = 5037
ADB_NETWORK_PORT = 5555  # what `adb tcpip` listens on unless told otherwise
ADBUTILS_IMPLICIT_TIMEOUT_S = 600  # adbutils' default for every connection it opens
ADB_ERRORS = (AdbError, OSError, EOFError)  # OSError covers socket errors and timeouts


class _Connection(adbutils.AdbConnection):
    def _safe_connect(self):
        """Connect once; when nothing listens, fail at once instead of starting an adb server behind the user's back."""
        return self._create_socket()


class _Client(adbutils.AdbClient):
    """adbutils' client with an explicit timeout and no hidden server start (see the module docstring)."""

    def __init__(self, host: str, port: int, timeout_s: float) -> None:
        super().__init__(host=host, port=port, socket_timeout=timeout_s)
        self.timeout_s = timeout_s
        self._version: int | None = None

    def make_connection(self, timeout: float | None = None) -> adbutils.AdbConnection:
        if timeout is None or timeout >= ADBUTILS_IMPLICIT_TIMEOUT_S:
            timeout = self.timeout_s
        try:
            connection = _Connection(self.host, self.port)
        except TimeoutError:
            raise AdbTimeout("connect to adb server timeout") from None
        connection.conn.settimeout(timeout)
        return connection

    def server_version(self) -> int:
        if self._version is None:
            self._version = super().server_version()
        return self._version


def adb_client(host: str = "127.0.0.1", port: int | None = None, timeout_s: float = 10.0) -> adbutils.AdbClient:
    """A client of the adb server at host:port (port None: $ANDROID_ADB_SERVER_PORT, else 5037).

    Nothing is contacted yet; the first call that needs the server raises DeviceGone when it is not running.
    """
    if port is None:
        port = int(os.environ.get("ANDROID_ADB_SERVER_PORT") or DEFAULT_ADB_PORT)
    return _Client(host, port, timeout_s)


def server_address(client: adbutils.AdbClient) -> str:
    return f"{client.host}:{client.port}"


@dataclass(frozen=True)
class ShellOutput:
    """What one command printed and its exit status (stdout alone when the phone has no shell v2: old Android)."""

    argv: tuple[str, ...]
    exit_code: int
    stdout: bytes
    stderr: bytes

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")

    @property
    def output(self) -> str:
        """stdout then stderr, stripped: what a message about a failure should show."""
        both = self.stdout + (b"\n" if self.stdout and self.stderr else b"") + self.stderr
        return both.decode("utf-8", errors="replace").strip()


def run_shell(device: AdbDevice, argv: Sequence[str] | str, *, timeout_s: float) -> ShellOutput:
    """Run one command on the phone with exact arguments; DeviceGone / CommandTimedOut / DeviceError on failure.

    ``argv`` is an argument list; a string is sent as a shell line, which is only for constant lines written
    in this package (never with text from a user or a model in it). A non-zero exit status is not an error
    here: callers decide what a failure of their command means.
    """
    words: list[str] | str = argv if isinstance(argv, str) else [str(word) for word in argv]
    try:
        raw = device.shell2(words, timeout=timeout_s, encoding=None, v2=True)
    except ADB_ERRORS as error:
        raise translate(error, serial=device.serial, command=words, server=server_address(device._client)) from error
    # Without shell v2 adbutils fills only `output` (stdout and stderr mixed).
    stdout = raw.output if not raw.stdout and not raw.stderr else raw.stdout
    return ShellOutput(tuple(words) if isinstance(words, list) else (words,), raw.returncode, stdout, raw.stderr)


# What the app shows about a phone


@dataclass(frozen=True)
class DeviceInfo:
    """A phone as adb lists it. Details are None unless the state is "device" and they could be read;
    ``error`` then says why not. width and height are the natural (portrait) size that `wm size` reports,
    the override size when one is set; ``rotation`` is 0-3 quarter turns."""

    serial: str
    state: str
    model: str | None = None
    android_version: str | None = None
    width: int | None = None
    height: int | None = None
    density: int | None = None
    rotation: int | None = None
    error: str | None = None

    @property
    def network(self) -> bool:
        """Connected over Wi-Fi (`adb connect host:port` or wireless debugging) rather than USB."""
        return bool(re.fullmatch(r".+:\d+", self.serial)) or "._adb-tls-connect." in self.serial


def list_devices(client: adbutils.AdbClient) -> list[DeviceInfo]:
    """Every phone the adb server knows (USB and network), with details read from each usable one."""
    try:
        entries = client.list(extended=True)
    except ADB_ERRORS as error:
        raise translate(error, serial=None, command="adb devices -l", server=server_address(client)) from error
    devices = []
    for entry in entries:
        model = entry.tags.get("model", "").replace("_", " ") or None
        if entry.state != "device":
            devices.append(DeviceInfo(entry.serial, entry.state, model=model))
            continue
        try:
            devices.append(read_device_info(client, entry.serial))
        except DeviceError as error:  # one phone failing must not hide the others; the error is shown with it
            devices.append(DeviceInfo(entry.serial, entry.state, model=model, error=str(error)))
    return devices


def read_device_info(client: adbutils.AdbClient, serial: str, timeout_s: float | None = None) -> DeviceInfo:
    """The details of one usable phone: model, Android version, screen size, density and rotation."""
    device = client.device(serial)
    timeout: float = timeout_s or float(getattr(client, "timeout_s", 10.0))
    props = parse_getprop(run_shell(device, ["getprop"], timeout_s=timeout).text)
    width, height = parse_wm_size(run_shell(device, ["wm", "size"], timeout_s=timeout).text)
    density = parse_wm_density(run_shell(device, ["wm", "density"], timeout_s=timeout).text)
    rotation = parse_rotation(run_shell(device, ["dumpsys", "display"], timeout_s=timeout).text)
    return DeviceInfo(
        serial=serial,
        state="device",
        model=props.get("ro.product.model") or None,
        android_version=props.get("ro.build.version.release") or None,
        width=width,
        height=height,
        density=density,
        rotation=rotation,
    )


def parse_getprop(text: str) -> dict[str, str]:
    """`getprop` output (`[key]: [value]` lines) as a dict; multi-line values keep their first line."""
    return dict(re.findall(r"^\[([^\]]+)\]: \[([^\]\n]*)", text, flags=re.MULTILINE))


def parse_wm_size(text: str) -> tuple[int | None, int | None]:
    """`wm size`: the override size when one is set (input and screenshots use it), else the physical size."""
    found = dict(re.findall(r"(Physical|Override) size: (\d+x\d+)", text))
    size = found.get("Override") or found.get("Physical")
    if size is None:
        return None, None
    width, height = size.split("x")
    return int(width), int(height)


def parse_wm_density(text: str) -> int | None:
    found = dict(re.findall(r"(Physical|Override) density: (\d+)", text))
    value = found.get("Override") or found.get("Physical")
    return int(value) if value else None


def parse_rotation(dumpsys_display: str) -> int | None:
    """The current rotation from `dumpsys display`: the internal viewport's orientation (Android 7+),
    else the logical display's rotation; None when neither is printed."""
    patterns = (
        r"DisplayViewport\{[^}]*type=INTERNAL[^}]*?orientation=(\d)",
        r"DisplayViewport\{[^}]*?orientation=(\d)",
        r"mOverrideDisplayInfo=DisplayInfo\{[^}]*?rotation (\d)",
        r"mBaseDisplayInfo=DisplayInfo\{[^}]*?rotation (\d)",
    )
    for pattern in patterns:
        match = re.search(pattern, dumpsys_display)
        if match:
            return int(match.group(1))
    return None


def connect_network(client: adbutils.AdbClient, address: str) -> str:
    """`adb connect host[:port]` (port 5555 when left out); returns the serial the phone will have.

    Raises DeviceError with adb's reply and what to check on the phone when the connection fails.
    """
    address = address.strip()
    host, _, port = address.rpartition(":") if re.search(r":\d+$", address) else (address, "", "")
    if not host or any(char.isspace() for char in host):
        raise DeviceError(f"{address!r} is not a network address; expected host:port, e.g. 192.168.1.23:5555")
    serial = f"{host}:{port or ADB_NETWORK_PORT}"
    try:
        reply = client.connect(serial, timeout=getattr(client, "timeout_s", 10.0)) or ""
    except ADB_ERRORS as error:
        raise translate(error, serial=None, command=f"adb connect {serial}", server=server_address(client)) from error
    if reply.startswith(("connected to", "already connected to")):
        return serial
    raise DeviceError(
        f"could not connect to {serial}: {reply.strip() or 'adb gave no reason'}. On the phone turn on Wireless "
        "debugging (Android 11+: pair first with `adb pair HOST:PORT` and the pairing code), or run "
        "`adb tcpip 5555` while it is on USB; the phone and this computer must share the network."
    )


def devices_option(text: str) -> tuple[str, ...]:
    """A `--devices` value: `all` (every usable phone: the empty tuple) or serials separated by commas."""
    if text.strip().lower() == "all":
        return ()
    serials = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not serials:
        raise ValueError(f"--devices {text!r}: expected `all` or serials separated by commas, e.g. emulator-5554,R5CT")
    return serials


def usable_serials(client: adbutils.AdbClient, wanted: Sequence[str] = ()) -> list[str]:
    """The phones named (each must be connected and usable), or every usable one when none is named.

    DeviceError saying what is connected when one named is not there, or when no phone is usable."""
    try:
        listed = list_devices(client)
    except DeviceError as error:
        raise DeviceError(f"cannot reach the adb server: {error}") from error
    usable = [info.serial for info in listed if info.state == "device" and info.error is None]
    shown = ", ".join(_shown(info) for info in listed) or "none (connect one, or start `annotator virtual-phone serve`)"
    missing = [serial for serial in dict.fromkeys(wanted) if serial not in usable]
    if missing:
        raise DeviceError(f"not connected or not usable: {', '.join(missing)}; connected: {shown}")
    if not usable:
        raise DeviceError(f"no usable phone; connected: {shown}")
    return list(dict.fromkeys(wanted)) or usable


def _shown(info: DeviceInfo) -> str:
    state = "" if info.state == "device" else f" ({info.state})"
    error = f" ({info.error})" if info.error else ""
    return f"{info.serial}{state}{error}"
