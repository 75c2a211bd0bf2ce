"""The Qwen2.5-VL ``mobile_use`` action space (docs/architecture.md#the-action-space; Mobile-R1 Table 5 plus ``open``).

Checking happens in two layers, so that each error is reported where it can be decided:

- parsing (:func:`action_from_tool_call`, :func:`action_from_arguments`, and the dataclass
  constructors) checks structure and types, which do not depend on any screen;
- :func:`validate_action` / :func:`check_action` check values against the screenshot the action
  belongs to: points on the screen, a swipe that moves, text to type, no negative time.

Every problem is an :class:`ActionError` whose ``field`` is the key path of the offending value
(``name``, ``arguments.action``, ``arguments.coordinate`` ...), so that a GUI can point at it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

from annotator.domain.geometry import ScreenSize

TOOL_NAME = "mobile_use"
ACTION_NAMES: tuple[str, ...] = (
    "key",
    "click",
    "long_press",
    "swipe",
    "type",
    "system_button",
    "open",
    "wait",
    "terminate",
)
# Canonical order of the keys in "arguments" (after "action"): the order of Qwen's tool schema.
ARGUMENT_NAMES: tuple[str, ...] = ("coordinate", "coordinate2", "text", "time", "button", "status")
SYSTEM_BUTTONS: tuple[str, ...] = ("Back", "Home", "Menu", "Enter")
TERMINATE_STATUSES: tuple[str, ...] = ("success", "failure")
# Qwen's schema makes `time` required for long_press; recorded human presses and other models often
# omit it, so it is optional here and the device layer presses for this long when it is absent.
DEFAULT_LONG_PRESS_SECONDS = 2.0

Point = tuple[float, float]


class ArgumentSpec(NamedTuple):
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()


# Which action takes which arguments. One table: the parser, the error messages and the GUI read it.
ACTION_ARGUMENTS: Mapping[str, ArgumentSpec] = MappingProxyType(
    {
        "key": ArgumentSpec(("text",)),
        "click": ArgumentSpec(("coordinate",)),
        "long_press": ArgumentSpec(("coordinate",), ("time",)),
        "swipe": ArgumentSpec(("coordinate", "coordinate2")),
        "type": ArgumentSpec(("text",)),
        "system_button": ArgumentSpec(("button",)),
        "open": ArgumentSpec(("text",)),
        "wait": ArgumentSpec(("time",)),
        "terminate": ArgumentSpec(("status",)),
    }
)


_TAKES = {name: spec.required + spec.optional for name, spec in ACTION_ARGUMENTS.items()}  # every argument


class ActionError(ValueError):
    """A tool call or action that is wrong; ``field`` is the key path, ``detail`` says why."""

    def __init__(self, field: str, detail: str) -> None:
        # Both go to args so that the error pickles (errors cross thread and process boundaries).
        super().__init__(field, detail)
        self.field = field
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.field}: {self.detail}"


def _show(value: Any, limit: int = 60) -> str:
    """A value as JSON text (as the model wrote it), cut to ``limit`` characters for messages."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):  # non-string keys or cycles, only possible from code
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _key(key: Any) -> str:
    """A key the model wrote, as a message names it: as is, or as JSON when it holds a newline or is long."""
    text = str(key)
    return text if text.isprintable() and len(text) <= 40 else _show(text, 40)


def _is_number(value: Any) -> bool:
    # bool is an int subclass but `true` is not a coordinate; NaN and infinity are not positions
    # or durations (json.loads accepts them, so they must be refused here).
    kind = type(value)  # the exact types first: a reward checks tens of thousands of points a second
    if kind is int:
        return True
    if kind is float:
        return math.isfinite(value)
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _point(value: Any, field: str) -> Point:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        x, y = value
        if _is_number(x) and _is_number(y):
            return (x, y)
    raise ActionError(field, f"{_show(value)} is not a point; expected [x, y], two numbers")


def _text(value: Any, field: str) -> str:
    if isinstance(value, str):
        return value
    raise ActionError(field, f"{_show(value)} is not a string; expected text in double quotes")


def _seconds(value: Any, field: str) -> float:
    if _is_number(value):
        return value
    raise ActionError(field, f"{_show(value)} is not a number; expected seconds, e.g. 2 or 0.5")


def _one_of(options: tuple[str, ...], what: str) -> Callable[[Any, str], str]:
    def check(value: Any, field: str) -> str:
        if isinstance(value, str) and value in options:
            return value
        raise ActionError(field, f"{_show(value)} is not {what}; expected one of {', '.join(options)}")

    return check


# How each argument is checked and normalised (lists become tuples so that actions are hashable).
_ARGUMENT_CHECKS: Mapping[str, Callable[[Any, str], Any]] = MappingProxyType(
    {
        "coordinate": _point,
        "coordinate2": _point,
        "text": _text,
        "time": _seconds,
        "button": _one_of(SYSTEM_BUTTONS, "a system button"),
        "status": _one_of(TERMINATE_STATUSES, "a terminate status"),
    }
)

# Per action: (argument, its check, its field, required), required first; built once, as a reward constructs
# tens of thousands of actions a second.
_CHECKS_OF: Mapping[str, tuple[tuple[str, Callable[[Any, str], Any], str, bool], ...]] = MappingProxyType(
    {
        name: tuple((key, _ARGUMENT_CHECKS[key], f"arguments.{key}", key in spec.required) for key in _TAKES[name])
        for name, spec in ACTION_ARGUMENTS.items()
    }
)


class Action:
    """Base of the nine typed actions; subclasses are frozen dataclasses named after arguments."""

    __slots__ = ()
    name: ClassVar[str]

    def __post_init__(self) -> None:
        # Runs for every construction, from a tool call or from code, so no ill-typed action exists.
        for key, check, field, required in _CHECKS_OF[self.name]:
            value = getattr(self, key)
            if required or value is not None:
                object.__setattr__(self, key, check(value, field))

    def to_arguments(self) -> dict[str, Any]:
        """The "arguments" object: action first, then arguments in canonical order, absent ones left out."""
        arguments: dict[str, Any] = {"action": self.name}
        for key in ARGUMENT_NAMES:
            value = getattr(self, key, None)
            if value is not None:
                arguments[key] = list(value) if isinstance(value, tuple) else value
        return arguments

    def to_tool_call(self) -> dict[str, Any]:
        return {"name": TOOL_NAME, "arguments": self.to_arguments()}


@dataclass(frozen=True, slots=True)
class Key(Action):
    """An adb keyevent; ``text`` is kept as given ("volume_up"), see :func:`normalize_key_name`."""

    text: str
    name: ClassVar[str] = "key"


@dataclass(frozen=True, slots=True)
class Click(Action):
    coordinate: Point
    name: ClassVar[str] = "click"


@dataclass(frozen=True, slots=True)
class LongPress(Action):
    coordinate: Point
    time: float | None = None
    name: ClassVar[str] = "long_press"

    @property
    def seconds(self) -> float:
        """How long to press: ``time``, or DEFAULT_LONG_PRESS_SECONDS when the call left it out."""
        return DEFAULT_LONG_PRESS_SECONDS if self.time is None else self.time


@dataclass(frozen=True, slots=True)
class Swipe(Action):
    coordinate: Point
    coordinate2: Point
    name: ClassVar[str] = "swipe"


@dataclass(frozen=True, slots=True)
class Type(Action):
    text: str
    name: ClassVar[str] = "type"


@dataclass(frozen=True, slots=True)
class SystemButton(Action):
    button: str
    name: ClassVar[str] = "system_button"


@dataclass(frozen=True, slots=True)
class Open(Action):
    """Open an app by its name (the text is the app name, e.g. "淘宝")."""

    text: str
    name: ClassVar[str] = "open"


@dataclass(frozen=True, slots=True)
class Wait(Action):
    time: float
    name: ClassVar[str] = "wait"


@dataclass(frozen=True, slots=True)
class Terminate(Action):
    status: str
    name: ClassVar[str] = "terminate"


ACTION_TYPES: Mapping[str, type[Action]] = MappingProxyType(
    {cls.name: cls for cls in (Key, Click, LongPress, Swipe, Type, SystemButton, Open, Wait, Terminate)}
)


def _takes(name: str) -> str:
    """E.g. "long_press takes coordinate and optionally time"."""
    spec = ACTION_ARGUMENTS[name]
    text = f"{name} takes {' and '.join(spec.required)}"
    return text + (f" and optionally {' and '.join(spec.optional)}" if spec.optional else "")


def action_from_tool_call(tool_call: Any) -> Action:
    """The typed action of ``{"name": "mobile_use", "arguments": {...}}``; ActionError if it is wrong."""
    if type(tool_call) is not dict and not isinstance(tool_call, Mapping):  # dict first: ABC checks are slow
        expected = f'{{"name": "{TOOL_NAME}", "arguments": {{...}}}}'
        raise ActionError("tool_call", f"{_show(tool_call)} is not a tool call; expected {expected}")
    if "name" not in tool_call:
        raise ActionError("name", f'missing; expected "{TOOL_NAME}"')
    if tool_call["name"] != TOOL_NAME:
        raise ActionError("name", f'{_show(tool_call["name"])} is not the tool; expected "{TOOL_NAME}"')
    for key in tool_call:
        if key not in ("name", "arguments"):
            raise ActionError(_key(key), "unexpected key in the tool call; expected only name and arguments")
    if "arguments" not in tool_call:
        raise ActionError("arguments", 'missing; expected an object such as {"action": "click", ...}')
    return action_from_arguments(tool_call["arguments"])


def action_from_arguments(arguments: Any) -> Action:
    """The typed action of an "arguments" object; ActionError naming the first wrong field."""
    if type(arguments) is not dict and not isinstance(arguments, Mapping):
        expected = '{"action": ...}'
        raise ActionError("arguments", f"{_show(arguments)} is not an object; expected {expected}")
    if "action" not in arguments:
        raise ActionError("arguments.action", f"missing; expected one of {', '.join(ACTION_NAMES)}")
    name = arguments["action"]
    if not isinstance(name, str) or name not in ACTION_ARGUMENTS:
        detail = f"{_show(name)} is not an action; expected one of {', '.join(ACTION_NAMES)}"
        raise ActionError("arguments.action", detail)
    spec = ACTION_ARGUMENTS[name]
    for key in spec.required:
        if key not in arguments:
            raise ActionError(f"arguments.{key}", f"missing; {_takes(name)}")
    names = _TAKES[name]
    values = {key: arguments[key] for key in names if key in arguments}
    if len(values) + 1 != len(arguments):  # a key besides "action" and the action's own
        key = next(key for key in arguments if key != "action" and key not in names)
        raise ActionError(f"arguments.{_key(key)}", f"is not an argument of {name}; {_takes(name)}")
    return ACTION_TYPES[name](**values)


def _show_point(point: Point) -> str:
    return f"({point[0]}, {point[1]})"


def _screen_errors(action: Action, screen: ScreenSize) -> list[ActionError]:
    errors = []
    for key in ("coordinate", "coordinate2"):
        point = getattr(action, key, None)
        if point is not None and not screen.contains(*point):
            bounds = f"x 0-{screen.width - 1}, y 0-{screen.height - 1}"
            detail = f"{_show_point(point)} is outside the {screen} screen ({bounds})"
            errors.append(ActionError(f"arguments.{key}", detail))
    return errors


def _value_errors(action: Action) -> list[ActionError]:
    errors = []
    if isinstance(action, Swipe) and action.coordinate == action.coordinate2:
        errors.append(
            ActionError(
                "arguments.coordinate2",
                f"{_show_point(action.coordinate2)} is the start point; a swipe needs two different points",
            )
        )
    time = getattr(action, "time", None)
    if time is not None and time < 0:
        errors.append(ActionError("arguments.time", f"{time} is below zero; expected seconds >= 0"))
    text = getattr(action, "text", None)
    # Whitespace is legitimate input to type, so only the empty string counts as "no text".
    if text == "":
        errors.append(ActionError("arguments.text", f"empty; {action.name} needs text"))
    elif isinstance(action, Key):
        try:
            normalize_key_name(action.text)
        except ValueError as error:
            errors.append(ActionError("arguments.text", str(error)))
    return errors


def validate_action(action: Action, screen: ScreenSize) -> list[ActionError]:
    """Everything wrong with a well-typed action on a screenshot of size ``screen`` (empty if nothing)."""
    return _screen_errors(action, screen) + _value_errors(action)


def check_action(action: Action, screen: ScreenSize) -> Action:
    """The action itself if :func:`validate_action` finds nothing; else raise the first error."""
    errors = validate_action(action, screen)
    if errors:
        raise errors[0]
    return action


_KEY_NAME = re.compile(r"[A-Za-z0-9_]+")
_KEYCODE_PREFIX = "KEYCODE_"


def normalize_key_name(name: str) -> str:
    """The adb keyevent name for a key: "volume_up" -> "KEYCODE_VOLUME_UP", "5" -> "KEYCODE_5".

    Names already spelled KEYCODE_... are upper-cased only; numeric codes of two or more digits
    ("24") are kept, because adb's keyevent takes raw key codes too while "5" means the digit key.
    """
    cleaned = name.strip().replace("-", "_").replace(" ", "_") if isinstance(name, str) else ""
    upper = cleaned.upper()
    if not _KEY_NAME.fullmatch(cleaned) or upper == _KEYCODE_PREFIX:
        raise ValueError(f"{_show(name)} is not an adb key name; expected e.g. KEYCODE_BACK, volume_up or 5")
    if upper.startswith(_KEYCODE_PREFIX) or (upper.isdigit() and len(upper) > 1):
        return upper
    return _KEYCODE_PREFIX + upper
