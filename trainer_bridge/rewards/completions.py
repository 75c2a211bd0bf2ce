"""What every reward reads: the completion's text, its parse (cached), and the row's ground-truth columns.

TRL calls a reward as ``fn(prompts=..., completions=..., completion_ids=..., **dataset_columns)``: each column
is a list aligned with ``completions``. The `grpo-action` export (``trainer_bridge/export/grpo.py``) writes
``gt_action``/``gt_action_model`` as JSON strings and ``gt_bbox``/``gt_bbox_model`` as lists; a value given as
its JSON string is decoded here, so the rewards work on the Parquet/Arrow files and on hand-made rows alike.

Parsing is cached per completion string (``functools.lru_cache``): the rewards of one recipe read the same
completion several times per step, and a group of GRPO samples often repeats a completion.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from annotator.domain.actions import Action
from annotator.domain.paper_answers import action_of_answer, answer_text
from annotator.domain.paper_answers import loads as loads_answer
from trainer_bridge.rewards.mobile_parse import CACHE_SIZE, mobile_reply

COORDINATE_ACTIONS = ("click", "long_press", "swipe")
SIZE_COLUMNS = ("image_size", "image_width", "image_height")  # [w, h], or the export's two columns
# A predicted box is written as Qwen2.5-VL grounds ("bbox_2d", which InfiGUI-R1 trains on) or as "bbox".
_TOOL_CALL = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)
_BOX = re.compile(r'"bbox(?:_2d)?"\s*:\s*\[([^\[\]]*)\]')


def completion_text(completion: Any) -> str:
    """The text of a completion: a string, or the last assistant message of a chat (TRL's conversational form,
    whose content may itself be a list of ``{"type": "text", "text": ...}`` parts). Anything else is "".

    >>> completion_text([{"role": "assistant", "content": "<think>hi</think>"}])
    '<think>hi</think>'
    >>> completion_text([{"role": "assistant", "content": [{"type": "text", "text": "a"}]}]), completion_text(3)
    ('a', '')
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        completion = [completion]
    if not isinstance(completion, Sequence):
        return ""
    for message in reversed(completion):
        if isinstance(message, Mapping) and message.get("role", "assistant") == "assistant":
            return _content_text(message.get("content"))
    return ""


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        texts = [p.get("text") for p in content if isinstance(p, Mapping) and p.get("type", "text") == "text"]
        return "".join(text for text in texts if isinstance(text, str))
    return ""


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


@lru_cache(maxsize=CACHE_SIZE)
def answer_action(text: str) -> Action | None:
    """The action in the first `<answer>...</answer>` (UI-R1 / GUI-R1 format, `annotator.domain.paper_answers`:
    their vocabularies, a mobile_use call or its arguments; JSON or the papers' Python literal), or None."""
    answer = answer_text(text)
    return action_of_answer(loads_answer(answer)) if answer is not None else None


def predicted_action(text: str) -> Action | None:
    """The action a completion predicts: its valid `<tool_call>`, else its `<answer>`; None when neither.
    Not cached itself: each reading below is, and a second cache per completion costs more than the dispatch."""
    if "<tool_call>" in text:
        if "<action>" in text:  # a Mobile-R1 reply: its action as the strict parser reads it
            return mobile_reply(text).action
        return tool_call_action(text)  # InfiGUI-R1's `<think>` + call, or a bare call
    if "<answer>" in text:
        return answer_action(text)
    return None


@lru_cache(maxsize=CACHE_SIZE)
def tool_call_action(text: str) -> Action | None:
    """The action of the first `<tool_call>` on its own (InfiGUI-R1 writes `<think>` and the call, no `<action>`)."""
    match = _TOOL_CALL.search(text)
    return action_of_answer(_loads(match.group(1).strip())) if match else None


@lru_cache(maxsize=CACHE_SIZE)
def predicted_box(text: str) -> tuple[float, float, float, float] | None:
    """The first ``"bbox_2d": [x1, y1, x2, y2]`` (or ``"bbox"``) anywhere in the completion, corners in order.

    >>> predicted_box('<answer>{"bbox_2d": [1, 2, 30, 40]}</answer>'), predicted_box('"bbox": [3, 0, 1, 1]')
    ((1.0, 2.0, 30.0, 40.0), None)
    """
    match = _BOX.search(text)
    if not match:
        return None
    values = _loads(f"[{match.group(1)}]")
    return as_box(values)


def as_box(value: Any) -> tuple[float, float, float, float] | None:
    """Four finite numbers with x1 <= x2 and y1 <= y2, or None."""
    if not isinstance(value, (list, tuple)) or len(value) != 4 or not all(_number(v) for v in value):
        return None
    x1, y1, x2, y2 = (float(v) for v in value)
    return (x1, y1, x2, y2) if x1 <= x2 and y1 <= y2 else None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


@lru_cache(maxsize=CACHE_SIZE)
def _decoded(text: str) -> Any:
    return _loads(text)


def decoded(value: Any) -> Any:
    """A column value, its JSON string decoded (cached: a dataset repeats each row's truth per generation)."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        return _decoded(value)
    return value


@dataclass(frozen=True, slots=True)
class Truth:
    """One row's ground truth, in the completions' coordinate space."""

    action: Action | None
    action_type: str | None
    text: str | None
    box: tuple[float, float, float, float] | None
    image_size: tuple[float, float] | None

    @property
    def is_coordinate(self) -> bool:
        return self.action_type in COORDINATE_ACTIONS


@lru_cache(maxsize=CACHE_SIZE)
def _action_of_text(text: str) -> Action | None:
    return action_of_answer(_loads(text))


def _truth_action(value: Any) -> Action | None:
    return _action_of_text(value) if isinstance(value, str) else action_of_answer(value)


def _column(columns: Mapping[str, Any], model_name: str, plain_name: str) -> list[Any] | None:
    """The `_model` column when the dataset has it, else the plain one (taken to be in the completions' space)."""
    found = columns.get(model_name)
    return found if found is not None else columns.get(plain_name)


def _image_size(size: Any, width: Any, height: Any) -> tuple[float, float] | None:
    size = decoded(size)
    if size is None:  # what the export writes: the size of the image the model is shown
        size = (width, height)
    if isinstance(size, (list, tuple)) and len(size) == 2 and all(_number(v) and v > 0 for v in size):
        return (float(size[0]), float(size[1]))
    return None


def _per_row(column: Any, count: int) -> Sequence[Any]:
    """The column's value for each of `count` rows: None where it is missing or too short."""
    if isinstance(column, (list, tuple)):
        return column if len(column) >= count else [*column, *([None] * (count - len(column)))]
    return [None] * count


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value  # a box column holds lists of four numbers


def rows(completions: Sequence[Any], columns: Mapping[str, Any]) -> Iterator[tuple[str, Truth]]:
    """(completion text, ground truth) per row; values that do not parse become None. The image size is read
    only where the distance rule needs it (a coordinate truth without a box)."""
    count = len(completions)
    per_row = [
        _per_row(column, count)
        for column in (
            _column(columns, "gt_action_model", "gt_action"),
            columns.get("gt_action_type"),
            columns.get("gt_text"),
            _column(columns, "gt_bbox_model", "gt_bbox"),
            *(columns.get(name) for name in SIZE_COLUMNS),
        )
    ]
    for completion, action, action_type, text, box, size, width, height in zip(completions, *per_row, strict=False):
        values, size_values = (action, action_type, text, _hashable(box)), (size, width, height)
        try:  # TRL repeats a prompt's columns for each of its completions: their truth is read once
            truth = _cached_truth(values, size_values)
        except TypeError:  # a column of dicts (a dataset not from the export): read every time
            truth = _truth(values, size_values)
        yield completion_text(completion), truth


def _truth(values: tuple[Any, Any, Any, Any], size_values: tuple[Any, ...]) -> Truth:
    action_value, type_value, text, box_value = values
    action = _truth_action(action_value)
    action_type = action.name if action else type_value
    box = as_box(decoded(box_value))
    size = _image_size(*size_values) if box is None and action_type in COORDINATE_ACTIONS else None
    return Truth(
        action=action,
        action_type=action_type if isinstance(action_type, str) and action_type else None,
        text=text if isinstance(text, str) else None,
        box=box,
        image_size=size,
    )


_cached_truth = lru_cache(maxsize=CACHE_SIZE)(_truth)


# Every cache of the package, so that the benchmark can start each reward cold; modules add their own.
CACHES: list[Any] = [
    mobile_reply,
    answer_action,
    tool_call_action,
    predicted_box,
    _decoded,
    _action_of_text,
    _cached_truth,
]


def clear_caches() -> None:
    """Forget every cached parse (the benchmark times cold parsing)."""
    for cached in CACHES:
        cached.cache_clear()
