"""Typing text into the focused field, exactly, and checking that it arrived.

Two ways in, as on any Android phone:

- `input text` for plain ASCII (letters, digits, spaces and harmless punctuation): spaces go as `%s`,
  which is why text that contains `%` never takes this way.
- ADBKeyBoard for everything else (Chinese, any Unicode, quotes, `;`, `$(...)`, newlines): switch the
  phone's keyboard to it, send the text base64-encoded in a broadcast, switch back. Base64 means the text
  is never a shell word at all; every command is an argument list that adbutils quotes.

Afterwards the focused field is read from the UI hierarchy; text that did not arrive is an ActionFailed
that shows both texts, so a trajectory never records typing that did not happen.
"""

from __future__ import annotations

import base64
import re
import string
import time
from collections.abc import Iterator
from contextlib import contextmanager

from annotator.device.act import check_refusal
from annotator.device.errors import ActionFailed, DeviceError
from annotator.device.hierarchy import focused_field, parse_hierarchy
from annotator.device.observe import Shell, dump_hierarchy

ADB_IME = "com.android.adbkeyboard/.AdbIME"
ADB_IME_RELEASES = "https://github.com/senzhk/ADBKeyBoard/releases"
# Characters `input text` types the same on every Android version, whatever the shell and quoting.
INPUT_TEXT_SAFE = frozenset(string.ascii_letters + string.digits + " .,-_@:/+=!?")
IME_READY_TIMEOUT_S = 2.0
CONFIRM_TIMEOUT_S = 2.0
POLL_S = 0.1
_CURRENT_IME = re.compile(r"mCurMethodId=(\S+)")


def needs_adb_keyboard(text: str) -> bool:
    """Anything but plain ASCII, and text that starts with `-` (which `input` could read as an option)."""
    return text.startswith("-") or any(char not in INPUT_TEXT_SAFE for char in text)


def type_text(shell: Shell, text: str, *, serial: str) -> str:
    """Type ``text`` into the focused field and return the field's text as read back from the phone."""
    if text and needs_adb_keyboard(text):
        with adb_keyboard(shell, serial=serial, text=text):
            message = base64.b64encode(text.encode("utf-8")).decode("ascii")
            result = check_refusal(shell(["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", message]))
            if "Broadcast completed" not in result.output:
                raise ActionFailed(f"the ADB keyboard broadcast was not delivered on phone {serial}: {result.output}")
    elif text:
        check_refusal(shell(["input", "text", text.replace(" ", "%s")]), what=f"input text {text!r}")
    return confirm_typed(shell, text, serial=serial)


def confirm_typed(shell: Shell, text: str, *, serial: str) -> str:
    """The focused field's text once it contains ``text`` (polled briefly: apps apply input asynchronously)."""
    deadline = time.monotonic() + CONFIRM_TIMEOUT_S
    while True:
        xml, error = dump_hierarchy(shell, retries=1)
        node = focused_field(parse_hierarchy(xml)) if xml is not None else None
        if xml is not None and node is None:
            raise ActionFailed(
                f"no text field has focus on phone {serial}, so {text!r} went nowhere; tap a field first"
            )
        if node is not None and (node.password or text in node.text):
            return node.text  # a password field shows dots, so only its presence can be checked
        if time.monotonic() >= deadline:
            if node is None:
                raise ActionFailed(f"typed {text!r} on phone {serial} but could not read the field back: {error}")
            raise ActionFailed(f"typed {text!r} on phone {serial} but the field shows {node.text!r}")
        time.sleep(POLL_S)


@contextmanager
def adb_keyboard(shell: Shell, *, serial: str, text: str) -> Iterator[None]:
    """ADBKeyBoard as the current keyboard for the duration; the previous keyboard (and ADBKeyBoard's
    disabled state, if it was disabled) comes back afterwards, also when typing fails."""
    previous = _setting(shell, "default_input_method")
    enabled = shell(["ime", "list", "-s"]).text.split()
    enabled_here = ADB_IME not in enabled
    if enabled_here:
        result = shell(["ime", "enable", ADB_IME])
        if result.exit_code != 0 or "Unknown input method" in result.output:
            raise ActionFailed(_missing_keyboard(serial, text), serial=serial, command=f"ime enable {ADB_IME}")
    try:
        if previous != ADB_IME:
            check_refusal(shell(["ime", "set", ADB_IME]))
        _wait_until_current(shell)
        yield
    except BaseException as error:
        try:
            _restore(shell, previous, enabled_here)
        except DeviceError as restore_error:
            error.add_note(f"switching the keyboard back failed too: {restore_error}")
        raise
    else:
        _restore(shell, previous, enabled_here)


def _setting(shell: Shell, key: str) -> str | None:
    value = shell(["settings", "get", "secure", key]).text.strip()
    return None if value in ("", "null") else value


def _wait_until_current(shell: Shell) -> None:
    """ADBKeyBoard only hears broadcasts once the system has bound it; `ime set` returns before that."""
    deadline = time.monotonic() + IME_READY_TIMEOUT_S
    while True:
        match = _CURRENT_IME.search(shell(["dumpsys", "input_method"]).text)
        if (match and match.group(1) == ADB_IME) or time.monotonic() >= deadline:
            return  # past the deadline the broadcast is tried anyway; the read-back check tells the outcome
        time.sleep(POLL_S)


def _restore(shell: Shell, previous: str | None, enabled_here: bool) -> None:
    if previous is not None and previous != ADB_IME:
        check_refusal(shell(["ime", "set", previous]))
    if enabled_here:
        check_refusal(shell(["ime", "disable", ADB_IME]))


def _missing_keyboard(serial: str, text: str) -> str:
    return (
        f"typing {text!r} needs the ADB keyboard (ADBKeyBoard), which phone {serial} does not have: `input text` "
        "types only plain ASCII. Install it once: download ADBKeyboard.apk from "
        f"{ADB_IME_RELEASES}, run `adb -s {serial} install ADBKeyboard.apk`, then "
        f"`adb -s {serial} shell ime enable {ADB_IME}`. The app switches to it only while typing and back afterwards."
    )
