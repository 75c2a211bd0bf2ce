"""The scripted endpoint's answers to decomposed grounding's two requests (UI-AGILE 3.4), true to the virtual phone.

Like the scripted agent, it sees only the request: it replays the request's earlier actions (full-screen pixels
of the stated screen) on a fresh virtual phone to know the screen, and finds the element the request's text
names: the first quoted name (“设置”, as the agent's `<action>` texts quote what they aim at), matched by text,
description or hint, exactly before partly, an element that reacts to touch before a bare label; “X”的开关 is the
switch on X's row. Of several elements so named (two “增加数量” buttons), the one the task needs next, as a model
reading the task would tell (the solution's planned tap, when the task is one of the phone's), else the first,
as the solution's own targets are found. Then:

- locate: the element's centre in the tile image's pixels (the Qwen2.5-VL convention the scripted agent answers
  in) when that centre lies in the tile, else ``{"point": null}``; also null when nothing on screen is named so;
- relevance: Yes when the crop's centre (the candidate) lies on the element, else No.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from annotator.demo.phone.agent_policy import planned_action, replay
from annotator.demo.phone.chat_request import RequestError, Scale, history_actions, screenshot_size
from annotator.demo.phone.instructions import instruction_by_text
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.solver import apply_action
from annotator.demo.phone.view import Node, Rect
from annotator.domain import actions as act
from annotator.domain.grounding_prompt import (
    GroundingContext,
    GroundingRequest,
    GroundingRequestError,
    point_reply,
    read_grounding_request,
)

QUOTED = re.compile(r"[“‘\"]([^”’\"]+)[”’\"]")
SWITCH_SUFFIX = "的开关"
MIN_SIDE = 4  # pixels: a sliver of an element scrolled almost out of view is not a target (as tasks.locate)


def grounding_reply(messages: list[dict[str, Any]]) -> str | None:
    """The answer to a locate or relevance request; None for any other request."""
    try:
        request = read_grounding_request(messages)
    except GroundingRequestError as error:
        raise RequestError(str(error)) from None
    if request is None:
        return None
    phone, scale, planned = screen_after(request.context)
    target = target_rect(phone, request.element, planned)
    if request.kind == "locate":
        return point_reply(tile_point(request, target, scale))
    return "Yes" if on_target(request, target, scale) else "No"


def screen_after(context: GroundingContext) -> tuple[VirtualPhone, Scale, tuple[float, float] | None]:
    """A fresh phone with the earlier actions done, the scale between the request's screen and the phone, and
    the point (phone pixels) the task's solution taps next from here, when the task is known and it taps."""
    phone = VirtualPhone()
    scale = Scale(phone, (context.screen.width, context.screen.height))
    history = history_actions(list(context.history), scale)
    instruction = instruction_by_text(context.task)
    if instruction is None:
        for action in itertools.takewhile(lambda action: not isinstance(action, act.Terminate), history):
            apply_action(phone, action)
        return phone, scale, None
    wanted = planned_action(phone, instruction, replay(phone, instruction, history))
    return phone, scale, wanted.coordinate if isinstance(wanted, act.Click | act.LongPress) else None


def _named(node: Node, name: str, exact: bool) -> bool:
    if exact:
        return name in (node.text, node.desc, node.hint)
    return name in node.text or name in node.desc


def _reacts(node: Node) -> bool:
    return node.on_tap is not None or node.on_long_press is not None or node.field_key is not None


def target_rect(phone: VirtualPhone, element: str, planned: tuple[float, float] | None = None) -> Rect | None:
    """The rectangle (phone pixels) of the element `element` names on the phone's screen, the one holding
    `planned` among several so named; None when nothing is named so."""
    names = QUOTED.findall(element)
    if not names:
        return None
    if SWITCH_SUFFIX in element:
        return _switch_of(phone, names[0])
    visible = [(node, rect) for node, rect, _ in phone.find(lambda node: True) if _big_enough(rect)]
    for exact in (True, False):
        found = [(node, rect) for node, rect in visible if _named(node, names[0], exact)]
        rects = [rect for node, rect in found if _reacts(node)] or [rect for _, rect in found]
        if rects:
            return next((rect for rect in rects if planned is not None and _inside(planned, rect)), rects[0])
    return None


def _inside(point: tuple[float, float], rect: Rect) -> bool:
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


def _big_enough(rect: Rect) -> bool:
    return rect[2] - rect[0] > MIN_SIDE and rect[3] - rect[1] > MIN_SIDE


def _switch_of(phone: VirtualPhone, title: str) -> Rect | None:
    """The switch to the right of the row titled `title` (how the agent names a bare switch)."""
    rows = [rect for node, rect, _ in phone.find(lambda node: node.text == title)]
    switches = [rect for node, rect, _ in phone.find(lambda node: node.cls.endswith("Switch"))]
    for row in rows:
        for rect in switches:
            if row[2] <= rect[0] and row[1] < rect[3] and rect[1] < row[3]:
                return rect
    return None


def _centre_on_screen(rect: Rect, scale: Scale) -> tuple[float, float]:
    """The rectangle's centre in the request's screen pixels."""
    return ((rect[0] + rect[2]) / 2 / scale.x, (rect[1] + rect[3]) / 2 / scale.y)


def tile_point(request: GroundingRequest, target: Rect | None, scale: Scale) -> tuple[int, int] | None:
    """The target's centre in the tile image's pixels, or None when the tile does not hold it."""
    if target is None:
        return None
    x, y = _centre_on_screen(target, scale)
    region = request.region
    if not (region.x1 <= x < region.x2 and region.y1 <= y < region.y2):
        return None
    width, height = screenshot_size(request.image_url)
    return (
        round((x - region.x1) * width / (region.x2 - region.x1)),
        round((y - region.y1) * height / (region.y2 - region.y1)),
    )


def on_target(request: GroundingRequest, target: Rect | None, scale: Scale) -> bool:
    """Whether the crop's centre, the candidate, lies on the target (in phone pixels)."""
    if target is None:
        return False
    x, y = request.region.center
    return _inside((x * scale.x, y * scale.y), target)
