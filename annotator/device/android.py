"""One Android phone (USB, `adb connect`, emulator, or the virtual phone: the same code for all of them).

:class:`AndroidDevice` observes the phone (:mod:`annotator.device.observe`), performs ``mobile_use``
actions (:mod:`annotator.device.act`), types text (:mod:`annotator.device.text_input`) and holds the phone
steady for a collection session. Every command has a timeout, and every failure is a
:class:`~annotator.device.errors.DeviceError` (DeviceGone, ActionFailed, CommandTimedOut).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

import adbutils

from annotator.device import act as commands
from annotator.device.adb import (
    ADB_ERRORS,
    DeviceInfo,
    ShellOutput,
    parse_rotation,
    read_device_info,
    run_shell,
    server_address,
)
from annotator.device.errors import DeviceError, DeviceGone, translate
from annotator.device.observe import DeviceObservation, observe
from annotator.device.text_input import type_text
from annotator.domain import actions as act

# `svc power stayon` flags by the bit mask that `stay_on_while_plugged_in` stores.
STAY_ON_FLAGS = {0: "false", 1: "ac", 2: "usb", 4: "wireless", 7: "true"}


class AndroidDevice:
    """A phone behind an adb server. Nothing is sent until a method needs the phone.

    ``packages`` maps app names to packages for `open` actions (the caller edits it, e.g. from the app
    list in the database); ``swipe_ms`` is how long a swipe takes.
    """

    def __init__(
        self,
        client: adbutils.AdbClient,
        serial: str,
        *,
        command_timeout_s: float = 15.0,
        swipe_ms: int = commands.DEFAULT_SWIPE_MS,
        packages: Mapping[str, str] | None = None,
    ) -> None:
        self.client = client
        self.serial = serial
        self.command_timeout_s = command_timeout_s
        self.swipe_ms = swipe_ms
        self.packages: dict[str, str] = dict(packages or {})
        self._adb = client.device(serial)

    def __repr__(self) -> str:
        return f"AndroidDevice({self.serial!r} via {server_address(self.client)})"

    def shell(self, argv: Sequence[str] | str) -> ShellOutput:
        """Run one command (an argument list; a string only for constant command lines written in this package)."""
        return run_shell(self._adb, argv, timeout_s=self.command_timeout_s)

    # What the phone is and shows

    def info(self) -> DeviceInfo:
        """This phone's entry in `adb devices`, with details when it is usable; DeviceGone when it is not listed."""
        try:
            entries = self.client.list(extended=True)
        except ADB_ERRORS as error:
            raise translate(
                error, serial=self.serial, command="adb devices -l", server=server_address(self.client)
            ) from error
        entry = next((entry for entry in entries if entry.serial == self.serial), None)
        if entry is None:
            raise DeviceGone(
                f"phone {self.serial} is not connected to the adb server at {server_address(self.client)}; "
                "plug it in (or `adb connect` it) and check `adb devices`",
                serial=self.serial,
            )
        if entry.state != "device":
            return DeviceInfo(self.serial, entry.state)
        return read_device_info(self.client, self.serial, self.command_timeout_s)

    def observe(
        self,
        *,
        settle_timeout_s: float = 3.0,
        hierarchy_retries: int = 2,
        on_screenshot: Callable[[bytes], object] | None = None,
    ) -> DeviceObservation:
        """A settled screenshot with its hierarchy, foreground app and rotation (see :mod:`observe`)."""
        return observe(
            self.shell,
            settle_timeout_s=settle_timeout_s,
            hierarchy_retries=hierarchy_retries,
            on_screenshot=on_screenshot,
        )

    # Acting

    def perform(self, action: act.Action, *, packages: Mapping[str, str] | None = None) -> None:
        """Do one ``mobile_use`` action. Coordinates are device pixels; `open` looks the name up in
        ``packages`` (else this device's ``packages``); `terminate` does nothing (the caller ends the run)."""
        argv = commands.action_command(action, swipe_ms=self.swipe_ms)
        if argv is not None:
            commands.check_refusal(self.shell(argv))
        elif isinstance(action, act.Open):
            names = self.packages if packages is None else packages
            self.start_app(commands.resolve_package(action.text, names, self.is_installed))
        elif isinstance(action, act.Type):
            self.type_text(action.text)
        elif isinstance(action, act.Wait):
            time.sleep(max(0.0, action.time))
        elif not isinstance(action, act.Terminate):
            raise TypeError(f"not a mobile_use action: {action!r}")

    def type_text(self, text: str) -> str:
        """Type exactly ``text`` into the focused field; returns the field's text read back from the phone."""
        return type_text(self.shell, text, serial=self.serial)

    def start_app(self, package: str) -> None:
        """Launch an app as its launcher icon would; ActionFailed when it has no launcher activity."""
        commands.check_refusal(self.shell(commands.launch_command(package)))

    def stop_app(self, package: str) -> None:
        commands.check_refusal(self.shell(["am", "force-stop", package]))

    def is_installed(self, package: str) -> bool:
        return self.shell(["pm", "path", package]).exit_code == 0

    # A collection session

    @contextmanager
    def session(self) -> Iterator[AndroidDevice]:
        """Keep the screen on and the rotation locked where it is while collecting; the phone's previous
        settings come back afterwards, also when the session ends with an error."""
        saved = {
            ("global", "stay_on_while_plugged_in"): self._setting("global", "stay_on_while_plugged_in"),
            ("system", "accelerometer_rotation"): self._setting("system", "accelerometer_rotation"),
            ("system", "user_rotation"): self._setting("system", "user_rotation"),
        }
        try:
            rotation = parse_rotation(self._checked(["dumpsys", "display"]).text) or 0
            self._checked(["svc", "power", "stayon", "true"])
            self._checked(["settings", "put", "system", "accelerometer_rotation", "0"])
            self._checked(["settings", "put", "system", "user_rotation", str(rotation)])
            self._checked(["input", "keyevent", "KEYCODE_WAKEUP"])
            yield self
        except BaseException as error:
            try:
                self._restore(saved)
            except DeviceError as restore_error:
                error.add_note(f"restoring phone {self.serial}'s settings failed too: {restore_error}")
            raise
        else:
            self._restore(saved)

    def _setting(self, namespace: str, key: str) -> str | None:
        value = self._checked(["settings", "get", namespace, key]).text.strip()
        return None if value in ("", "null") else value

    def _restore(self, saved: Mapping[tuple[str, str], str | None]) -> None:
        for (namespace, key), value in saved.items():
            stay_on = key == "stay_on_while_plugged_in" and (value is None or value.isdigit())
            flag = STAY_ON_FLAGS.get(int(value or 0)) if stay_on else None
            if flag is not None:  # through svc, so that the power manager applies it at once
                self._checked(["svc", "power", "stayon", flag])
            elif value is None:
                self._checked(["settings", "delete", namespace, key])
            else:
                self._checked(["settings", "put", namespace, key, value])

    def _checked(self, argv: Sequence[str]) -> ShellOutput:
        """A setup command that must work; DeviceError with its output when it does not."""
        result = self.shell(argv)
        if result.exit_code != 0:
            shown = " ".join(argv)
            raise DeviceError(
                f"`{shown}` failed on phone {self.serial} (exit status {result.exit_code}): {result.output}",
                serial=self.serial,
                command=shown,
            )
        return result
