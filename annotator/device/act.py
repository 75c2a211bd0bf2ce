"""Actions of the ``mobile_use`` space as adb commands: which command each one is, how an app name becomes a
package, and how a command's output tells that the phone refused it.

The mapping is pure (:func:`action_command`, :func:`resolve_package`) so that it can be read and tested
without a phone; :class:`annotator.device.android.AndroidDevice` runs the commands.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from annotator.device.adb import ShellOutput
from annotator.device.errors import ActionFailed, show_command
from annotator.domain import actions as act

DEFAULT_SWIPE_MS = 400  # long enough to scroll a list, short enough not to fling it far
SYSTEM_BUTTON_KEYS: Mapping[str, str] = {
    "Back": "KEYCODE_BACK",
    "Home": "KEYCODE_HOME",
    "Menu": "KEYCODE_MENU",
    "Enter": "KEYCODE_ENTER",
}
LAUNCHER_CATEGORY = "android.intent.category.LAUNCHER"
_PACKAGE_NAME = re.compile(r"[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+")
# What Android's `input`, `am`, `ime` and `monkey` print when they refuse (some versions still exit 0).
_REFUSALS = (
    "Exception occurred while executing",
    "Error:",
    "Error type",
    "No activities found",
    "monkey aborted",
    "Unknown input method",
    "java.lang.",
    "SecurityException",
)


def action_command(action: act.Action, *, swipe_ms: int = DEFAULT_SWIPE_MS) -> list[str] | None:
    """The `adb shell` arguments of a touch or key action; None for open, type, wait and terminate,
    which need more than one command or none."""
    match action:
        case act.Click(coordinate=(x, y)):
            return ["input", "tap", _px(x), _px(y)]
        case act.LongPress(coordinate=(x, y)):
            # A swipe that does not move, held for the press time: what `input` offers as a long press.
            return ["input", "swipe", _px(x), _px(y), _px(x), _px(y), str(round(action.seconds * 1000))]
        case act.Swipe(coordinate=(x1, y1), coordinate2=(x2, y2)):
            return ["input", "swipe", _px(x1), _px(y1), _px(x2), _px(y2), str(swipe_ms)]
        case act.Key(text=name):
            try:
                return ["input", "keyevent", act.normalize_key_name(name)]
            except ValueError as error:
                raise ActionFailed(str(error), command="input keyevent") from None
        case act.SystemButton(button=button):
            return ["input", "keyevent", SYSTEM_BUTTON_KEYS[button]]
    return None


def _px(value: float) -> str:
    """Device pixels are integers; `input` would round floats anyway, but the log should show what ran."""
    return str(round(value))


def launch_command(package: str) -> list[str]:
    """Start an app the way its launcher icon does, without knowing its activity."""
    return ["monkey", "-p", package, "-c", LAUNCHER_CATEGORY, "1"]


def resolve_package(name: str, packages: Mapping[str, str], installed: Callable[[str], bool]) -> str:
    """The package an `open` action means: an app name from ``packages`` (exact, then ignoring case and
    spaces), a package name from its values, or any installed package named directly."""
    wanted = name.strip()
    if wanted in packages:
        return packages[wanted]
    loose = {_loose(label): package for label, package in packages.items()}
    if _loose(wanted) in loose:
        return loose[_loose(wanted)]
    if wanted in packages.values() or (_PACKAGE_NAME.fullmatch(wanted) and installed(wanted)):
        return wanted
    known = ", ".join(sorted(packages)) or "none yet"
    raise ActionFailed(
        f"no app called {name!r} is known (known apps: {known}); add it to the app list as name -> package "
        "(`adb shell pm list packages` shows the packages on the phone)"
    )


def _loose(label: str) -> str:
    return "".join(label.split()).casefold()


def check_refusal(result: ShellOutput, what: str | None = None) -> ShellOutput:
    """The result itself, or ActionFailed with the command and its output when the phone refused it."""
    output = result.output
    if result.exit_code != 0 or any(marker in output for marker in _REFUSALS):
        command = what or show_command(result.argv)
        detail = output if len(output) <= 400 else output[:399] + "…"
        raise ActionFailed(
            f"the phone refused `{command}` (exit status {result.exit_code}): {detail or 'no output'}",
            command=command,
        )
    return result
