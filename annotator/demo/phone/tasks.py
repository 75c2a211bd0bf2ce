"""The virtual phone's instruction set: what to do, how to check it was done, and a way to do it.

A solution is a list of steps that name their targets the way a person would (by text or description),
so they are found on the screen as it is, scrolled if needed, and become `mobile_use` tool calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from annotator.demo.phone.view import Node, Rect

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone


@dataclass(frozen=True)
class Target:
    """A visible element: by exact text, by content-desc, by resource id, or text containing a part."""

    text: str | None = None
    desc: str | None = None
    rid: str | None = None
    contains: str | None = None
    index: int = 0  # the n-th match from the top

    def matches(self, node: Node) -> bool:
        return (
            (self.text is None or node.text == self.text)
            and (self.desc is None or node.desc == self.desc)
            and (self.rid is None or node.rid.split("/")[-1] == self.rid)
            and (self.contains is None or self.contains in node.text or self.contains in node.desc)
        )

    def describe(self) -> str:
        return self.text or self.desc or self.contains or self.rid or "?"


@dataclass(frozen=True)
class OpenApp:
    label: str


@dataclass(frozen=True)
class Tap:
    target: Target
    long: bool = False


class TargetFields(TypedDict, total=False):
    """Target's fields but its text, as keyword arguments of `tap`."""

    desc: str | None
    rid: str | None
    contains: str | None
    index: int


def tap(text: str | None = None, **target: Unpack[TargetFields]) -> Tap:
    return Tap(Target(text=text, **target))


@dataclass(frozen=True)
class TypeText:
    text: str


@dataclass(frozen=True)
class Press:
    button: str  # Back | Home | Enter


@dataclass(frozen=True)
class Scroll:
    direction: str = "up"  # the finger's direction: "up" shows what is further down


@dataclass(frozen=True)
class Wait:
    seconds: float = 2


Step = OpenApp | Tap | TypeText | Press | Scroll | Wait


@dataclass(frozen=True)
class Instruction:
    uid: str
    app: str  # the app's name as shown under its icon
    text: str  # the task, in Chinese, as a user would give it
    steps: tuple[Step, ...]
    check: Callable[[VirtualPhone], bool]
    success: str  # what `check` verifies, for people reading the instruction set
    facts: dict[str, Any] = field(default_factory=dict)  # the values the check compares with

    def as_json(self, package: str) -> dict[str, Any]:
        return {"uid": self.uid, "app": self.app, "package": package, "text": self.text} | {
            "success": self.success,
            "facts": self.facts,
            "solution_steps": len(self.steps) + 1,  # with the final terminate
        }


def locate(phone: VirtualPhone, target: Target) -> Rect | None:
    """The visible rectangle of the target's `index`-th match on the current screen, or None."""
    found = phone.find(target.matches)
    visible = [rect for _node, rect, _ in found if rect[2] - rect[0] > 4 and rect[3] - rect[1] > 4]
    return visible[target.index] if len(visible) > target.index else None


def scrollable_area(phone: VirtualPhone) -> Rect | None:
    """The largest scrollable view on screen, where a person would swipe to see more."""
    areas = [rect for node, rect, _ in phone.find(lambda node: node.on_scroll is not None)]
    return max(areas, key=lambda r: (r[2] - r[0]) * (r[3] - r[1]), default=None)
