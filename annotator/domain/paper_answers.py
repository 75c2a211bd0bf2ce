"""Answers in the formats of UI-R1, GUI-R1 and InfiGUI-R1, mapped both ways to this project's action space.

- UI-R1 ("UI-R1: Enhancing Efficient Action Prediction of GUI Agents by Reinforcement Learning", arXiv 2503.21620),
  section 3.2's prompt: ``<think>...</think><answer>[{'action': ..., 'coordinate': [x, y]}]</answer>`` over
  ``click, open_app, scroll, navigate_back, input_text``. The paper names no argument but the click's coordinate;
  chosen here: ``app_name`` (open_app), ``text`` (input_text), ``direction`` (scroll, as AndroidControl's scroll:
  the way the content moves, the opposite of the finger) with the swipe's start as its ``coordinate``.
- GUI-R1 ("GUI-R1: A Generalist R1-Style Vision-Language Action Model For GUI Agents", arXiv 2504.10458), 3.2's
  unified action space: ``<answer>[{'action': ..., 'point': [x, y], 'input_text': ...}]</answer>`` over ``complete,
  close/delete, press_home, click, press_back, type, select, scroll, enter``; every action writes all three keys,
  ``[-100, -100]`` and ``'no input text'`` where they do not apply; a scroll's direction is its input text.
- InfiGUI-R1 ("InfiGUI-R1: Advancing Multimodal GUI Agents from Reactive Actors to Deliberative Reasoners", arXiv
  2504.14239): reasoning in ``<think></think>`` (its printed system prompt), then the action as its base model,
  Qwen2.5-VL, calls the ``mobile_use`` function (``<tool_call>{...}</tool_call>``, as its AndroidControl
  evaluation reads it): this project's own action space, so its table is the identity.

An answer a paper's vocabulary cannot say (UI-R1 has no long press, GUI-R1 no app opening) renders as None: the
export leaves that step out of the paper's data and counts it. Answers are read as JSON, or as the Python literal
the papers print (single quotes).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Mapping
from typing import Any

from annotator.domain.actions import (
    ACTION_TYPES,
    Action,
    ActionError,
    Click,
    Open,
    Swipe,
    SystemButton,
    Terminate,
    Type,
    action_from_arguments,
    action_from_tool_call,
)
from annotator.domain.drafts import swipe_direction

NO_POINT: list[float] = [-100, -100]  # GUI-R1's point of an action without one
NO_TEXT = "no input text"  # GUI-R1's input text of an action without one
# AndroidControl's scroll direction (the content's way) for the finger's way, and back.
SCROLL_FOR_FINGER = {"up": "down", "down": "up", "left": "right", "right": "left"}
FINGER_FOR_SCROLL = {scroll: finger for finger, scroll in SCROLL_FOR_FINGER.items()}
_STEP = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}  # a finger's unit move, in pixels


def scroll_of(swipe: Swipe) -> str:
    """The swipe as AndroidControl's scroll direction: the way the content moves, against the finger's."""
    return SCROLL_FOR_FINGER[swipe_direction(swipe.coordinate, swipe.coordinate2)]


def _swipe(start: Any, scroll: Any) -> Swipe:
    """A swipe from `start` whose finger moves one pixel the way that scrolls the content `scroll`."""
    if scroll not in FINGER_FOR_SCROLL:
        raise ActionError("direction", f"{scroll!r} is not up, down, left or right")
    dx, dy = _STEP[FINGER_FOR_SCROLL[scroll]]
    x, y = (int(v) for v in start)
    return Swipe((x, y), (max(0, x + dx), max(0, y + dy)))


# --- UI-R1 ------------------------------------------------------------------------------------------------------

UI_R1_ACTIONS = ("click", "scroll", "input_text", "navigate_back", "open_app")  # in its Table 5's order


def ui_r1_answer(action: Action) -> dict[str, Any] | None:
    """UI-R1's answer object for `action`, None when its five actions cannot say it."""
    if isinstance(action, Click):
        return {"action": "click", "coordinate": list(action.coordinate)}
    if isinstance(action, Open):
        return {"action": "open_app", "app_name": action.text}
    if isinstance(action, Type):
        return {"action": "input_text", "text": action.text}
    if isinstance(action, SystemButton) and action.button == "Back":
        return {"action": "navigate_back"}
    if isinstance(action, Swipe):
        return {"action": "scroll", "coordinate": list(action.coordinate), "direction": scroll_of(action)}
    return None


def ui_r1_action(answer: Mapping[str, Any]) -> Action:
    """The project's action of a UI-R1 answer object; ActionError when it is not one."""
    name = answer.get("action")
    readers: dict[str, Callable[[], Action]] = {
        "click": lambda: Click(answer["coordinate"]),
        "open_app": lambda: Open(answer["app_name"]),
        "input_text": lambda: Type(answer["text"]),
        "navigate_back": lambda: SystemButton("Back"),
        "scroll": lambda: _swipe(answer["coordinate"], answer.get("direction")),
    }
    return _read(readers, name, ", ".join(UI_R1_ACTIONS))


# --- GUI-R1 -----------------------------------------------------------------------------------------------------

_GUI_R1_BUTTONS = {"Back": "press_back", "Home": "press_home", "Enter": "enter"}
GUI_R1_ACTIONS = ("complete", "close/delete", "press_home", "click", "press_back", "type", "select", "scroll", "enter")


def gui_r1_answer(action: Action) -> dict[str, Any] | None:
    """GUI-R1's answer object (action, point, input_text) for `action`, None when its actions cannot say it."""
    point, text = NO_POINT, NO_TEXT
    if isinstance(action, Click):
        name, point = "click", list(action.coordinate)
    elif isinstance(action, Type):
        name, text = "type", action.text
    elif isinstance(action, Swipe):
        name, point, text = "scroll", list(action.coordinate), scroll_of(action)
    elif isinstance(action, SystemButton) and action.button in _GUI_R1_BUTTONS:
        name = _GUI_R1_BUTTONS[action.button]
    elif isinstance(action, Terminate) and action.status == "success":
        name = "complete"
    else:
        return None
    return {"action": name, "point": point, "input_text": text}


def gui_r1_action(answer: Mapping[str, Any]) -> Action:
    """The project's action of a GUI-R1 answer object; ActionError when it is not one (select and close/delete
    have no action here: they are read as nothing)."""
    name = answer.get("action")
    readers: dict[str, Callable[[], Action]] = {
        "click": lambda: Click(answer["point"]),
        "type": lambda: Type(answer["input_text"]),
        "scroll": lambda: _swipe(answer["point"], answer.get("input_text")),
        "press_back": lambda: SystemButton("Back"),
        "press_home": lambda: SystemButton("Home"),
        "enter": lambda: SystemButton("Enter"),
        "complete": lambda: Terminate("success"),
    }
    return _read(readers, name, "complete, press_home, click, press_back, type, scroll, enter")


def _read(readers: Mapping[str, Callable[[], Action]], name: Any, known: str) -> Action:
    if not isinstance(name, str) or name not in readers:
        raise ActionError("action", f"{name!r} is not one of {known}")
    try:
        return readers[name]()
    except KeyError as missing:
        raise ActionError(str(missing.args[0]), f"missing; {name} needs it") from None
    except (TypeError, ValueError) as error:
        raise ActionError("action", str(error)) from None


# --- reading and writing answers ----------------------------------------------------------------------------------


def loads(text: str) -> Any:
    """JSON, or the Python literal the papers print (single quotes); None when it is neither."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    if "'" not in text:
        return None  # what JSON could not read, Python's literal syntax reads only with its own quotes
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def action_of_answer(value: Any) -> Action | None:
    """The action of an answer in any of the vocabularies: a mobile_use call or its arguments, a UI-R1 or a GUI-R1
    object, or a one-element list of one (as UI-R1 and GUI-R1 write them); None when it is none of them."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, dict):
        return None
    name = value.get("action")
    if "name" in value:
        readers: tuple[Callable[[Any], Action], ...] = (action_from_tool_call,)
    elif "point" in value or "input_text" in value:
        readers = (gui_r1_action,)
    elif name in ACTION_TYPES:
        readers = (action_from_arguments, ui_r1_action)  # UI-R1 writes a click as mobile_use does
    else:
        readers = (ui_r1_action, gui_r1_action)
    for read in readers:
        try:
            return read(value)
        except (ActionError, TypeError, ValueError):
            continue
    return None


def first_tagged(text: str, tag: str) -> str | None:
    """The inside of the first ``<tag>...</tag>``, stripped; None when no tag is closed. str.find, not a lazy
    regex: a reward reads every completion of a GRPO step this way.

    >>> first_tagged("<think> a </think><think>b</think>", "think"), first_tagged("</think><think>", "think")
    ('a', None)
    """
    opening, closing = f"<{tag}>", f"</{tag}>"
    start = text.find(opening)
    end = text.find(closing, start + len(opening)) if start >= 0 else -1
    return text[start + len(opening) : end].strip() if end >= 0 else None


def answer_text(text: str) -> str | None:
    """The inside of the first ``<answer>...</answer>``, None when there is none."""
    return first_tagged(text, "answer")


def answer_json(answer: Mapping[str, Any]) -> str:
    """A paper's answer as its prompt shows it: a one-element list, written as JSON."""
    return json.dumps([dict(answer)], ensure_ascii=False)
