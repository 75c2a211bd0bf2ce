"""What the writers share: message parts, image placeholders, the rows' metadata and ground truth."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.sft import Sample, sample_metadata

IMAGE_TOKEN = "<image>"
# Column types by the names `datasets.Value` and `pyarrow.type_for_alias` share.
METADATA_TYPES = {
    "id": "string",
    "trajectory_uid": "string",
    "trajectory_id": "int64",
    "step_id": "int64",
    "position": "int32",
    "kind": "string",
    "app": "string",
    "instruction": "string",
    "screen_width": "int32",
    "screen_height": "int32",
    "image_width": "int32",
    "image_height": "int32",
    "review_status": "string",
    "judge_score": "int32",
}
GROUND_TRUTH_TYPES = {
    "gt_action": "string",
    "gt_action_model": "string",
    "gt_action_type": "string",
    "gt_text": "string",
    "gt_bbox_provenance": "string",
    "answer": "string",
}
BOX_COLUMNS = ("gt_bbox", "gt_bbox_model")  # lists of four float64, or null
TASK_TYPES = {
    "instruction_uid": "string",
    "package": "string",
    "start_package": "string",
    "start_activity": "string",
    "restart_app": "bool",
    "runs": "int32",
    "successes": "int32",
    "success_rate": "float64",
    "reference_trajectory_uid": "string",
    "reference_steps": "int32",
    "reference_actions": "string",
    "reference_actions_model": "string",
    "answer": "string",
}


def stage_features(stage: str) -> dict[str, Any]:
    """The `datasets` features of a stage's own columns (beside the metadata, prompt and images)."""
    from datasets import List, Value

    if stage == "grpo-action":
        return {name: Value(kind) for name, kind in GROUND_TRUTH_TYPES.items()} | {
            name: List(Value("float64")) for name in BOX_COLUMNS
        }
    if stage == "grpo-task":
        return {name: Value(kind) for name, kind in TASK_TYPES.items()}
    return {}


def parts(content: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Message content as a list of parts, each with both keys (`text` None for an image)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [{"type": part["type"], "text": part.get("text")} for part in content]


def with_paths(messages: list[dict[str, Any]], paths: Iterator[str]) -> list[dict[str, Any]]:
    """The messages with each image part naming its file, in order."""
    result = []
    for message in messages:
        content = message["content"]
        if isinstance(content, list):
            content = [{"type": "image", "image": next(paths)} if p["type"] == "image" else p for p in content]
        result.append({"role": message["role"], "content": content})
    return result


def flat_text(content: str | list[dict[str, Any]]) -> str:
    """A message's content as one string, each image an `<image>` token where it stands."""
    if isinstance(content, str):
        return content
    return "\n".join(IMAGE_TOKEN if part["type"] == "image" else part["text"] for part in content)


def columns(sample: Sample, space: ModelSpace) -> dict[str, Any]:
    """The metadata, and for a GRPO sample its ground truth and the labelled reply as `answer`."""
    row = sample_metadata(sample, space)
    if sample.ground_truth is not None:
        row |= sample.ground_truth | {"answer": sample.completion}
    return row
