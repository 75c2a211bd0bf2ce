"""Mobile-R1's action reward R_Act and the action-type reward of UI-R1 / GUI-R1."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from annotator.domain.actions import Action, Key, Swipe, normalize_key_name
from trainer_bridge.rewards.completions import Truth, predicted_action, rows
from trainer_bridge.rewards.geometry import DISTANCE_FRACTION, direction, in_box, within_distance

# What a grounded row was judged by; `grounding_rules` and the `stats` counter of `action_reward` use these names.
RULE_BOX, RULE_DISTANCE, RULE_NONE = "box", "distance", "none"


def _key_name(text: str) -> str:
    try:
        return normalize_key_name(text)
    except ValueError:
        return text  # not an adb key name: compared as written, so it matches only itself


def _arguments_match(predicted: Action, truth: Action) -> bool:
    """Exact match of a non-coordinate action and its argument, key names normalised (volume_up is
    KEYCODE_VOLUME_UP). `wait` matches on the action alone: its duration is how long to let the screen
    settle, not something the instruction asks for, and Mobile-R1's examples of arguments are text and buttons."""
    if isinstance(predicted, Key) and isinstance(truth, Key):
        return _key_name(predicted.text) == _key_name(truth.text)
    if predicted.name == "wait":
        return True
    return predicted == truth


def grounding_rule(truth: Truth) -> str | None:
    """How a row's coordinate is judged: in the element box, by the 14% distance rule (no box, but a labelled
    point and the image size), or not at all (neither); None for rows whose truth has no coordinate."""
    if not truth.is_coordinate:
        return None
    if truth.box is not None:
        return RULE_BOX
    if truth.action is not None and truth.image_size is not None:
        return RULE_DISTANCE
    return RULE_NONE


def _point_correct(point: Any, truth: Truth, rule: str, extent: tuple[float, float] | None, fraction: float) -> bool:
    if rule == RULE_BOX and truth.box is not None:
        return in_box(point, truth.box)
    target = getattr(truth.action, "coordinate", None)
    if rule == RULE_DISTANCE and target is not None and truth.image_size is not None:
        return within_distance(point, target, truth.image_size, extent, fraction)
    return False


def _coordinate_correct(
    predicted: Action, truth: Truth, rule: str, extent: tuple[float, float] | None, fraction: float
) -> bool:
    point = getattr(predicted, "coordinate", None)
    if point is None or not _point_correct(point, truth, rule, extent, fraction):
        return False
    if isinstance(predicted, Swipe) and isinstance(truth.action, Swipe):
        return direction(predicted.coordinate, predicted.coordinate2) == direction(
            truth.action.coordinate, truth.action.coordinate2
        )
    return True


def action_correct(
    predicted: Action | None,
    truth: Truth,
    extent: tuple[float, float] | None = None,
    fraction: float = DISTANCE_FRACTION,
) -> bool:
    """R_Act of one row as a bool (see :func:`action_reward`)."""
    if predicted is None or truth.action_type is None or predicted.name != truth.action_type:
        return False
    rule = grounding_rule(truth)
    if rule is not None:
        return _coordinate_correct(predicted, truth, rule, extent, fraction)
    return truth.action is not None and _arguments_match(predicted, truth.action)


def action_reward(
    completions: Sequence[Any],
    *,
    extent: tuple[float, float] | None = None,
    distance_fraction: float = DISTANCE_FRACTION,
    stats: Counter[str] | None = None,
    **columns: Any,
) -> list[float | None]:
    """Mobile-R1 R_Act (section 4.2.2, the first term of eq. 3, R_action = R_Act + R_Fmt).

    The predicted action must be the labelled action type. Coordinate actions (click, long_press): 1 when the
    predicted point lies in the target box, edges inclusive. Swipe: its start point in the box and the same
    direction (the larger of the horizontal and vertical movement). Other actions: 1 on an exact match of
    the argument (typed text, app, button, terminate status; key names normalised). A coordinate row with no
    box falls back to AndroidControl's rule: within ``distance_fraction`` (0.14, UI-AGILE 4.3 after OS-Atlas)
    of the image width from the labelled point; the image size comes from ``image_size`` or the export's
    ``image_width`` / ``image_height``; ``extent`` as in :func:`~trainer_bridge.rewards.geometry.within_distance`.
    ``stats``, a Counter, counts the rows judged by each rule ("box", "distance", "none"), so the distance
    rows can be reported apart; :func:`grounding_rules` gives the rule per row.

    >>> call = '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [10, 20]}}</tool_call>'
    >>> action_reward([call], gt_action=['{"name": "mobile_use", "arguments": {"action": "click",'
    ...     ' "coordinate": [12, 22]}}'], gt_bbox=[[0, 0, 10, 20]])
    [1.0]
    >>> rules = Counter()
    >>> action_reward([call], gt_action=['{"name": "mobile_use", "arguments": {"action": "click",'
    ...     ' "coordinate": [150, 20]}}'], gt_bbox=[None], image_size=[[1000, 2000]], stats=rules)
    [1.0]
    >>> rules
    Counter({'distance': 1})
    """
    scores: list[float | None] = []
    for text, truth in rows(completions, columns):
        if stats is not None:
            rule = grounding_rule(truth)
            if rule is not None:
                stats[rule] += 1
        correct = action_correct(predicted_action(text), truth, extent, distance_fraction)
        scores.append(1.0 if correct else 0.0)
    return scores


def grounding_rules(completions: Sequence[Any], **columns: Any) -> list[str | None]:
    """The rule :func:`action_reward` judges each row's coordinate by ("box", "distance", "none"), or None.

    >>> grounding_rules(["", ""], gt_action_type=["click", "type"], gt_bbox=[[0, 0, 1, 1], None])
    ['box', None]
    """
    return [grounding_rule(truth) for _, truth in rows(completions, columns)]


def _type_key(name: str | None, button: str | None) -> str | None:
    # Back, Home, Menu and Enter are one `system_button` type in this action space, while the papers' action
    # spaces have them as types of their own; the button is part of the type so both mean the same.
    return f"system_button:{button}" if name == "system_button" else name


def action_type_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
    """UI-R1 R_T (a term of eq. 2) and GUI-R1 R_act: 1 when the predicted action type equals the labelled one, else 0;
    for `system_button` the button must match too (UI-R1's Back and Home are types of their own). The
    labelled type is the ground-truth action's, else ``gt_action_type`` (with ``gt_text`` as the button).

    >>> call = '<answer>{"action": "system_button", "button": "Back"}</answer>'
    >>> action_type_reward([call, call], gt_action_type=["system_button"] * 2, gt_text=["Back", "Home"])
    [1.0, 0.0]
    """
    scores: list[float | None] = []
    for text, truth in rows(completions, columns):
        predicted = predicted_action(text)
        if truth.action_type is None:
            scores.append(None)
            continue
        truth_button = getattr(truth.action, "button", None) if truth.action else truth.text
        wanted = _type_key(truth.action_type, truth_button)
        got = _type_key(predicted.name, getattr(predicted, "button", None)) if predicted else None
        scores.append(1.0 if got == wanted else 0.0)
    return scores
