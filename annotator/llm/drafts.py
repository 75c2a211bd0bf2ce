"""Asking a model for a step's draft (pre-annotation) and reading its reply (`annotator.domain.drafts`).

The request is the collecting agent's (``annotator.llm.agent.build_agent_messages``: the prompt variant's system
prompt, the history, the screenshots resized as the agent sees them) with the screen's elements after the current
screenshot (``annotator.domain.draft_prompt``). The reply is read leniently (``parse_response(strict=False)``: a
part never closed, a fenced tool call, text outside the tags still give what they hold); its coordinates, in the
pixels of the image the model saw, come back in device pixels. A reply without a usable tool call is still a
draft, flagged with its `problem`, so that the step is not asked about again under this model and prompt; an
endpoint that fails raises ``LLMError`` and stores nothing, so a later run asks again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from annotator.domain.actions import ActionError, action_from_tool_call
from annotator.domain.agent_conversation import HistoryStep
from annotator.domain.coords import DEFAULT_RESIZE, CoordinateSpace
from annotator.domain.draft_prompt import draft_prompt_name, draft_prompt_sha256, screen_elements_text
from annotator.domain.drafts import Draft, action_matches
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.model_space import POINT_KEYS, ModelSpace, is_point
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PromptVariant
from annotator.domain.response import parse_response
from annotator.llm.agent import AgentRequest, build_agent_messages
from annotator.llm.client import LLMClient

# The agent's space: Qwen2.5-VL's absolute pixels of the smart_resized screenshot (annotator.llm.agent).
AGENT_SPACE = ModelSpace("qwen2.5-vl", CoordinateSpace.QWEN25_ABSOLUTE, DEFAULT_RESIZE)


@dataclass(frozen=True)
class StepToDraft:
    """What a draft request is made of, for one step (device pixels throughout)."""

    instruction: str
    history: list[HistoryStep]  # the steps before it, as they were carried out
    screenshots: list[bytes]  # the last one is the step's own screen; older ones line up with the history's end
    screen: ScreenSize
    elements: str  # the screen's elements (annotator.device.screen_text), "" when unknown
    executed: dict[str, Any]  # the tool call carried out at this step
    target: Box | None = None  # the executed action's element box, when known


@dataclass(frozen=True)
class ReadReply:
    """A reply read leniently: the stages it holds (tool call in device pixels), or why its tool call is unusable."""

    think: str | None
    action_text: str | None
    tool_call: dict[str, Any] | None
    problem: str | None


def draft_request(
    step: StepToDraft, *, history_images: int = 2, variant: PromptVariant = DEFAULT_PROMPT_VARIANT
) -> AgentRequest:
    """The chat messages that ask for a draft of `step`, and the image size the model is shown."""
    request = build_agent_messages(
        step.instruction,
        step.history,
        step.screenshots,
        step.screen,
        history_images=history_images,
        variant=variant,
    )
    last = request.messages[-1]
    last["content"] = [*last["content"], {"type": "text", "text": screen_elements_text(step.elements)}]
    return request


def read_draft_reply(text: str, screen: ScreenSize, space: ModelSpace = AGENT_SPACE) -> ReadReply:
    """The stages of a reply; `problem` says why there is no usable tool call (then `tool_call` is None)."""
    parsed = parse_response(text, strict=False)
    think, action_text = parsed.think or None, parsed.action or None
    if parsed.tool_call is None:
        found = "; ".join(parsed.problems) or "no <tool_call>"
        return ReadReply(think, action_text, None, f"no tool call could be read: {found}")
    try:
        action = action_from_tool_call(parsed.tool_call)
    except ActionError as error:
        return ReadReply(think, action_text, None, f"the tool call is not a valid action: {error}")
    tool_call, outside = _in_device_pixels(action.to_tool_call(), screen, space)
    if outside:
        return ReadReply(think, action_text, None, outside)
    return ReadReply(think, action_text, tool_call, None)


def _in_device_pixels(
    tool_call: dict[str, Any], screen: ScreenSize, space: ModelSpace
) -> tuple[dict[str, Any], str | None]:
    """The tool call with its points in device pixels, or why a point lies outside the image the model saw."""
    arguments = dict(tool_call["arguments"])
    image = space.image_size(screen)
    extent = space.extent(screen)
    for key in POINT_KEYS:
        point = arguments.get(key)
        if point is None or not is_point(point):
            continue
        if not (0 <= point[0] <= extent[0] and 0 <= point[1] <= extent[1]):
            return tool_call, f"arguments.{key}: ({point[0]}, {point[1]}) is outside the {image} image the model saw"
        arguments[key] = list(space.device_point(point, screen))
    return {**tool_call, "arguments": arguments}, None


def ask_for_draft(
    client: LLMClient,
    step: StepToDraft,
    *,
    history_images: int = 2,
    variant: PromptVariant = DEFAULT_PROMPT_VARIANT,
) -> Draft:
    """Ask the model about one step and return its draft (not stored; `id` None), matched against what was
    executed (InfiGUI-R1's rejection rule, ``domain.drafts.action_matches``). LLMError when the endpoint fails."""
    request = draft_request(step, history_images=history_images, variant=variant)
    reply = client.complete(request.messages)
    read = read_draft_reply(reply.text, step.screen)
    matches = read.tool_call is not None and action_matches(
        read.tool_call, step.executed, step.screen, target=step.target
    )
    return Draft(
        id=None,
        model=client.config.model,
        prompt_name=draft_prompt_name(variant),
        think=read.think,
        action_text=read.action_text,
        tool_call=read.tool_call,
        matches_executed=matches,
        problem=read.problem,
        prompt_sha256=draft_prompt_sha256(variant),
        reply=reply.text,
    )
