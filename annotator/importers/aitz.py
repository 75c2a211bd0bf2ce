"""Android-in-the-Zoo (AITZ, github.com/IMNearth/CoAT): AITW episodes with Chain-of-Action-Thought labels.

As published, each episode is one JSON file, a list of its steps, with its screenshots beside it:
``<split>/<subset>/<SUBSET-id>/<SUBSET-id>.json`` and ``..._<step>.png``; a step's ``image_path`` is relative
to the split folder (``general/GENERAL-123/GENERAL-123_0.png``). A step has ``episode_id``, ``step_id``,
``instruction``, ``image_path``, ``result_action_type`` (AITW's action types), ``result_touch_yx`` and
``result_lift_yx`` (JSON text ``"[y, x]"``, normalised 0-1, ``[-1, -1]`` when unused), ``result_action_text``
(what was typed) and the CoAT labels ``coat_screen_desc``, ``coat_action_think``, ``coat_action_desc`` and
``coat_action_result``.

Mapping: a dual-point gesture (4) whose touch and lift lie within AITW's tap distance (0.04 of the screen) is
a click at the touch point, any other is a swipe from touch to lift; 3 types ``result_action_text``; 5, 6, 7
press Back, Home, Enter; 10 and 11 terminate with success and failure. ``coat_action_think`` is the think,
``coat_action_desc`` the action text; the screen description and the action result stay in the step's flags.
``ui_positions`` (AITW's element boxes, JSON text of ``[[y, x, height, width], ...]``) give the suggested target
box of a click or swipe: the smallest element box under its point (`domain.target_box`). As published they are in
pixels of the screenshot (AITZ's own evaluation reads them so, and enlarges each 1.2x when it checks a click; the
suggestion keeps the element's own box); a list whose every value lies in 0-1 is read as fractions of the screen,
as some conversions write it. A value that cannot be read suggests nothing and is noted in the step's flags.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from annotator.domain.actions import Action, Click, Swipe, SystemButton, Terminate, Type, check_action
from annotator.domain.coords import CoordinateSpace
from annotator.domain.geometry import ScreenSize
from annotator.domain.target_box import ElementBox, suggest_box
from annotator.importers.episode import (
    EpisodeError,
    SourceEpisode,
    SourceStep,
    device_point,
    find_image,
    image_header_size,
    json_files,
    load_json,
    optional_text,
    read_episodes,
    required,
    source_id,
)

SOURCE = "aitz"
ELEMENTS_SOURCE = "aitz ui_positions"
TAP_DISTANCE = 0.04  # AITW's _SWIPE_DISTANCE_THRESHOLD: closer touch and lift points make a tap
BUTTONS = {5: "Back", 6: "Home", 7: "Enter"}
STATUSES = {10: "success", 11: "failure"}
KNOWN_TYPES = "3 type, 4 dual point, 5 back, 6 home, 7 enter, 10 complete, 11 impossible"


def count_aitz(path: Path) -> int:
    """How many episodes the files under `path` hold (a file that cannot be read counts as one)."""
    total = 0
    for file in json_files(path):
        try:
            data = load_json(file)
        except EpisodeError:
            total += 1
            continue
        steps = data if isinstance(data, list) else []
        ids = {source_id(step.get("episode_id")) for step in steps if isinstance(step, dict)}
        total += max(1, len(ids))
    return total


def read_aitz(
    path: Path, *, images: Path | None = None, app: str | None = None
) -> Iterator[SourceEpisode | EpisodeError]:
    """The episodes of an AITZ file, or of every .json file under a folder."""
    return read_episodes(json_files(path), partial(_read_file, images=images, app=app))


def _read_file(file: Path, images: Path | None, app: str | None) -> Iterator[SourceEpisode | EpisodeError]:
    data = load_json(file)
    if not isinstance(data, list) or not data:
        raise EpisodeError(file, "expected a non-empty JSON list of steps (one AITZ episode)")
    episodes: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for position, record in enumerate(data):
        if not isinstance(record, dict):
            raise EpisodeError(file, f"item {position} of the list is not a step object")
        episode_id = source_id(record.get("episode_id"))
        if episode_id is None:
            raise EpisodeError(file, f"item {position}: episode_id missing or not an id")
        episodes.setdefault(episode_id, []).append((position, record))
    for episode_id, records in episodes.items():
        try:
            yield _episode(file, episode_id, records, images, app)
        except EpisodeError as error:
            yield error


def _episode(
    file: Path, episode_id: str, records: list[tuple[int, dict[str, Any]]], images: Path | None, app: str | None
) -> SourceEpisode:
    ordered = []
    for position, record in records:
        try:
            number = required(record, "step_id", int, "the step number")
        except ValueError as error:
            raise EpisodeError(file, str(error), episode=episode_id, step=f"at list position {position}") from None
        ordered.append((number, record))
    ordered.sort(key=lambda item: item[0])
    numbers = [number for number, _ in ordered]
    if len(set(numbers)) != len(numbers):
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        raise EpisodeError(file, f"step_id {repeated[0]} appears more than once", episode=episode_id)
    first = ordered[0][1]
    try:
        instruction = required(first, "instruction", str, "the task instruction").strip()
        if not instruction:
            raise ValueError("instruction: empty")
    except ValueError as error:
        raise EpisodeError(file, str(error), episode=episode_id, step=numbers[0]) from None
    steps = []
    for number, record in ordered:
        try:
            steps.append(_step(file, number, record, images))
        except ValueError as error:  # ActionError is one too
            raise EpisodeError(file, str(error), episode=episode_id, step=number) from None
    subset = _subset(first.get("image_path"))
    return SourceEpisode(
        source=SOURCE,
        episode_id=episode_id,
        file=file,
        app=app or (f"AITZ {subset}" if subset else "AITZ"),
        instruction=instruction,
        steps=tuple(steps),
        details={"subset": subset, "episode_length": first.get("episode_length")},
    )


def _subset(image_path: Any) -> str | None:
    """The AITZ subset (general, google_apps, install, single, web_shopping): the first folder of image_path."""
    parts = PurePosixPath(image_path).parts if isinstance(image_path, str) else ()
    return parts[0] if len(parts) > 1 else None


def _step(file: Path, number: int, record: dict[str, Any], images: Path | None) -> SourceStep:
    image_name = required(record, "image_path", str, "the screenshot's path")
    image = find_image(image_name, file, images)
    screen = image_header_size(image)
    action_type = required(record, "result_action_type", int, f"an AITW action type ({KNOWN_TYPES})")
    action = check_action(_action(record, action_type, screen), screen)
    elements, elements_error = _elements(record.get("ui_positions"), screen)
    source_keys = ("result_action_type", "result_touch_yx", "result_lift_yx", "result_action_text")
    notes = {
        "screen_desc": optional_text(record, "coat_screen_desc"),
        "action_result": optional_text(record, "coat_action_result"),
        "image_path": image_name,
        "ui_positions_error": elements_error,
    }
    return SourceStep(
        number=number,
        screenshot=image,
        screen=screen,
        action=action,
        source_action={key: record[key] for key in source_keys if key in record},
        think=optional_text(record, "coat_action_think"),
        action_text=optional_text(record, "coat_action_desc"),
        notes={key: value for key, value in notes.items() if value is not None},
        suggested_box=suggest_box(elements, action.to_tool_call(), ELEMENTS_SOURCE),
    )


def _action(record: dict[str, Any], action_type: int, screen: ScreenSize) -> Action:
    if action_type == 4:
        touch, lift = _yx(record, "result_touch_yx"), _yx(record, "result_lift_yx")
        start = device_point((touch[1], touch[0]), CoordinateSpace.NORMALIZED, screen, "result_touch_yx")
        if math.dist(touch, lift) <= TAP_DISTANCE:
            return Click(start)
        end = device_point((lift[1], lift[0]), CoordinateSpace.NORMALIZED, screen, "result_lift_yx")
        return Swipe(start, end)
    if action_type == 3:
        return Type(required(record, "result_action_text", str, "the typed text"))
    if action_type in BUTTONS:
        return SystemButton(BUTTONS[action_type])
    if action_type in STATUSES:
        return Terminate(STATUSES[action_type])
    raise ValueError(f"result_action_type: {action_type} is not an AITW action type ({KNOWN_TYPES})")


def _yx(record: dict[str, Any], key: str) -> tuple[float, float]:
    """A ``[y, x]`` point, written as JSON text (as published) or as a list."""
    value = record.get(key)
    if value is None:
        raise ValueError(f"{key}: missing; a dual-point gesture needs [y, x] in 0-1")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (json.JSONDecodeError, RecursionError):  # the decoder recurses once per level of a hostile nesting
            raise ValueError(f"{key}: {value[:40]!r} is not a JSON [y, x] pair") from None
    numbers = isinstance(value, list) and len(value) == 2
    if not numbers or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise ValueError(f"{key}: {json.dumps(value)[:40]} is not a [y, x] pair of numbers")
    return float(value[0]), float(value[1])


def _elements(value: Any, screen: ScreenSize) -> tuple[list[ElementBox], str | None]:
    """The element boxes of `ui_positions` in device pixels, and why none could be read (None when fine)."""
    if value in (None, "", "[]", []):
        return [], None
    try:
        boxes = [_yxhw(box) for box in (json.loads(value) if isinstance(value, str) else value)]
        scale = _scale(boxes, screen)
        elements = [_element(box, scale, order) for order, box in enumerate(boxes)]
    except (json.JSONDecodeError, TypeError, ValueError, RecursionError) as error:  # RecursionError: nested deep
        return [], f"ui_positions: {str(value)[:60]!r} is not a list of [y, x, height, width] ({error})"
    return elements, None


def _yxhw(box: Any) -> tuple[float, float, float, float]:
    y, x, height, width = (float(v) for v in box)  # ValueError or TypeError when it is not four numbers
    if not all(math.isfinite(v) and v >= 0 for v in (y, x, height, width)):
        raise ValueError("a negative or non-finite value")
    return y, x, height, width


def _scale(boxes: list[tuple[float, float, float, float]], screen: ScreenSize) -> tuple[float, float]:
    """Device pixels per unit of x and of y: 1 for screenshot pixels (as published), the screen's size for 0-1."""
    if all(v <= 1 for box in boxes for v in box):
        return float(screen.width), float(screen.height)
    slack = 2  # a box may end a pixel or two past the edge after the source's own rounding
    for y, x, height, width in boxes:
        if x + width > screen.width + slack or y + height > screen.height + slack:
            raise ValueError(f"a box ends outside the {screen.width}x{screen.height} screenshot")
    return 1.0, 1.0


def _element(box: tuple[float, float, float, float], scale: tuple[float, float], order: int) -> ElementBox:
    (y, x, height, width), (sx, sy) = box, scale
    left, top, right, bottom = round(x * sx), round(y * sy), round((x + width) * sx), round((y + height) * sy)
    return ElementBox((left, top, right, bottom), order=order)
