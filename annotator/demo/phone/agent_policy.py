"""Where a solution stands after a history of actions, and what to do next, on a phone of our own.

The scripted agent sees only what a model sees, so it replays the history's tool calls on a fresh
virtual phone. An action that matches what the solution wanted advances it; anything else is an
off-plan action, and when it left the expected screen the next move is Back.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.solver import Unsolvable, advances, apply_action, step_action
from annotator.demo.phone.tasks import Instruction
from annotator.domain import actions as act


def screen_key(phone: VirtualPhone) -> str:
    """The screen the phone shows: app, page and its parameters (not the scroll position)."""
    return phone.current.page_key()


def _touched(phone: VirtualPhone, point: tuple[float, float]) -> tuple | None:
    """What a touch at `point` would hit, as comparable data (nodes are rebuilt on every frame)."""
    node = phone._topmost(round(point[0]), round(point[1]), lambda n: n.on_tap is not None or n.field_key is not None)
    return None if node is None else (node.bounds, node.text, node.desc, node.rid, node.field_key)


def same_action(phone: VirtualPhone, done: act.Action, wanted: act.Action) -> bool:
    """Whether `done` does what `wanted` does on this screen (a tap anywhere on the same element counts)."""
    if type(done) is not type(wanted):
        return False
    match done, wanted:
        case (
            (act.Click(coordinate=a) | act.LongPress(coordinate=a)),
            (act.Click(coordinate=b) | act.LongPress(coordinate=b)),
        ):
            return _touched(phone, a) == _touched(phone, b)
        case act.Swipe(coordinate=a1, coordinate2=a2), act.Swipe(coordinate=b1, coordinate2=b2):
            return (a2[1] - a1[1] > 0) == (b2[1] - b1[1] > 0)
        case act.Open(text=a), act.Open(text=b):
            return a.strip() == b.strip()
    return done == wanted


@dataclass
class Progress:
    """How far the solution got: the next step's index and the screen the plan expects now."""

    step: int
    expected_screen: str
    terminated: bool = False


def replay(phone: VirtualPhone, instruction: Instruction, history: list[act.Action]) -> Progress:
    """Apply `history` to `phone` (fresh, reset) and work out the solution's progress."""
    progress = Progress(0, screen_key(phone))
    for action in history:
        if isinstance(action, act.Terminate):
            progress.terminated = True
            break
        recovering = screen_key(phone) != progress.expected_screen
        wanted = planned_action(phone, instruction, progress)
        on_plan = wanted is not None and same_action(phone, action, wanted)
        apply_action(phone, action)
        if on_plan and wanted is not None and not recovering:  # a Back that recovers keeps the plan's screen
            step = instruction.steps[progress.step]
            progress.step += 1 if advances(step, wanted) else 0
            progress.expected_screen = screen_key(phone)
    return progress


def planned_action(phone: VirtualPhone, instruction: Instruction, progress: Progress) -> act.Action | None:
    """What the solution does next from here, without mistakes; None when it cannot go on."""
    if screen_key(phone) != progress.expected_screen:
        return act.SystemButton(button="Back")
    if progress.step >= len(instruction.steps):
        return act.Terminate(status="success")
    try:
        return step_action(phone, instruction.steps[progress.step])
    except Unsolvable:
        return None
