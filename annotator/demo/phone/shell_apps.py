"""`am`, `monkey` and `pm`: starting, stopping and clearing the virtual phone's apps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from annotator.demo.phone.shell_input import broadcast, parse_intent
from annotator.demo.phone.shell_io import CommandError, ShellIO, take

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

LAUNCHER_CATEGORY = "android.intent.category.LAUNCHER"


def is_system_package(phone: VirtualPhone, package: str) -> bool:
    """What `pm list packages -s` shows: the platform's own packages (ADBKeyBoard is installed by the user)."""
    return package.startswith("com.android.") and package != phone.IME_ADB.split("/")[0]


def short_activity(package: str, activity: str) -> str:
    """Android's short component form: `pkg/pkg.ui.Main` is written `pkg/.ui.Main`."""
    return f"{package}/{activity[len(package) :]}" if activity.startswith(package + ".") else f"{package}/{activity}"


# am


def am_command(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    args = list(args)
    command = take(args, "usage: am [start|force-stop|broadcast] ...")
    if command in ("start", "start-activity"):
        return _am_start(phone, args, io)
    if command == "force-stop":
        package = take(args, "usage: am force-stop <PACKAGE>")
        if package in phone.apps:
            phone.force_stop(package)
        return 0  # Android is silent about packages it does not know
    if command == "broadcast":
        return broadcast(phone, args, io)
    raise CommandError(f"Error: the virtual phone's am does not support '{command}'", 255)


def _am_start(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    intent = parse_intent(args)
    component = intent.parts.get("cmp")
    if component is None:
        io.out(f"Starting: Intent {{ {intent.describe()} }}\n")
        raise CommandError(f"Error: Activity not started, unable to resolve Intent {{ {intent.describe()} }}")
    package, _, activity = component.partition("/")
    if activity.startswith("."):
        activity = package + activity
    io.out(f"Starting: Intent {{ cmp={component} }}\n")
    if package not in phone.apps or (activity and activity not in phone.app(package).activities.values()):
        raise CommandError(f"Error type 3\nError: Activity class {{{package}/{activity}}} does not exist.")
    if "-S" in args:
        phone.force_stop(package)
    phone.start_app(package)
    if "-W" in args:
        io.out(f"Status: ok\nLaunchState: COLD\nActivity: {component}\nTotalTime: 180\nWaitTime: 185\nComplete\n")
    return 0


# monkey


def monkey_command(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    """Only the launch idiom `monkey -p <pkg> -c android.intent.category.LAUNCHER 1` is supported."""
    packages = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg == "-p"]
    if not packages:
        raise CommandError("** Error: the virtual phone's monkey needs -p <package> (it only launches apps)", 255)
    package = packages[0]
    if package not in phone.apps:
        io.out("** No activities found to run, monkey aborted.\n")
        return 252
    phone.start_app(package)
    io.out("Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n")
    return 0


# pm


def pm_command(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    args = list(args)
    command = take(args, "usage: pm [list packages|path|clear] ...")
    if command == "list":
        if take(args, "usage: pm list packages [-3|-s] [FILTER]") != "packages":
            raise CommandError("Error: the virtual phone's pm can only list packages", 255)
        return _pm_list_packages(phone, args, io)
    if command == "path":
        return _pm_path(phone, take(args, "usage: pm path <PACKAGE>"), io)
    if command == "clear":
        return _pm_clear(phone, take(args, "usage: pm clear <PACKAGE>"), io)
    raise CommandError(f"Error: the virtual phone's pm does not support '{command}'", 255)


def _pm_list_packages(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    words = [arg for arg in args if not arg.startswith("-")]
    for package in sorted(phone.packages()):
        system = is_system_package(phone, package)
        if ("-3" in args and system) or ("-s" in args and not system) or (words and words[0] not in package):
            continue
        io.out(f"package:{package}\n")
    return 0


def _pm_path(phone: VirtualPhone, package: str, io: ShellIO) -> int:
    if package not in phone.packages():
        return 1
    if is_system_package(phone, package):
        io.out(f"package:/system/priv-app/{package}/{package}.apk\n")
    else:
        io.out(f"package:/data/app/~~virtual==/{package}-1==/base.apk\n")
    return 0


def _pm_clear(phone: VirtualPhone, package: str, io: ShellIO) -> int:
    if package not in phone.packages():
        io.out("Failed\n")
        return 1
    if package in phone.apps:
        phone.clear_app(package)
    io.out("Success\n")
    return 0
