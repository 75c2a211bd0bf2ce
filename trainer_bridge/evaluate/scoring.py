"""One reply against its step's ground truth: the per-step facts the metrics count (annotator.domain.evaluation).

The rules are the rewards' own (`trainer_bridge.rewards`), so a step an evaluation counts as right is a step the
GRPO action reward pays 1 for: format as R_Fmt, type as UI-R1's R_T, exact match as Mobile-R1's R_Act (the point
in the target box). Grounding and the step success rate use the AndroidControl protocol (OS-Atlas, UI-AGILE
4.3): a point within 14% of the screen width of the labelled point, whatever the box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import POINT_KEYS, ModelSpace, is_point
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PromptVariant
from trainer_bridge.rewards.action import action_reward, action_type_reward
from trainer_bridge.rewards.completions import COORDINATE_ACTIONS, decoded, predicted_action
from trainer_bridge.rewards.format import VARIANT_FORMATS
from trainer_bridge.rewards.geometry import within_distance


@dataclass(frozen=True)
class ReplyScore:
    format_ok: bool
    type_match: bool
    exact_match: bool
    grounded: bool | None
    step_success: bool
    predicted: dict[str, Any] | None  # the predicted tool call in device pixels, None when there is none


def _columns(truth: dict[str, Any], image: ScreenSize) -> dict[str, Any]:
    return {name: [value] for name, value in truth.items()} | {"image_size": [[image.width, image.height]]}


def device_tool_call(reply: str, space: ModelSpace, screen: ScreenSize) -> dict[str, Any] | None:
    """The reply's tool call (from its `<tool_call>`, else its `<answer>`) with its points in device pixels."""
    action = predicted_action(reply)
    if action is None:
        return None
    call = action.to_tool_call()
    arguments = dict(call["arguments"])
    for key in POINT_KEYS:
        if is_point(arguments.get(key)):
            arguments[key] = list(space.device_point(arguments[key], screen))
    return {**call, "arguments": arguments}


def _grounded(reply: str, truth: dict[str, Any], space: ModelSpace, screen: ScreenSize) -> bool | None:
    if truth.get("gt_action_type") not in COORDINATE_ACTIONS:
        return None
    predicted = predicted_action(reply)
    point = getattr(predicted, "coordinate", None)
    labelled = truth_point(truth)
    if point is None or labelled is None:
        return False
    image = space.image_size(screen)
    extent = space.extent(screen)
    return within_distance(point, labelled, (image.width, image.height), extent)


def truth_point(truth: dict[str, Any]) -> Any:
    """The labelled action's point in the model's space, None when it has none."""
    call = decoded(truth.get("gt_action_model") or truth.get("gt_action"))
    arguments = call.get("arguments") if isinstance(call, dict) else None
    point = arguments.get("coordinate") if isinstance(arguments, dict) else None
    return point if is_point(point) else None


def score_reply(
    reply: str,
    truth: dict[str, Any],
    space: ModelSpace,
    screen: ScreenSize,
    variant: PromptVariant = DEFAULT_PROMPT_VARIANT,
) -> ReplyScore:
    """`truth`: the grpo-action columns of the step (`trainer_bridge.export.grpo.ground_truth`); `screen`: the
    step's screenshot size; `variant`: the prompt the model was asked with, whose answer format is scored.
    Never raises on a malformed reply: it scores False everywhere."""
    image = space.image_size(screen)
    columns = _columns(truth, image)
    by_distance = columns | {"gt_bbox": [None], "gt_bbox_model": [None]}
    return ReplyScore(
        format_ok=VARIANT_FORMATS[variant]([reply])[0] == 1.0,
        type_match=action_type_reward([reply], **columns)[0] == 1.0,
        exact_match=action_reward([reply], extent=space.extent(screen), **columns)[0] == 1.0,
        grounded=_grounded(reply, truth, space, screen),
        step_success=action_reward([reply], extent=space.extent(screen), **by_distance)[0] == 1.0,
        predicted=device_tool_call(reply, space, screen),
    )
