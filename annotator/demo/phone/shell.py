"""The virtual phone's `/system/bin/sh`: runs what a device layer sends over `adb shell` against a VirtualPhone.

`run_shell` splits the line into commands joined by `;`, `&&` and `||` (see `shell_parse`), then runs each
through a dispatch table of small functions, one per Android command. Output imitates Android 14 where
clients parse it. Nothing is ever handed to a host shell; quoted text stays text.
"""

from __future__ import annotations

import io as bytes_io
import logging
import posixpath
import struct
from typing import TYPE_CHECKING

from PIL import Image

from annotator.demo.phone import shell_files
from annotator.demo.phone.phone import ScreenOff
from annotator.demo.phone.shell_apps import am_command, monkey_command, pm_command
from annotator.demo.phone.shell_dumpsys import STAY_ON_FLAGS, dumpsys_command
from annotator.demo.phone.shell_input import ime_command, input_command
from annotator.demo.phone.shell_io import CommandError, Handler, ShellIO, ShellResult, take
from annotator.demo.phone.shell_parse import ShellSyntaxError, expand, parse
from annotator.demo.phone.shell_tasks import SERVICE as VIRTUAL_SERVICE
from annotator.demo.phone.shell_tasks import virtualphone_command

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

__all__ = ["COMMANDS", "ShellResult", "run_argv", "run_shell"]

log = logging.getLogger(__name__)
SH = "/system/bin/sh"
NAMESPACES = ("system", "secure", "global")
DEFAULT_DUMP = "/sdcard/window_dump.xml"
RGBA_8888 = 1


def run_shell(phone: VirtualPhone, command_line: str) -> ShellResult:
    """Run one `sh -c` line on the phone (under its lock) and return what a shell would print and exit with."""
    io = ShellIO()
    try:
        commands = parse(command_line)
    except ShellSyntaxError as error:
        io.err(f"{SH}: {error}\n")
        return io.result(2)
    status = 0
    with phone.lock:
        for command in commands:
            if (command.joiner == "&&" and status != 0) or (command.joiner == "||" and status == 0):
                continue
            variables = environment(phone) | {"?": str(status)}
            status = run_command(phone, [expand(word, variables) for word in command.words], io)
    return io.result(status)


def run_argv(phone: VirtualPhone, argv: list[str]) -> ShellResult:
    """Run one command with exact arguments and no shell parsing, as adbd's `abb` hands them to a service."""
    io = ShellIO()
    with phone.lock:
        status = run_command(phone, argv, io) if argv else 0
    return io.result(status)


def environment(phone: VirtualPhone) -> dict[str, str]:
    """The variables an adb shell starts with (the ones scripts use)."""
    return {
        "EXTERNAL_STORAGE": "/sdcard",
        "ANDROID_DATA": "/data",
        "ANDROID_ROOT": "/system",
        "HOME": "/",
        "TMPDIR": "/data/local/tmp",
        "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin",
        "SHELL": SH,
        "USER": "shell",
        "HOSTNAME": phone.props.get("ro.product.device", "virtual"),
    }


def run_command(phone: VirtualPhone, argv: list[str], io: ShellIO) -> int:
    """One simple command; unknown names fail with mksh's message and status 127."""
    name = argv[0]
    if posixpath.dirname(name) in ("/system/bin", "/system/xbin", "/bin"):
        name = posixpath.basename(name)
    handler = COMMANDS.get(name)
    if handler is None:
        io.err(f"{SH}: {argv[0]}: inaccessible or not found\n")
        return 127
    try:
        return handler(phone, argv[1:], io)
    except CommandError as error:
        io.err(error.message + "\n")
        return error.code
    except Exception as error:  # a bug in the phone or here: report it like Android's `cmd`, and log it
        log.exception("virtual phone %s: %r failed", phone.serial, argv)
        io.err(f"Exception occurred while executing '{name}':\n{type(error).__name__}: {error}\n")
        return 255


# Small built-ins


def _echo(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    newline = not (args and args[0] == "-n")
    io.out(" ".join(args[0 if newline else 1 :]) + ("\n" if newline else ""))
    return 0


def _cmd(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    """`cmd <service> ...`: the binder services behind pm, am, input, ime, wm and settings."""
    if not args:
        raise CommandError("cmd: No service specified; use -l to list all running services.", 20)
    if args[0] == "-l":
        services = sorted([*CMD_SERVICES, VIRTUAL_SERVICE])
        io.out("Currently running services:\n" + "".join(f"  {name}\n" for name in services))
        return 0
    if args[0] == VIRTUAL_SERVICE:  # the phone's task hooks: a service with no command of its own, as on Android
        return virtualphone_command(phone, args[1:], io)
    if args[0] not in CMD_SERVICES:
        raise CommandError(f"cmd: Can't find service: {args[0]}", 20)
    return COMMANDS[CMD_SERVICES[args[0]]](phone, args[1:], io)


def _true(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    return 0


def _false(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    return 1


# Screen


def _wm(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    if args == ["size"]:
        io.out(f"Physical size: {phone.width}x{phone.height}\n")
    elif args == ["density"]:
        io.out(f"Physical density: {phone.density}\n")
    elif args[:1] in (["size"], ["density"]):
        raise CommandError(f"Error: the virtual phone's {args[0]} is fixed; it cannot be overridden", 255)
    else:
        raise CommandError("usage: wm [size|density]", 255)
    return 0


def _screencap(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    """`screencap [-p] [-d ID] [FILE]`: PNG with -p or a .png name, otherwise Android's raw RGBA dump."""
    args = list(args)
    png, path = False, None
    while args:
        arg = args.pop(0)
        if arg == "-p":
            png = True
        elif arg == "-d":
            take(args, "usage: screencap [-hp] [-d display-id] [FILENAME]")
        elif arg.startswith("-"):
            raise CommandError(f"screencap: unknown option '{arg}'\nusage: screencap [-hp] [-d display-id] [FILENAME]")
        else:
            path = arg
    image = phone.screencap_png()
    if not (png or (path and path.endswith(".png"))):
        image = _raw_screen(phone, image)
    if path is None:
        io.out(image)
    else:
        _write_file(phone, path, image, "screencap")
    return 0


def _raw_screen(phone: VirtualPhone, png: bytes) -> bytes:
    """Width, height, pixel format (and, since Android 12, a data space) then RGBA pixels."""
    image = Image.open(bytes_io.BytesIO(png)).convert("RGBA")
    header = struct.pack("<III", image.width, image.height, RGBA_8888)
    if phone.sdk >= 31:
        header += struct.pack("<I", 0)
    return header + image.tobytes()


def _uiautomator(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    """`uiautomator dump [--compressed] [FILE]`; `/dev/tty` prints the XML (Android's own typo kept)."""
    words = [arg for arg in args if not arg.startswith("--")]
    if not words or words[0] != "dump":
        raise CommandError("Usage: uiautomator dump [--compressed] [file]", 1)
    path = words[1] if len(words) > 1 else DEFAULT_DUMP
    try:
        xml = phone.hierarchy_xml().encode("utf-8")
    except ScreenOff as error:
        raise CommandError(str(error), 1) from None
    if path in ("/dev/tty", "/dev/stdout"):
        io.out(xml)
    else:
        _write_file(phone, path, xml, "uiautomator")
    io.out(f"UI hierchary dumped to: {path}\n")
    return 0


def _write_file(phone: VirtualPhone, path: str, data: bytes, command: str) -> None:
    try:
        shell_files.write(phone.files, path, data)
    except IsADirectoryError as error:
        raise CommandError(f"{command}: {error}") from None


# Settings, properties, services


def _getprop(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    props = phone.props
    if not args:
        io.out("".join(f"[{key}]: [{value}]\n" for key, value in sorted(props.items())))
    else:
        io.out(props.get(args[0], args[1] if len(args) > 1 else "") + "\n")
    return 0


def _settings(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    args = args[2:] if args[:1] == ["--user"] else list(args)
    usage = "usage: settings [--user <USER_ID>] get|put|delete|list NAMESPACE [KEY [VALUE]]"
    verb, namespace = take(args, usage), take(args, usage)
    if namespace not in NAMESPACES:
        raise CommandError(f"Invalid namespace '{namespace}'\n{usage}", 255)
    table = phone.settings.setdefault(namespace, {})
    if verb == "list":
        io.out("".join(f"{key}={value}\n" for key, value in sorted(table.items())))
    elif verb == "get":
        io.out(table.get(take(args, usage), "null") + "\n")
    elif verb == "put":
        key = take(args, usage)
        put_setting(phone, namespace, key, take(args, usage))
    elif verb == "delete":
        io.out(f"Deleted {int(table.pop(take(args, usage), None) is not None)} rows\n")
    else:
        raise CommandError(usage, 255)
    return 0


def put_setting(phone: VirtualPhone, namespace: str, key: str, value: str) -> None:
    """Store a setting; the input method keys switch the keyboard, as the system does when they change."""
    if namespace == "secure" and key == "default_input_method":
        if value in phone.ime_enabled:
            phone.set_ime(value)
        return  # Android resets an input method that is not enabled, so the old one stays
    if namespace == "secure" and key == "enabled_input_methods":
        phone.ime_enabled[:] = [ime for ime in value.split(":") if ime in phone.ime_installed] or [phone.IME_LATIN]
        if phone.ime_current not in phone.ime_enabled:
            phone.set_ime(phone.ime_enabled[0])
        value = ":".join(phone.ime_enabled)
    phone.settings.setdefault(namespace, {})[key] = value


def _content(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    """`content insert|query --uri content://settings/<ns> ...`: the settings provider, the only one here."""
    usage = "usage: content insert|query --uri content://settings/<system|secure|global> [--bind name:s:KEY ...]"
    args = list(args)
    verb = take(args, usage)
    uri = next((args[i + 1] for i, arg in enumerate(args[:-1]) if arg == "--uri"), "")
    namespace = uri.removeprefix("content://settings/")
    if not uri.startswith("content://settings/") or namespace not in NAMESPACES:
        raise CommandError(f"Error while accessing provider:{uri}\njava.lang.IllegalArgumentException: Unknown URI")
    binds = dict(_bind(args[i + 1]) for i, arg in enumerate(args[:-1]) if arg == "--bind")
    if verb == "insert":
        if "name" not in binds or "value" not in binds:
            raise CommandError(usage, 255)
        put_setting(phone, namespace, binds["name"], binds["value"])
    elif verb == "query":
        table = phone.settings.get(namespace, {})
        for row, (key, value) in enumerate(sorted(table.items())):
            io.out(f"Row: {row} _id={row + 1}, name={key}, value={value}\n")
    else:
        raise CommandError(usage, 255)
    return 0


def _bind(spec: str) -> tuple[str, str]:
    """`name:s:user_rotation` -> ("name", "user_rotation"); the type letter does not matter for settings."""
    column, _, rest = spec.partition(":")
    _, _, value = rest.partition(":")
    return column, value


def _svc(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    usage = "usage: svc power stayon [true|false|usb|ac|wireless] | svc wifi|data enable|disable"
    if args[:2] == ["power", "stayon"] and len(args) == 3 and args[2] in STAY_ON_FLAGS:
        phone.stay_on = args[2]
        phone.settings["global"]["stay_on_while_plugged_in"] = str(STAY_ON_FLAGS[args[2]])
    elif len(args) == 2 and args[0] in ("wifi", "data") and args[1] in ("enable", "disable"):
        key = "wifi_on" if args[0] == "wifi" else "mobile_data"
        phone.settings["global"][key] = "1" if args[1] == "enable" else "0"
    else:
        raise CommandError(usage, 1)
    return 0


COMMANDS: dict[str, Handler] = {
    "am": am_command,
    "cat": shell_files.cat,
    "cmd": _cmd,
    "content": _content,
    "dumpsys": dumpsys_command,
    "echo": _echo,
    "false": _false,
    "getprop": _getprop,
    "ime": ime_command,
    "input": input_command,
    "ls": shell_files.ls,
    "monkey": monkey_command,
    "pm": pm_command,
    "rm": shell_files.rm,
    "screencap": _screencap,
    "settings": _settings,
    "svc": _svc,
    "true": _true,
    "uiautomator": _uiautomator,
    "wm": _wm,
}
# `cmd` service name -> the command that fronts it on Android
CMD_SERVICES = {
    "activity": "am",
    "input": "input",
    "input_method": "ime",
    "package": "pm",
    "settings": "settings",
    "window": "wm",
}
