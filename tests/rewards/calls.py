"""Completions and ground-truth columns as the `grpo-action` export writes them, for the reward tests."""

from __future__ import annotations

import json
from typing import Any


def tool_call(action: str, **arguments: Any) -> dict[str, Any]:
    return {"name": "mobile_use", "arguments": {"action": action, **arguments}}


def mobile(action: str, think: str = "The button is at the top.", **arguments: Any) -> str:
    """A well-formed Mobile-R1 reply."""
    call = json.dumps(tool_call(action, **arguments), ensure_ascii=False)
    return f"<think>\n{think}\n</think>\n<action>\nDo it\n</action>\n<tool_call>\n{call}\n</tool_call>"


def answer(action: str, think: str = "Tap it.", **arguments: Any) -> str:
    """A well-formed UI-R1 / GUI-R1 reply."""
    return f"<think>{think}</think><answer>{json.dumps({'action': action, **arguments})}</answer>"


def infigui(action: str, think: str = "Tap it.", **arguments: Any) -> str:
    """A well-formed InfiGUI-R1 reply: the reasoning, then the mobile_use call."""
    call = json.dumps(tool_call(action, **arguments), ensure_ascii=False)
    return f"<think>{think}</think><tool_call>{call}</tool_call>"


def truth(action: str, box: list[float] | None = None, **arguments: Any) -> dict[str, list[Any]]:
    """One row's columns; the `_model` columns carry the values, as in an export."""
    text = next((str(arguments[k]) for k in ("text", "button", "status") if k in arguments), None)
    return {
        "gt_action": [json.dumps({"stale": "device pixels"})],  # must be ignored: the _model column wins
        "gt_action_model": [json.dumps(tool_call(action, **arguments), sort_keys=True)],
        "gt_action_type": [action],
        "gt_text": [text],
        "gt_bbox": [[-1.0, -1.0, -1.0, -1.0]],
        "gt_bbox_model": [box],
        "image_width": [1000],
        "image_height": [2000],
    }
