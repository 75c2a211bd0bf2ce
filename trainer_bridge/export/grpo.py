"""Stage `grpo-action` (Mobile-R1 stage 2): the SFT prompt, and the ground truth the action rewards check.

Mobile-R1's action reward is 1 when a predicted click lands in the target element's box, or when a
non-coordinate action and its argument (the text typed, the button pressed) match exactly. So each row carries
the labelled tool call (`gt_action`, device pixels, and `gt_action_model`, in the model's space), its action
type, the target box (`gt_bbox`, `gt_bbox_model`: the one a person drew or accepted, else the one suggested from
the screen's elements, `domain.target_box`; None without either) and where it came from (`gt_bbox_provenance`),
the argument to match (`gt_text`) and the labelled reply as `answer`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from annotator.domain.model_space import ModelSpace
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PromptVariant
from trainer_bridge.export.record import TrainingRecord
from trainer_bridge.export.sft import Sample, sft_sample

TEXT_ARGUMENTS = ("text", "button", "status")  # what a non-coordinate action is matched on, in this order


def _as_json(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def ground_truth(record: TrainingRecord, space: ModelSpace) -> dict[str, Any]:
    arguments = record.tool_call.get("arguments", {})
    box = record.target_box
    return {
        "gt_action": _as_json(record.tool_call),
        "gt_action_model": _as_json(space.tool_call(record.tool_call, record.screen)),
        "gt_action_type": str(arguments.get("action", "")),
        "gt_bbox": [box.x1, box.y1, box.x2, box.y2] if box else None,
        "gt_bbox_model": space.box(box, record.screen) if box else None,
        "gt_bbox_provenance": str(record.box_provenance),  # annotator, hierarchy (suggested) or none
        "gt_text": next((str(arguments[key]) for key in TEXT_ARGUMENTS if key in arguments), None),
    }


def grpo_action_sample(
    record: TrainingRecord, space: ModelSpace, history_images: int, variant: PromptVariant = DEFAULT_PROMPT_VARIANT
) -> Sample:
    sample = sft_sample(record, space, history_images, variant)
    return replace(sample, ground_truth=ground_truth(record, space))
