"""The two requests of UI-AGILE's decomposed grounding with selection (section 3.4), and how their answers are read.

- **Locate** (candidate generation): one sub-image (a tile) of the screen and the element to find; the model
  answers ``{"point": [x, y]}`` in the tile image's coordinates, or ``{"point": null}`` when the element is not
  in that tile.
- **Relevance** (selection): a small crop centred on one candidate point; the model answers Yes or No to
  whether the element at its centre is the one described. The paper scores a candidate by the logit of "Yes";
  `yes_probability` reads a server's first-token logprobs that way, `read_yes_no` the plain text otherwise.

Both requests carry the context a model needs to read a part of a screen (the task, the earlier actions in
pixels of the full screen, the screen's size and the part's region in it), one ``Key: value`` line each, so a
scripted endpoint can rebuild the screen by replaying the actions (`annotator.demo.phone.scripted_grounding`)
while a real model simply reads them. Each request's system prompt opens with its marker, so an endpoint that
serves the agent too can tell them apart. The collecting agent, the evaluation's policy wrapper and the scripted
endpoint all build and read the requests here.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from annotator.domain.actions import ActionError, action_from_tool_call
from annotator.domain.coords import CoordinateSpace
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.model_space import POINT_KEYS, ModelSpace, is_point
from annotator.domain.response import tool_call_json

LOCATE_MARKER = "[decomposed grounding: locate]"
RELEVANCE_MARKER = "[decomposed grounding: relevance]"
LOCATE_SYSTEM = f"""{LOCATE_MARKER} You are a GUI agent. You are shown one part of a mobile phone's screen and \
told which element to find. If the element is in this image, answer with the point at its centre; if it is not \
in this image, say so. Answer with JSON only: {{"point": [x, y]}} or {{"point": null}}."""
RELEVANCE_SYSTEM = f"""{RELEVANCE_MARKER} You judge a GUI agent's candidate. You are shown a small image cut from \
a mobile phone's screen around the point the agent chose, and the element it was looking for. Answer with one \
word: Yes if the element at the centre of the image is that element, No otherwise."""
YES_WORDS = ("yes", "是", "是的")
NO_WORDS = ("no", "否", "不是")
_TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
_TASK_LINE = re.compile(r"User Task:\s*(.+)")
_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
_SCREEN = re.compile(r"(\d+)x(\d+)")


class GroundingRequestError(ValueError):
    """A request that carries a grounding marker but not the lines it must have; the message says which."""


@dataclass(frozen=True)
class GroundingContext:
    """What the model is told besides the image: the task, the earlier actions (tool calls in DEVICE pixels of
    the full screen, in step order) and the full screen's size."""

    task: str
    history: tuple[dict[str, Any], ...]
    screen: ScreenSize


@dataclass(frozen=True)
class GroundingRequest:
    """A locate or relevance request as read back: `region` is the image's part of the screen (device pixels)."""

    kind: str  # "locate" or "relevance"
    context: GroundingContext
    region: Box
    element: str
    image_url: str


@dataclass(frozen=True)
class PointAnswer:
    """A locate reply read: `point` in the tile image's coordinates; `found` False for "not in this image";
    `problem` set (and both empty) when the reply could not be read."""

    point: tuple[float, float] | None
    found: bool
    problem: str | None = None


def coordinate_note(space: ModelSpace, part: ScreenSize) -> str:
    """How to write the point for a `part`-sized region, in the model's own coordinate convention."""
    if space.space is CoordinateSpace.QWEN25_ABSOLUTE:
        image = space.image_size(part)
        return f"Write the point in this image's pixels: it is {image.width}x{image.height}."
    extent = space.extent(part)
    return f"Write the point relative to this image's width and height, from 0 to {extent[0]:g} on each axis."


def _context_lines(context: GroundingContext, region: Box, element: str) -> list[str]:
    history = [tool_call_json(call) for call in context.history] or ["(none)"]
    return [
        f"Task: {json.dumps(context.task, ensure_ascii=False)}",
        f"Screen: {context.screen.width}x{context.screen.height}",
        "Earlier actions (tool calls in pixels of the full screen):",
        *history,
        f"Region: {json.dumps([round(value) for value in region])}",
        f"Element: {json.dumps(element, ensure_ascii=False)}",
    ]


def _messages(system: str, lines: list[str], image_part: dict[str, Any]) -> list[dict[str, Any]]:
    content = [{"type": "text", "text": "\n".join(lines)}, image_part]
    return [{"role": "system", "content": system}, {"role": "user", "content": content}]


def locate_messages(
    context: GroundingContext, region: Box, element: str, image_part: dict[str, Any], note: str
) -> list[dict[str, Any]]:
    """Ask for `element` on the tile `region` (device pixels) shown as `image_part`; `note`: `coordinate_note`."""
    question = (
        "The image is the region above of the full screen. Find the element in it. "
        f'{note} Answer {{"point": [x, y]}} at the element\'s centre, or {{"point": null}} if it is not in the image.'
    )
    return _messages(LOCATE_SYSTEM, [*_context_lines(context, region, element), question], image_part)


def relevance_messages(
    context: GroundingContext, region: Box, element: str, image_part: dict[str, Any]
) -> list[dict[str, Any]]:
    """Ask whether the crop `region` (device pixels, centred on a candidate) shows `element` at its centre."""
    question = (
        "The image is the region above of the full screen, centred on a candidate point. Is the element at its "
        "centre the element described? Answer Yes or No."
    )
    return _messages(RELEVANCE_SYSTEM, [*_context_lines(context, region, element), question], image_part)


def _kind(messages: Sequence[dict[str, Any]]) -> str | None:
    system = str(messages[0].get("content", "")) if messages else ""
    if system.startswith(LOCATE_MARKER):
        return "locate"
    return "relevance" if system.startswith(RELEVANCE_MARKER) else None


def _parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [part for part in content if isinstance(part, dict)] if isinstance(content, list) else []


def _field(lines: list[str], key: str) -> str:
    for line in lines:
        if line.startswith(f"{key}: "):
            return line[len(key) + 2 :]
    raise GroundingRequestError(f"the grounding request has no '{key}:' line")


def _decoded(text: str, key: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise GroundingRequestError(f"'{key}:' is not JSON: {error}") from None


def _history(lines: list[str]) -> tuple[dict[str, Any], ...]:
    start = next((i for i, line in enumerate(lines) if line.startswith("Earlier actions")), None)
    if start is None:
        raise GroundingRequestError("the grounding request has no 'Earlier actions' line")
    calls = []
    for line in lines[start + 1 :]:
        if line.startswith("Region: "):
            break
        if line.strip() and line.strip() != "(none)":
            call = _decoded(line, "Earlier actions")
            if not isinstance(call, dict):
                raise GroundingRequestError(f"an earlier action is not a tool call object: {line[:80]}")
            calls.append(call)
    return tuple(calls)


def read_grounding_request(messages: Sequence[dict[str, Any]]) -> GroundingRequest | None:
    """A locate or relevance request read back; None for any other request; GroundingRequestError when it is
    one but a line is missing or malformed."""
    kind = _kind(messages)
    if kind is None:
        return None
    parts = _parts(messages[-1])
    lines = "\n".join(part.get("text", "") for part in parts if part.get("type") == "text").splitlines()
    urls = [str((part.get("image_url") or {}).get("url", "")) for part in parts if part.get("type") == "image_url"]
    if len(urls) != 1:
        raise GroundingRequestError(f"a grounding request carries one image, this one {len(urls)}")
    task, element, region = (_decoded(_field(lines, key), key) for key in ("Task", "Element", "Region"))
    screen = _SCREEN.fullmatch(_field(lines, "Screen").strip())
    if not isinstance(task, str) or not isinstance(element, str) or screen is None:
        raise GroundingRequestError("'Task:' and 'Element:' must be JSON strings and 'Screen:' WIDTHxHEIGHT")
    if not (isinstance(region, list) and len(region) == 4 and all(isinstance(v, int | float) for v in region)):
        raise GroundingRequestError(f"'Region:' must be [x1, y1, x2, y2], got {region!r}")
    try:
        context = GroundingContext(task, _history(lines), ScreenSize(int(screen[1]), int(screen[2])))
        return GroundingRequest(kind, context, Box.from_list(region), element, urls[0])
    except ValueError as error:  # a zero screen, a box with its corners out of order
        raise GroundingRequestError(f"the grounding request's screen or region is wrong: {error}") from None


def point_reply(point: tuple[float, float] | None) -> str:
    """A locate answer as a model writes it: the point, or null for "not in this image"."""
    return json.dumps({"point": None if point is None else [point[0], point[1]]})


def _tool_call_point(reply: str) -> tuple[float, float] | None:
    """The coordinate of a click or long press tool call in the reply (a trained agent may answer that way)."""
    found = _TOOL_CALL.search(reply)
    try:
        action = action_from_tool_call(json.loads(found.group(1))) if found else None
    except (json.JSONDecodeError, ActionError):
        return None
    point = getattr(action, "coordinate", None) if action is not None and action.name != "swipe" else None
    return (float(point[0]), float(point[1])) if point is not None else None


def read_point(reply: str) -> PointAnswer:
    """A locate reply: `{"point": [x, y]}`, `{"point": null}`, or a click tool call; anything else a problem.

    >>> read_point('{"point": [12, 30.5]}'), read_point('好的 {"point": null}').found
    (PointAnswer(point=(12.0, 30.5), found=True, problem=None), False)
    >>> read_point("the button is at the top").problem
    'no {"point": ...} object and no click tool call in the reply'
    """
    called = _tool_call_point(reply)
    if called is not None:
        return PointAnswer(called, True)
    found = _OBJECT.search(reply)
    try:
        value = json.loads(found.group(0)) if found else None
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict) or "point" not in value:
        return PointAnswer(None, False, 'no {"point": ...} object and no click tool call in the reply')
    point = value["point"]
    if point is None:
        return PointAnswer(None, False)
    if not is_point(point):
        return PointAnswer(None, False, f"the point {json.dumps(point)[:40]} is not two finite numbers")
    return PointAnswer((float(point[0]), float(point[1])), True)


def read_yes_no(reply: str) -> bool | None:
    """A relevance reply's verdict from its first word; None when it is neither yes nor no.

    >>> read_yes_no("Yes."), read_yes_no(" no, it is the search box"), read_yes_no("maybe")
    (True, False, None)
    """
    words = re.findall(r"[a-z]+|[\u4e00-\u9fff]+", reply.strip().lower())
    first = words[0] if words else ""
    if first in YES_WORDS:
        return True
    return False if first in NO_WORDS else None


def yes_probability(top_logprobs: Mapping[str, float]) -> float | None:
    """P(yes) among yes and no from the first token's top logprobs (UI-AGILE's "Yes" score, normalised against
    "No" so that probability spent on other tokens does not count); None when neither appears.

    >>> round(yes_probability({"Yes": math.log(0.6), "No": math.log(0.2), " yes": math.log(0.1)}), 3)
    0.778
    """
    yes = sum(math.exp(value) for token, value in top_logprobs.items() if token.strip().lower() in YES_WORDS)
    no = sum(math.exp(value) for token, value in top_logprobs.items() if token.strip().lower() in NO_WORDS)
    return yes / (yes + no) if yes + no > 0 else None


def conversation_context(messages: Sequence[dict[str, Any]], space: ModelSpace, screen: ScreenSize) -> GroundingContext:
    """The task and earlier tool calls of an agent conversation (`annotator.domain.agent_conversation`'s
    layout: the task in the system prompt's "User Task:" line, each earlier step's tool call once, in order, in
    the model's space), the points mapped to device pixels of `screen`. A call that is not a valid action is left
    out (it did nothing on the phone either); a conversation without a task line gives an empty task."""
    task, history = "", []
    for message in messages:
        texts = [part.get("text", "") for part in _parts(message) if part.get("type") == "text"]
        if message.get("role") == "system":
            found = [match for text in texts for match in _TASK_LINE.findall(text)]
            task = found[-1].strip() if found else task
            continue  # the system prompt's own <tool_call> example is no step
        for body in (body for text in texts for body in _TOOL_CALL.findall(text)):
            try:
                call = action_from_tool_call(json.loads(body)).to_tool_call()
            except (json.JSONDecodeError, ActionError):
                continue
            arguments = call["arguments"]
            points = {key: list(space.device_point(arguments[key], screen)) for key in POINT_KEYS if key in arguments}
            history.append({**call, "arguments": arguments | points})
    return GroundingContext(task, tuple(history), screen)
