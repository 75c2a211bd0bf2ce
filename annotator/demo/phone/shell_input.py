"""`input`, the ADBKeyBoard broadcasts of `am broadcast`, and `ime`: how text and touches reach the phone.

These imitate Android where device code depends on it: `input text` types only what the virtual keyboard
map can produce (ASCII; Chinese needs ADBKeyBoard, as on a real phone), and the ADBKeyBoard broadcasts
only act while ADBKeyBoard is the current input method.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from annotator.demo.phone.shell_io import CommandError, ShellIO, parse_int, take
from annotator.demo.phone.shell_keys import canonical_key

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

INPUT_USAGE = "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]"
INPUT_SOURCES = frozenset(
    {"keyboard", "mouse", "joystick", "touchnavigation", "touchpad", "trackball", "dpad", "stylus", "gamepad"}
    | {"touchscreen", "rotaryencoder"}
)
DEFAULT_SWIPE_MS = 300
ADB_ACTIONS = frozenset(
    {"ADB_INPUT_TEXT", "ADB_INPUT_B64", "ADB_INPUT_CHARS", "ADB_INPUT_CODE", "ADB_EDITOR_CODE", "ADB_CLEAR_TEXT"}
)
# EditorInfo actions that submit a field (GO, SEARCH, SEND, DONE), which the phone treats as Enter.
SUBMIT_EDITOR_ACTIONS = frozenset({2, 3, 4, 6})


# input


def input_command(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    args = list(args)
    while args and (args[0] in INPUT_SOURCES or args[0] == "-d"):
        if args.pop(0) == "-d":
            take(args, INPUT_USAGE)
    command = take(args, INPUT_USAGE)
    handler = INPUT_COMMANDS.get(command)
    if handler is None:
        raise CommandError(f"Error: Unknown command: {command}\n{INPUT_USAGE}", 255)
    return handler(phone, args, io)


def _tap(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    if len(args) != 2:
        raise CommandError("Usage: input tap <x> <y>", 255)
    phone.tap(parse_int(args[0], "x"), parse_int(args[1], "y"))
    return 0


def _swipe(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    if len(args) not in (4, 5):
        raise CommandError("Usage: input swipe <x1> <y1> <x2> <y2> [duration(ms)]", 255)
    x1, y1, x2, y2 = (parse_int(value, "coordinate") for value in args[:4])
    duration = parse_int(args[4], "duration") if len(args) == 5 else DEFAULT_SWIPE_MS
    phone.swipe(x1, y1, x2, y2, duration if duration >= 0 else DEFAULT_SWIPE_MS)
    return 0


def _keyevent(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    codes = [arg for arg in args if not arg.startswith("--")]  # --longpress, --doubletap: one press each
    if not codes:
        raise CommandError("Usage: input keyevent [--longpress|--doubletap] <key code number or name> ...", 255)
    for code in codes:
        try:
            name = canonical_key(code)
        except ValueError as error:
            raise CommandError(f"Exception occurred while executing 'keyevent':\n{error}", 255) from None
        phone.keyevent(name)
    return 0


def _text(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    """Android types only its first argument, with `%s` meaning a space; non-ASCII cannot be typed."""
    text = _percent_s(take(args, "Usage: input text <string>"))
    if any(not (" " <= char <= "~" or char in "\n\t") for char in text):
        raise CommandError(
            "Exception occurred while executing 'text':\n"
            "java.lang.NullPointerException: Attempt to get length of null array",
            255,
        )
    phone.input_text(text)
    return 0


def _percent_s(text: str) -> str:
    out: list[str] = []
    escape = False
    for char in text:
        if escape and char == "s":
            out[-1] = " "
            escape = False
            continue
        escape = char == "%"
        out.append(char)
    return "".join(out)


INPUT_COMMANDS = {"tap": _tap, "swipe": _swipe, "draganddrop": _swipe, "keyevent": _keyevent, "text": _text}


# am broadcast


def broadcast(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    """Deliver an intent; the ADBKeyBoard ones type when ADBKeyBoard is the current input method."""
    intent = parse_intent(args)
    io.out(f"Broadcasting: Intent {{ {intent.describe()} }}\n")
    action = intent.parts.get("act")
    target = intent.parts.get("pkg") or intent.parts.get("cmp", "").split("/")[0]
    adb_package = phone.IME_ADB.split("/")[0]
    if action in ADB_ACTIONS and target in ("", adb_package) and phone.ime_current == phone.IME_ADB:
        _adb_keyboard(phone, str(action), intent.extras)
    io.out("Broadcast completed: result=0\n")
    return 0


def _adb_keyboard(phone: VirtualPhone, action: str, extras: dict[str, str]) -> None:
    """What ADBKeyBoard's receiver does with each of its actions (bad extras are ignored, as it does)."""
    if action == "ADB_CLEAR_TEXT":
        phone.clear_text()
    elif action == "ADB_INPUT_TEXT" and "msg" in extras:
        phone.input_text(extras["msg"])
    elif action == "ADB_INPUT_B64" and "msg" in extras:
        try:
            phone.input_text(base64.b64decode(extras["msg"], validate=True).decode("utf-8"))
        except (binascii.Error, UnicodeDecodeError):
            return
    elif action == "ADB_INPUT_CHARS" and "chars" in extras:
        try:
            phone.input_text("".join(chr(int(value, 0)) for value in extras["chars"].split(",") if value.strip()))
        except (ValueError, OverflowError):
            return
    elif action == "ADB_INPUT_CODE" and extras.get("code", "").isdigit():
        try:
            phone.keyevent(canonical_key(extras["code"]))
        except ValueError:
            return
    elif (
        action == "ADB_EDITOR_CODE"
        and extras.get("code", "").isdigit()
        and int(extras["code"]) in SUBMIT_EDITOR_ACTIONS
    ):
        phone.keyevent("KEYCODE_ENTER")


INTENT_ORDER = ("act", "cat", "dat", "typ", "flg", "pkg", "cmp")
INTENT_OPTIONS = {"-a": "act", "-d": "dat", "-t": "typ", "-c": "cat", "-n": "cmp", "-p": "pkg", "-f": "flg"}
EXTRA_OPTIONS = frozenset({"-e", "--es", "--ei", "--el", "--ef", "--ez", "--eu", "--eia", "--ela", "--efa", "--esa"})


@dataclass
class Intent:
    """An `am` intent: its parts by Android's short names (act, dat, cat, cmp, pkg, flg), extras as text."""

    parts: dict[str, str] = field(default_factory=dict)
    extras: dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        """How `am` prints it: `act=X cat=[C] dat=D flg=0x400000 pkg=P cmp=N (has extras)`."""
        parts = {"flg": "0x400000"} | self.parts
        words = [
            f"{key}=[{parts[key]}]" if key == "cat" else f"{key}={parts[key]}" for key in INTENT_ORDER if key in parts
        ]
        return " ".join(words + (["(has extras)"] if self.extras else []))


def parse_intent(args: list[str]) -> Intent:
    """The intent an `am` command line describes; flags that do not change it (-W, -S, --user N) are skipped."""
    args = list(args)
    intent = Intent()
    usage = "Error: bad intent arguments"
    while args:
        option = args.pop(0)
        if option in INTENT_OPTIONS:
            intent.parts[INTENT_OPTIONS[option]] = take(args, usage)
        elif option in EXTRA_OPTIONS:
            key = take(args, usage)
            intent.extras[key] = take(args, usage)
        elif option == "--esn":
            intent.extras[take(args, usage)] = ""
        elif option == "--user":
            take(args, usage)
        elif not option.startswith("-"):
            intent.parts.setdefault("dat", option)  # a bare URI
    return intent


# ime


def ime_command(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    args = list(args)
    command = take(args, "Usage: ime <list|enable|disable|set|reset> ...")
    if command == "list":
        return _ime_list(phone, args, io)
    if command in ("enable", "disable", "set"):
        ime_id = take(args, f"Usage: ime {command} <id>")
        return {"enable": _ime_enable, "disable": _ime_disable, "set": _ime_set}[command](phone, ime_id, io)
    if command == "reset":
        return _ime_reset(phone, io)
    raise CommandError(f"Unknown command: {command}", 255)


def _ime_list(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    ids = phone.ime_installed if "-a" in args else phone.ime_enabled
    for ime_id in ids:
        if "-s" in args:
            io.out(f"{ime_id}\n")
            continue
        package, _, name = ime_id.partition("/")
        io.out(
            f"{ime_id}:\n  mId={ime_id} mSettingsActivityName=null mIsVrOnly=false"
            " mSupportsSwitchingToNextInputMethod=false\n  mIsDefaultResId=0x0\n  Service:\n    ServiceInfo:\n"
            f"      name={package}{name}\n      packageName={package}\n"
            f"      enabled={str(ime_id in phone.ime_enabled).lower()} exported=true directBootAware=false\n"
            "      permission=android.permission.BIND_INPUT_METHOD\n"
        )
    return 0


def _ime_enable(phone: VirtualPhone, ime_id: str, io: ShellIO) -> int:
    if ime_id not in phone.ime_installed:
        raise CommandError(f"Unknown input method {ime_id} cannot be enabled for user #0", 255)
    state = "already" if ime_id in phone.ime_enabled else "now"
    if ime_id not in phone.ime_enabled:
        phone.ime_enabled.append(ime_id)
        _sync_enabled_setting(phone)
    io.out(f"Input method {ime_id}: {state} enabled for user #0\n")
    return 0


def _ime_disable(phone: VirtualPhone, ime_id: str, io: ShellIO) -> int:
    if ime_id not in phone.ime_installed:
        raise CommandError(f"Unknown input method {ime_id} cannot be disabled for user #0", 255)
    state = "now" if ime_id in phone.ime_enabled else "already"
    if ime_id in phone.ime_enabled and len(phone.ime_enabled) > 1:
        phone.ime_enabled.remove(ime_id)
        if phone.ime_current == ime_id:
            phone.set_ime(phone.ime_enabled[0])
        _sync_enabled_setting(phone)
    io.out(f"Input method {ime_id}: {state} disabled for user #0\n")
    return 0


def _ime_set(phone: VirtualPhone, ime_id: str, io: ShellIO) -> int:
    try:
        phone.set_ime(ime_id)
    except ValueError:
        raise CommandError(f"Unknown input method {ime_id} cannot be selected for user #0", 255) from None
    io.out(f"Input method {ime_id} selected for user #0\n")
    return 0


def _ime_reset(phone: VirtualPhone, io: ShellIO) -> int:
    """Back to the system keyboard only: third-party input methods such as ADBKeyBoard are disabled."""
    disabled = [ime_id for ime_id in phone.ime_enabled if ime_id != phone.IME_LATIN]
    phone.ime_enabled[:] = [phone.IME_LATIN]
    phone.set_ime(phone.IME_LATIN)
    _sync_enabled_setting(phone)
    io.out(f"Reset current and enabled IMEs for user #0\n  Selected: {phone.IME_LATIN}\n")
    io.out("".join(f"   Disabled: {ime_id}\n" for ime_id in disabled))
    io.out(f"  Enabled: {phone.IME_LATIN}\n")
    return 0


def _sync_enabled_setting(phone: VirtualPhone) -> None:
    phone.settings["secure"]["enabled_input_methods"] = ":".join(phone.ime_enabled)
