"""Turn solution steps into `mobile_use` actions on the screen as it is, and apply actions to a phone.

`apply_action` is how the scripted agent replays a history on its own copy of the phone; the adb path
(`input tap`, `am broadcast`, ...) reaches the same phone methods through the shell interpreter.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from annotator.demo.phone.tasks import (
    Instruction,
    OpenApp,
    Press,
    Scroll,
    Step,
    Tap,
    TypeText,
    Wait,
    locate,
    scrollable_area,
)
from annotator.domain import actions as act

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

MAX_SCROLLS = 8
BUTTON_KEYS = {"Back": "KEYCODE_BACK", "Home": "KEYCODE_HOME", "Menu": "KEYCODE_MENU", "Enter": "KEYCODE_ENTER"}


class Unsolvable(RuntimeError):
    """The step's target is not on this screen, even after scrolling."""


def centre(rect: tuple[int, int, int, int]) -> tuple[int, int]:
    return (rect[0] + rect[2]) // 2, (rect[1] + rect[3]) // 2


def scroll_action(phone: VirtualPhone, direction: str = "up") -> act.Swipe:
    """A swipe across the middle of the largest scrollable view (or the screen): 'up' shows more below."""
    area = scrollable_area(phone) or phone.content_frame()
    x, top, bottom = (area[0] + area[2]) // 2, area[1], area[3]
    low, high = top + (bottom - top) * 3 // 4, top + (bottom - top) // 4
    start, end = (low, high) if direction == "up" else (high, low)
    return act.Swipe(coordinate=(x, start), coordinate2=(x, end))


def step_action(phone: VirtualPhone, step: Step) -> act.Action:
    """The action that carries out `step` now; a Swipe first when the target is further down a list."""
    match step:
        case OpenApp(label):
            return act.Open(text=label)
        case Tap(target, long):
            rect = locate(phone, target)
            if rect is None:
                if scrollable_area(phone) is None:
                    raise Unsolvable(f"{target.describe()!r} is not on the screen")
                return scroll_action(phone)
            point = centre(rect)
            return act.LongPress(coordinate=point, time=2) if long else act.Click(coordinate=point)
        case TypeText(text):
            return act.Type(text=text)
        case Press(button):
            return act.SystemButton(button=button)
        case Scroll(direction):
            return scroll_action(phone, direction)
        case Wait(seconds):
            return act.Wait(time=seconds)
    raise TypeError(f"not a solution step: {step!r}")


def advances(step: Step, action: act.Action) -> bool:
    """Whether doing `action` completes `step` (a scroll that looks for a target does not)."""
    return not (isinstance(step, Tap) and isinstance(action, act.Swipe))


def apply_action(phone: VirtualPhone, action: act.Action) -> None:
    """Do the action on the phone, as the device layer would through adb."""
    match action:
        case act.Click(coordinate=(x, y)):
            phone.tap(round(x), round(y))
        case act.LongPress(coordinate=(x, y)):
            phone.long_press(round(x), round(y))
        case act.Swipe(coordinate=(x1, y1), coordinate2=(x2, y2)):
            phone.swipe(round(x1), round(y1), round(x2), round(y2), 300)
        case act.Type(text=text):
            phone.input_text(text)
        case act.Key(text=name):
            phone.keyevent(act.normalize_key_name(name))
        case act.SystemButton(button=button):
            phone.keyevent(BUTTON_KEYS[button])
        case act.Open(text=name):
            phone.start_app(package_for(phone, name))
        case act.Wait() | act.Terminate():
            pass


def package_for(phone: VirtualPhone, name: str) -> str:
    """The package of the app shown as `name` (its label), or `name` itself when it is a package."""
    for package, app in phone.apps.items():
        if name.strip() in (app.label, package):
            return package
    raise KeyError(f"no app called {name!r} on this phone")


def run_solution(phone: VirtualPhone, instruction: Instruction) -> Iterator[tuple[int, act.Action]]:
    """Carry out the instruction on `phone`, yielding (step index, action) after each action is applied.

    A scroll that looks for a step's target shares the step's index; the final terminate has index
    `len(instruction.steps)`.
    """
    for index, step in enumerate(instruction.steps):
        for _ in range(MAX_SCROLLS + 1):
            action = step_action(phone, step)
            apply_action(phone, action)
            yield index, action
            if advances(step, action):
                break
        else:
            raise Unsolvable(f"{instruction.uid}: {step!r} not reached after {MAX_SCROLLS} scrolls")
    yield len(instruction.steps), act.Terminate(status="success")
