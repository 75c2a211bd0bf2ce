"""The collecting agent's request and the reading of its reply (Mobile-R1 section 3.1, Appendix B.2, Eq. 4).

The model is a Qwen2.5-VL-style agent: it sees each screenshot resized by ``smart_resize`` and answers
in that image's pixels. So every screenshot is resized (`annotator.imaging.resize`, as the export resizes)
to exactly the size the model's processor would pick (a processor then leaves it as it is, because both
sides are already multiples of 28 within the pixel limits), the history's device coordinates are converted
into that size, and the reply's coordinates are converted back to device pixels.

The conversation's layout (the Mobile-R1 B.4 prompt, the text history, the window of W screenshots) is
`annotator.domain.agent_conversation`'s, shared with the export; here each screenshot becomes an inline PNG.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any, cast

from annotator.domain.actions import Action, ActionError, action_from_tool_call, validate_action
from annotator.domain.agent_conversation import HistoryStep, agent_conversation
from annotator.domain.coords import DEFAULT_RESIZE, CoordinateSpace, ResizeConfig, scale_point
from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import POINT_KEYS, ModelSpace
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PromptVariant
from annotator.domain.response import ParsedResponse, parse_response
from annotator.imaging.decode import UnreadableImage, image_size, png_header_size
from annotator.imaging.encode import data_url
from annotator.imaging.resize import resized_png


@dataclass
class AgentRequest:
    """The chat messages to send and the image size the model sees (needed to read its reply)."""

    messages: list[dict[str, Any]]
    resized: ScreenSize


@dataclass
class AgentDecision:
    """A reply read strictly: ``action`` (device pixels) is set exactly when it can be carried out."""

    parsed: ParsedResponse
    action: Action | None
    problems: list[str] = field(default_factory=list)


def resized_screen(screen: ScreenSize, resize: ResizeConfig = DEFAULT_RESIZE, image_scale: float = 1.0) -> ScreenSize:
    """The size the model sees: the screen scaled by `image_scale` (Mobile-R1 stage 3 halves it), then smart_resize."""
    return _space(resize, image_scale).image_size(screen)


def _space(resize: ResizeConfig, image_scale: float) -> ModelSpace:
    return ModelSpace("qwen2.5-vl", CoordinateSpace.QWEN25_ABSOLUTE, resize, image_scale)


def build_agent_messages(
    instruction: str,
    history: list[HistoryStep],
    screenshots: list[bytes],
    screen: ScreenSize,
    *,
    history_images: int = 2,
    resize: ResizeConfig = DEFAULT_RESIZE,
    variant: PromptVariant = DEFAULT_PROMPT_VARIANT,
    image_scale: float = 1.0,
) -> AgentRequest:
    """The request for the next step.

    ``screenshots`` line up with the steps from the end: the last one is the current screen (size
    ``screen``), the one before it was seen before ``history[-1]``, and so on; older ones may be left
    out. ``history_images`` is W, the number of screenshots sent, the current one included.
    """
    if history_images < 1:
        raise ValueError(f"history_images must be at least 1 (the current screen), got {history_images}")
    if not screenshots or len(screenshots) > len(history) + 1:
        raise ValueError(
            f"expected 1 to {len(history) + 1} screenshots (one per step plus the current screen), "
            f"got {len(screenshots)}"
        )
    space = _space(resize, image_scale)
    resized = space.image_size(screen)

    def image_part(index: int) -> dict[str, Any]:
        current = screen if index == len(history) else None
        return _image_part(screenshots[index - len(history) - 1], resized, current=current)

    shown = min(history_images, len(screenshots))
    messages = agent_conversation(
        instruction, history, screen, space, shown=shown, image_part=image_part, variant=variant
    )
    return AgentRequest(messages=messages, resized=resized)


def _image_part(data: bytes, resized: ScreenSize, *, current: ScreenSize | None) -> dict[str, Any]:
    """The screenshot as an inline PNG of exactly the resized size (re-encoded only when needed).

    ``current`` is the screen size the reply's coordinates will be mapped to; the current screenshot
    must have it, or every tap would land in the wrong place.
    """
    which = "the current screenshot" if current else "a history screenshot"
    size = image_size(data)
    if size is None:
        raise ValueError(f"{which} is not a readable image")
    if current is not None and size != (current.width, current.height):
        raise ValueError(f"{which} is {size[0]}x{size[1]}, but the screen is {current}")
    try:
        url = _prepared(data, resized.width, resized.height)
    except UnreadableImage as error:
        raise ValueError(f"{which} is {error}") from error  # is not a readable image (N bytes): why
    return {"type": "image_url", "image_url": {"url": url}}


def prepare_screenshot(data: bytes, resize: ResizeConfig = DEFAULT_RESIZE, image_scale: float = 1.0) -> None:
    """Decode, resize and encode a screenshot for the model ahead of time (the result is cached)."""
    size = png_header_size(data)
    if size and all(size):
        resized = resized_screen(ScreenSize(*size), resize, image_scale)
        _prepared(data, resized.width, resized.height)


@functools.lru_cache(maxsize=32)
def _prepared(data: bytes, width: int, height: int) -> str:
    """The data URL of a screenshot at the model's size. Cached: each step's screenshot is sent again as history
    in the next W-1 requests, and decoding and resizing it is most of a step's cost."""
    return data_url(resized_png(data, ScreenSize(width, height)))


def parse_agent_reply(text: str, resized: ScreenSize, screen: ScreenSize) -> AgentDecision:
    """Read the model's reply strictly; its coordinates (in ``resized`` pixels) come back in device pixels.

    ``problems`` holds the format problems, points outside the image the model saw and anything that
    makes the action impossible on this screen (:func:`validate_action`); ``action`` is None then.
    """
    parsed = parse_response(text, strict=True)
    problems = list(parsed.problems)
    if parsed.tool_call is None:
        return AgentDecision(parsed=parsed, action=None, problems=problems)
    action = action_from_tool_call(parsed.tool_call)
    outside = [
        f"arguments.{key}: ({point[0]}, {point[1]}) is outside the {resized} image the model saw"
        for key in POINT_KEYS
        if (point := getattr(action, key, None)) is not None and not _within(point, resized)
    ]
    if outside:
        return AgentDecision(parsed=parsed, action=None, problems=problems + outside)
    changes = {key: scale_point(getattr(action, key), resized, screen) for key in POINT_KEYS if hasattr(action, key)}
    device_action = replace(cast(Any, action), **changes)  # every Action subclass is a dataclass
    errors: list[ActionError] = validate_action(device_action, screen)
    if errors:
        return AgentDecision(parsed=parsed, action=None, problems=problems + [str(e) for e in errors])
    return AgentDecision(parsed=parsed, action=device_action, problems=problems)


def _within(point: tuple[float, float], size: ScreenSize) -> bool:
    return 0 <= point[0] <= size.width and 0 <= point[1] <= size.height
