"""What the canvas draws for a step, as plain data: read from a tool call and a target box, no Qt; and which of a
step's privacy regions lies under a point.

As in labelme, shapes are data and the canvas only paints them. The reading is lenient on purpose: a
collected tool call may be broken (a model wrote it), and the annotator still wants to see whatever part of
it can be drawn, e.g. the point of a click whose other arguments are wrong. Captions use the tool call's own
words (``type "蓝牙"``, ``Back``, ``wait 2 s``), the same words the annotator edits in its JSON.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from annotator.domain import geometry

Point = tuple[float, float]
Box = tuple[float, float, float, float]
# A box as the drawing code takes it: the tuple above, or a label's geometry.Box (it unpacks the same way).
AnyBox = Box | geometry.Box

POINT_ACTIONS = ("click", "long_press", "swipe")  # actions drawn at a place on the screen
CAPTION_LIMIT = 80  # characters of typed text kept in a caption; the canvas elides further to fit


@dataclass(frozen=True)
class Overlays:
    point: Point | None = None  # click, long_press, swipe start
    end: Point | None = None  # swipe end (arrow from point to end)
    kind: str | None = None  # the action name: click, long_press, swipe, type, ...
    caption: str | None = None  # e.g. 'type "蓝牙"', 'Back', 'wait 2 s', 'terminate success'
    box: Box | None = None  # target box, normalised so that x1 <= x2 and y1 <= y2
    seconds: float | None = None  # long_press / wait duration when the call gives one

    @property
    def empty(self) -> bool:
        return self.point is None and self.end is None and self.caption is None and self.box is None


def overlays_for(tool_call: Mapping[str, Any] | None, box: Sequence[float] | AnyBox | None) -> Overlays:
    """The shapes of a `{"name": "mobile_use", "arguments": {...}}` call and a target box; what can be drawn."""
    target = read_box(box)
    arguments = _arguments(tool_call)
    action = arguments.get("action")
    if not isinstance(action, str) or not action:
        return Overlays(box=target)
    point = read_point(arguments.get("coordinate")) if action in POINT_ACTIONS else None
    end = read_point(arguments.get("coordinate2")) if action == "swipe" else None
    seconds = _seconds(arguments.get("time")) if action in ("long_press", "wait") else None
    return Overlays(point, end, action, _caption(action, arguments, seconds), target, seconds)


def read_point(value: Any) -> Point | None:
    """[x, y] of two finite numbers as floats, else None."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(_finite(v) for v in value):
        return (float(value[0]), float(value[1]))
    return None


def read_box(value: Any) -> Box | None:
    """Four finite numbers (a list, a tuple, a label's `geometry.Box`) as (left, top, right, bottom) whichever
    corners they name, else None."""
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping)):
        value = tuple(value)
    if not isinstance(value, tuple) or len(value) != 4 or not all(_finite(v) for v in value):
        return None
    x1, y1, x2, y2 = (float(v) for v in value)
    return (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))


def region_at(regions: Sequence[Box], x: float, y: float) -> int | None:
    """The index of the privacy region under (x, y), the last drawn where they overlap (it is painted on top)."""
    for index in range(len(regions) - 1, -1, -1):
        x1, y1, x2, y2 = regions[index]
        if x1 <= x <= x2 and y1 <= y <= y2:
            return index
    return None


def _arguments(tool_call: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """The arguments object; some models write it as a JSON string, which is read too."""
    if not isinstance(tool_call, Mapping):
        return {}
    arguments = tool_call.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return {}
    return arguments if isinstance(arguments, Mapping) else {}


def _caption(action: str, arguments: Mapping[str, Any], seconds: float | None) -> str | None:
    """The badge text of an action that has no place on the screen (and of a timed long press)."""
    text = arguments.get("text")
    if action in ("type", "key", "open"):
        return f'{action} "{_short(text)}"' if isinstance(text, str) else action
    if action == "system_button":
        button = arguments.get("button")
        return button if isinstance(button, str) and button else action
    if action in ("wait", "long_press"):
        return f"{action} {_number(seconds)} s" if seconds is not None else action
    if action == "terminate":
        status = arguments.get("status")
        return f"terminate {status}" if isinstance(status, str) and status else action
    if action in POINT_ACTIONS:
        return None  # the point and the arrow say it all
    return action  # an action from a newer or another action space: at least its name


def _short(text: str) -> str:
    return text if len(text) <= CAPTION_LIMIT else text[: CAPTION_LIMIT - 1] + "…"


def _seconds(value: Any) -> float | None:
    return float(value) if _finite(value) and value >= 0 else None


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _finite(value: Any) -> bool:
    # bool is an int, but `true` is no coordinate; NaN and infinity are no place (json.loads accepts them)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
