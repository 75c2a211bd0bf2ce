"""Grounding rewards: the point in the target box (binary and continuous) and the IoU of a predicted box.

Rows whose labelled action has no coordinate, or that have no target box, are not applicable (None): TRL then
leaves the reward out of that row's sum instead of counting a zero the model could not have avoided.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from trainer_bridge.rewards.completions import predicted_action, predicted_box, rows
from trainer_bridge.rewards.geometry import chebyshev_from_centre, in_box, iou

IOU_THRESHOLD = 0.7  # InfiGUI-R1 section 4.1: tau_IoU = 0.7


def _point(text: str) -> tuple[float, float] | None:
    action = predicted_action(text)
    point = getattr(action, "coordinate", None)
    return (float(point[0]), float(point[1])) if point is not None else None


def point_in_box_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
    """UI-R1 R_C (eq. 3), GUI-R1 R_point, InfiGUI-R1 R_point: 1 when the predicted point lies in the target
    box, edges inclusive, else 0. Any predicted action with a ``coordinate`` counts (the action type is scored
    by :func:`action_type_reward`); None for rows without a coordinate truth or without a box.

    >>> box = {"gt_action_type": ["click"], "gt_bbox": [[10, 10, 20, 20]]}
    >>> point_in_box_reward(['<answer>{"action": "click", "coordinate": [20, 15]}</answer>'], **box)
    [1.0]
    >>> point_in_box_reward(['<answer>{"action": "click", "coordinate": [21, 15]}</answer>'], **box)
    [0.0]
    >>> point_in_box_reward(["no answer"], gt_action_type=["type"], gt_bbox=[None])
    [None]
    """
    scores: list[float | None] = []
    for text, truth in rows(completions, columns):
        if not truth.is_coordinate or truth.box is None:
            scores.append(None)
            continue
        point = _point(text)
        scores.append(1.0 if point is not None and in_box(point, truth.box) else 0.0)
    return scores


def continuous_grounding(point: tuple[float, float] | None, box: tuple[float, float, float, float]) -> float:
    """UI-AGILE eq. 3: 1 + exp(-4 d^2) inside the box (2 at the centre, 1 + e^-4 on the edge), 0 outside."""
    if point is None or not in_box(point, box):
        return 0.0
    distance = chebyshev_from_centre(point, box)
    return 1.0 + math.exp(-4.0 * distance * distance)


def continuous_grounding_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
    """UI-AGILE eq. 3-4, the continuous grounding reward: 1 + exp(-4 d_norm^2) when the predicted point is in
    the target box, d_norm the Chebyshev distance from the box centre divided by the half width and half
    height (eq. 4); 0 outside. Ranges over [0, 2]; None for rows without a coordinate truth or a box.

    >>> box = {"gt_action_type": ["click"], "gt_bbox": [[0, 0, 20, 10]]}
    >>> continuous_grounding_reward(['<answer>{"action": "click", "coordinate": [10, 5]}</answer>'], **box)
    [2.0]
    >>> round(continuous_grounding_reward(['<answer>{"action": "click", "coordinate": [15, 5]}</answer>'],
    ...     **box)[0], 6)  # d = 0.5: 1 + exp(-1)
    1.367879
    >>> continuous_grounding_reward(['<answer>{"action": "click", "coordinate": [25, 5]}</answer>'], **box)
    [0.0]
    """
    scores: list[float | None] = []
    for text, truth in rows(completions, columns):
        if not truth.is_coordinate or truth.box is None:
            scores.append(None)
            continue
        scores.append(continuous_grounding(_point(text), truth.box))
    return scores


def iou_reward(
    completions: Sequence[Any], *, iou_threshold: float = IOU_THRESHOLD, **columns: Any
) -> list[float | None]:
    """InfiGUI-R1 R_bbox (section 3.2.1): 1 when IoU(B_pred, B_gt) >= tau, else IoU / tau; tau = 0.7 as the
    paper sets it (``iou_threshold``).

    The predicted box is written as Qwen2.5-VL writes grounding, ``"bbox_2d": [x1, y1, x2, y2]`` (``"bbox"``
    is read too), anywhere in the completion: inside `<answer>` for the UI-R1/GUI-R1 format, or in the
    `<action>` or `<think>` text of Mobile-R1's (the mobile_use tool call has no box argument). No box
    written, or corners out of order, scores 0. None for rows without a target box.

    >>> truth = {"gt_bbox": [[0, 0, 10, 10]]}
    >>> iou_reward(['<answer>{"bbox_2d": [0, 0, 10, 7]}</answer>'], **truth)  # IoU = 0.7 = tau
    [1.0]
    >>> iou_reward(['<answer>{"bbox_2d": [0, 0, 10, 3.5]}</answer>'], **truth)  # IoU 0.35 -> 0.35 / 0.7
    [0.5]
    >>> iou_reward(['<answer>{"bbox_2d": [10, 10, 0, 0]}</answer>', "none"], **truth | {"gt_bbox": [None, None]})
    [None, None]
    """
    scores: list[float | None] = []
    for text, truth in rows(completions, columns):
        if truth.box is None:
            scores.append(None)
            continue
        box = predicted_box(text)
        overlap = iou(box, truth.box) if box is not None else 0.0
        # Compared with a tolerance: 7/10 in floats is 0.7000000000000001 or 0.6999999999999998 by the order
        # of operations, and IoU exactly tau must score 1 as the equation says.
        scores.append(1.0 if overlap >= iou_threshold - 1e-12 else overlap / iou_threshold)
    return scores
