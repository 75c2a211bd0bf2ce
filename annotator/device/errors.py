"""What can go wrong with a phone, in three kinds a caller treats differently, and the translation from
adbutils' and the socket layer's errors into them.

- :class:`DeviceGone`: the phone or the adb server is not there any more (unplugged, adb restarted,
  Wi-Fi dropped, device offline or unauthorized). A collection run stops and waits for the phone.
- :class:`ActionFailed`: the phone is there but could not do what was asked (a missing keyboard, an
  unknown app). The step failed; the phone is still usable.
- :class:`DeviceError`: anything else, including a command that timed out (:class:`CommandTimedOut`).

Every message is written for the person at the desk: what happened, on which phone, and what to do.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence

from adbutils import AdbError, AdbTimeout

# adbutils' AdbError texts (and the adb server's FAIL replies) that mean the phone or the server is gone.
_GONE_MARKERS = (
    "not found",  # device 'X' not found
    "offline",
    "unauthorized",
    "authorizing",
    "no devices",
    "connection closed",
    "connection is closed",
    "connect to adb server failed",
    "unknown data: b''",  # adbutils' check_okay on a connection that closed before answering
)


class DeviceError(Exception):
    """Base of the device layer's errors; ``str()`` is a message a user can act on."""

    def __init__(self, message: str, *, serial: str | None = None, command: str | None = None) -> None:
        super().__init__(message)  # only the message in args, so that the error pickles across processes
        self.serial = serial
        self.command = command


class DeviceGone(DeviceError):
    """The phone or the adb server went away; nothing more can be done with this phone until it is back."""


class ActionFailed(DeviceError):
    """The phone is there but the action could not be done; the message says why and how to fix it."""


class CommandTimedOut(DeviceError):
    """An adb command did not finish within its timeout (a hung phone, or a very slow dump)."""


def show_command(argv: Sequence[str] | str) -> str:
    """A command as a person would type it after `adb shell`, cut for messages."""
    text = argv if isinstance(argv, str) else " ".join(argv)
    return text if len(text) <= 160 else text[:159] + "…"


def translate(error: BaseException, *, serial: str | None, command: Sequence[str] | str, server: str) -> DeviceError:
    """The device-layer error for an exception raised while running ``command`` on ``serial`` via ``server``.

    Callers raise the result ``from error`` so that the original traceback stays attached.
    """
    shown = show_command(command)
    phone = f"phone {serial}" if serial else "the adb server"
    if isinstance(error, DeviceError):
        return error
    if isinstance(error, (AdbTimeout, socket.timeout, TimeoutError)):
        return CommandTimedOut(
            f"`{shown}` on {phone} did not answer in time; the phone may be busy or hung. Unlock it, or reconnect it.",
            serial=serial,
            command=shown,
        )
    if isinstance(error, ConnectionRefusedError) or "connection refused" in str(error).lower():
        who = f"phone {serial} cannot be reached: " if serial else ""
        return DeviceGone(
            f"{who}the adb server at {server} refused the connection while running `{shown}`. "
            "Start it with `adb start-server` (or start the app's virtual phone), and check ANDROID_ADB_SERVER_PORT.",
            serial=serial,
            command=shown,
        )
    if isinstance(error, (ConnectionError, EOFError)):
        return _gone(serial, shown, server, f"the connection broke ({type(error).__name__}: {error})")
    if isinstance(error, AdbError):
        text = str(error)
        if any(marker in text.lower() for marker in _GONE_MARKERS):
            return _gone(serial, shown, server, text.strip() or "adb gave no reason")
        return DeviceError(f"`{shown}` failed on {phone}: {text}", serial=serial, command=shown)
    if isinstance(error, OSError):
        return DeviceError(f"`{shown}` failed on {phone}: {error}", serial=serial, command=shown)
    raise TypeError(f"not an adb error: {error!r}") from error


def _gone(serial: str | None, shown: str, server: str, reason: str) -> DeviceGone:
    what = f"phone {serial}" if serial else f"the adb server at {server}"
    hint = "Check the USB cable or Wi-Fi, unlock the phone and allow USB debugging, then run `adb devices`."
    if "unauthorized" in reason.lower():
        hint = "Unlock the phone and accept the 'Allow USB debugging?' prompt, then try again."
    message = f"{what} is no longer reachable ({reason}) while running `{shown}`. {hint}"
    return DeviceGone(message, serial=serial, command=shown)
