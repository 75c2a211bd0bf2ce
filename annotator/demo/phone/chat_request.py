"""Reading chat requests as the scripted agent and the scripted judge do: texts, images, tool calls.

Coordinates in a request are in the pixels of the screenshots it carries; `Scale` maps them to the virtual
phone's pixels and back.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from PIL import Image

from annotator.demo.phone.phone import VirtualPhone
from annotator.domain import actions as act

TOOL_CALL_TAG = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.S)


class RequestError(ValueError):
    """The request is not one the scripted endpoint can answer; the message says why."""


def message_parts(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        yield {"type": "text", "text": content}
    elif isinstance(content, list):
        yield from (part for part in content if isinstance(part, dict))


def message_texts(message: dict[str, Any]) -> list[str]:
    return [part.get("text", "") for part in message_parts(message) if part.get("type") == "text"]


def screenshot_size(url: str) -> tuple[int, int]:
    if not url.startswith("data:") or "," not in url:
        raise RequestError("screenshots must be sent inline as data: URLs (the scripted endpoint is offline)")
    try:
        with Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))) as image:
            return image.size
    except (ValueError, OSError) as error:
        raise RequestError(f"a screenshot could not be decoded: {error}") from error


def tool_calls_in(text: str) -> list[dict[str, Any]]:
    """Tool calls written in a message: <tool_call> blocks, else bare {"name": "mobile_use", ...} objects."""
    bodies = TOOL_CALL_TAG.findall(text)
    calls = []
    for body in bodies:
        try:
            calls.append(json.loads(body))
        except json.JSONDecodeError:
            continue
    if bodies:
        return calls
    decoder, found = json.JSONDecoder(), []
    for match in re.finditer(r'\{\s*"name"\s*:\s*"mobile_use"', text):
        try:
            found.append(decoder.raw_decode(text, match.start())[0])
        except json.JSONDecodeError:
            continue
    return found


class Scale:
    """Between the screenshot's pixels (what the model sees and answers in) and the phone's pixels."""

    def __init__(self, phone: VirtualPhone, image_size: tuple[int, int] | None) -> None:
        width, height = image_size or (phone.width, phone.height)
        self.x, self.y = phone.width / width, phone.height / height

    def to_phone(self, action: act.Action) -> act.Action:
        return _map_points(action, lambda p: (p[0] * self.x, p[1] * self.y))

    def to_image(self, action: act.Action) -> act.Action:
        return _map_points(action, lambda p: (round(p[0] / self.x), round(p[1] / self.y)))


def _map_points(action: act.Action, convert: Callable[[act.Point], act.Point]) -> act.Action:
    changes = {key: convert(getattr(action, key)) for key in ("coordinate", "coordinate2") if hasattr(action, key)}
    return act.action_from_arguments(action.to_arguments() | changes)  # built anew: checked as any action is


def history_actions(calls: list[dict[str, Any]], scale: Scale) -> list[act.Action]:
    actions = []
    for call in calls:
        try:
            actions.append(scale.to_phone(act.action_from_tool_call(call)))
        except act.ActionError:
            continue  # a malformed call did nothing on the phone either
    return actions
