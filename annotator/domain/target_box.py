"""The target element's box of a coordinate step, and where it came from.

Mobile-R1's action reward (and every coordinate reward of UI-R1, GUI-R1, UI-AGILE and InfiGUI-R1) checks a
predicted point against the box of the element the step acts on. A person may draw that box; otherwise it is
suggested from what was recorded with the screen: the smallest visible clickable element under the action's
point (a swipe's start) in the stored UI hierarchy, or the element boxes a dataset carries. A suggestion holds
only while the labelled point lies inside it; an annotator accepts it (it becomes theirs), changes or clears it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from annotator.domain.geometry import Box


class BoxProvenance(StrEnum):
    ANNOTATOR = "annotator"  # drawn or accepted by a person
    HIERARCHY = "hierarchy"  # suggested from the screen's elements (UI hierarchy or a dataset's element boxes)
    NONE = "none"  # no box: not suggested, cleared by a person, or the point lies outside the suggestion


COORDINATE_ACTIONS = ("click", "long_press", "swipe")


class ScreenElement(Protocol):
    """What the rule needs of an element (a uiautomator node, a dataset's element box)."""

    @property
    def bounds(self) -> tuple[int, int, int, int]: ...
    @property
    def actionable(self) -> bool: ...
    @property
    def visible(self) -> bool: ...
    @property
    def window(self) -> int: ...
    @property
    def order(self) -> int: ...


@dataclass(frozen=True)
class ElementBox:
    """An element known only by its box (AITZ's `ui_positions`, AndroidControl's nodes), device pixels."""

    bounds: tuple[int, int, int, int]
    actionable: bool = True
    visible: bool = True
    window: int = 0
    order: int = 0


@dataclass(frozen=True)
class SuggestedBox:
    """A box suggested for a step and what it was derived from (e.g. "uiautomator", "aitz ui_positions")."""

    box: Box
    source: str


def action_point(tool_call: dict[str, Any] | None) -> tuple[float, float] | None:
    """The point a coordinate action acts on (a swipe's start); None for any other action."""
    arguments = (tool_call or {}).get("arguments") or {}
    point = arguments.get("coordinate")
    if arguments.get("action") not in COORDINATE_ACTIONS or not isinstance(point, (list, tuple)) or len(point) != 2:
        return None
    x, y = point
    return (float(x), float(y)) if all(isinstance(v, (int, float)) for v in (x, y)) else None


def _contains(bounds: tuple[int, int, int, int], x: float, y: float) -> bool:
    left, top, right, bottom = bounds
    return left <= x < right and top <= y < bottom


def target_element(elements: Sequence[ScreenElement], x: float, y: float) -> ScreenElement | None:
    """The smallest visible clickable element containing (x, y), in the topmost window that has one; where
    elements overlap side by side, the one drawn later (on top). None when no clickable element holds it: a
    container's box would reward taps anywhere on the screen."""
    under = [
        element
        for element in elements
        if element.actionable and element.visible and _area(element.bounds) > 0 and _contains(element.bounds, x, y)
    ]
    if not under:
        return None
    top_window = max(element.window for element in under)
    return min(
        (element for element in under if element.window == top_window),
        key=lambda element: (_area(element.bounds), -element.order),
    )


def suggest_box(
    elements: Sequence[ScreenElement], tool_call: dict[str, Any] | None, source: str
) -> SuggestedBox | None:
    """The suggestion for a step whose action is `tool_call` (device pixels), or None."""
    point = action_point(tool_call)
    element = target_element(elements, *point) if point else None
    return SuggestedBox(Box(*(float(v) for v in element.bounds)), source) if element else None


def _area(bounds: tuple[int, int, int, int]) -> int:
    left, top, right, bottom = bounds
    return max(0, right - left) * max(0, bottom - top)
