"""GUI-Odyssey (github.com/OpenGVLab/GUI-Odyssey): cross-app episodes recorded by people on Android emulators.

As published, ``data/annotations/<episode_id>.json`` holds one episode and ``data/screenshots/`` every
screenshot (a step names its file). An episode has ``episode_id``, ``device_info`` (``w``, ``h``,
``device_name``, ...), ``task_info`` (``app``: the apps used, ``instruction``, ``task``, ``category``,
``meta_task``) and ``steps``, each with ``step``, ``screenshot``, ``action``, ``info`` and, in the 2025
version, ``intention``, ``low_level_instruction``, ``description``, ``context`` and ``sam2_bbox``. Points are
0-1000 on each axis.

Mapping: CLICK and LONG_PRESS take ``info``'s first [x, y] (or press KEY_HOME / KEY_BACK / KEY_APPSELECT);
SCROLL is a swipe from its first to its second point; TEXT (TYPE in the documentation) types ``info``;
COMPLETE and INCOMPLETE (IMPOSSIBLE in the first version) terminate with success and failure; HOME / BACK and
the KEY_ names press those buttons; the recent-apps key is ``key KEYCODE_APP_SWITCH``. ``intention`` is the
think, ``low_level_instruction`` the action text, ``sam2_bbox`` the suggested target box (SAM2's, not a person's).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from annotator.domain.actions import Action, Click, Key, LongPress, Swipe, SystemButton, Terminate, Type, check_action
from annotator.domain.coords import CoordinateSpace
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.target_box import SuggestedBox
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

SOURCE = "gui-odyssey"
SAM2_SOURCE = "gui-odyssey sam2_bbox"
SPACE = CoordinateSpace.QWEN2_RELATIVE  # 0-1000 on each axis, as GUI-Odyssey writes points
KEYS: dict[str, Action] = {
    "KEY_HOME": SystemButton("Home"),
    "HOME": SystemButton("Home"),
    "KEY_BACK": SystemButton("Back"),
    "BACK": SystemButton("Back"),
    "KEY_APPSELECT": Key("KEYCODE_APP_SWITCH"),
    "KEY_RECENT": Key("KEYCODE_APP_SWITCH"),
    "APPSELECT": Key("KEYCODE_APP_SWITCH"),
    "RECENT": Key("KEYCODE_APP_SWITCH"),
}
STATUSES = {"COMPLETE": "success", "INCOMPLETE": "failure", "IMPOSSIBLE": "failure"}
KNOWN = "CLICK, LONG_PRESS, SCROLL, TEXT, COMPLETE, INCOMPLETE, KEY_HOME, KEY_BACK, KEY_APPSELECT"


def episode_files(path: Path) -> list[Path]:
    """The annotation files: `path` itself, its `annotations` folder when it has one, or its .json files."""
    if path.is_dir() and (path / "annotations").is_dir():
        return json_files(path / "annotations")
    return json_files(path)


def count_gui_odyssey(path: Path) -> int:
    total = 0
    for file in episode_files(path):
        try:
            data = load_json(file)
        except EpisodeError:
            data = None
        total += len(data) if isinstance(data, list) and data else 1
    return total


def read_gui_odyssey(
    path: Path, *, images: Path | None = None, app: str | None = None
) -> Iterator[SourceEpisode | EpisodeError]:
    """The episodes of a GUI-Odyssey annotation file (one episode, or a list of them) or folder."""
    return read_episodes(episode_files(path), partial(_read_file, images=images, app=app))


def _read_file(file: Path, images: Path | None, app: str | None) -> Iterator[SourceEpisode | EpisodeError]:
    data = load_json(file)
    records = data if isinstance(data, list) else [data]
    for position, record in enumerate(records):
        try:
            yield _episode(file, record, position if isinstance(data, list) else None, images, app)
        except EpisodeError as error:
            yield error


def _episode(file: Path, record: Any, position: int | None, images: Path | None, app: str | None) -> SourceEpisode:
    where = f"item {position} " if position is not None else ""
    if not isinstance(record, dict):
        raise EpisodeError(file, f"{where}is not an episode object (with episode_id, task_info and steps)")
    episode_id = source_id(record.get("episode_id"))
    if episode_id is None:
        raise EpisodeError(file, f"{where}episode_id: missing or not an id")
    try:
        task = required(record, "task_info", dict, "an object with the task's app and instruction")
        apps = task.get("app") or []
        apps = [apps] if isinstance(apps, str) else apps
        if not isinstance(apps, list) or not all(isinstance(a, str) for a in apps):
            raise ValueError(f"task_info.app: {json.dumps(apps)[:60]} is not a list of app names")
        instruction = optional_text(task, "instruction") or optional_text(task, "task")
        if instruction is None:
            raise ValueError("task_info.instruction: missing or empty (and no task_info.task either)")
        device = record.get("device_info") if isinstance(record.get("device_info"), dict) else {}
        steps = required(record, "steps", list, "the list of steps")
        if not steps:
            raise ValueError("steps: empty; an episode needs at least one step")
    except ValueError as error:
        raise EpisodeError(file, str(error), episode=episode_id) from None
    parsed = []
    for position_in_list, step in enumerate(steps):
        number = step.get("step", position_in_list) if isinstance(step, dict) else position_in_list
        try:
            if not isinstance(step, dict):
                raise ValueError("is not a step object")
            parsed.append(_step(file, number, step, images))
        except ValueError as error:
            raise EpisodeError(file, str(error), episode=episode_id, step=number) from None
    keep = ("category", "meta_task", "task", "app")
    return SourceEpisode(
        source=SOURCE,
        episode_id=episode_id,
        file=file,
        app=app or (apps[0] if apps else "GUI-Odyssey"),
        instruction=instruction,
        steps=tuple(parsed),
        details={"task_info": {k: task[k] for k in keep if k in task}, "device_info": device},
    )


def _step(file: Path, number: Any, step: dict[str, Any], images: Path | None) -> SourceStep:
    image_name = required(step, "screenshot", str, "the screenshot's file name")
    image = find_image(image_name, file, images)
    screen = image_header_size(image)
    name = required(step, "action", str, f"an action name ({KNOWN})").strip().upper()
    info = step.get("info", "")
    action = check_action(_action(name, info, screen), screen)
    notes = {key: step[key] for key in ("description", "context", "ps", "sam2_bbox") if step.get(key) not in (None, "")}
    return SourceStep(
        number=number,
        screenshot=image,
        screen=screen,
        action=action,
        source_action={"action": step["action"], "info": info},
        think=optional_text(step, "intention"),
        action_text=optional_text(step, "low_level_instruction"),
        suggested_box=_suggested(step.get("sam2_bbox"), screen) if isinstance(action, (Click, LongPress)) else None,
        notes=notes,
    )


def _action(name: str, info: Any, screen: ScreenSize) -> Action:
    key = info.strip().upper() if isinstance(info, str) else None
    if name in ("CLICK", "LONG_PRESS") and key in KEYS:
        return KEYS[key]
    if name in ("CLICK", "LONG_PRESS"):
        point = device_point(_points(info, 1)[0], SPACE, screen, "info")
        return Click(point) if name == "CLICK" else LongPress(point)
    if name == "SCROLL":
        start, end = _points(info, 2)[:2]
        return Swipe(device_point(start, SPACE, screen, "info[0]"), device_point(end, SPACE, screen, "info[1]"))
    if name in ("TEXT", "TYPE"):
        if not isinstance(info, str):
            raise ValueError(f"info: {json.dumps(info)[:60]} is not the text to type")
        return Type(info)
    if name in STATUSES:
        return Terminate(STATUSES[name])
    if name in KEYS:
        return KEYS[name]
    raise ValueError(f"action: {name!r} is not a GUI-Odyssey action ({KNOWN})")


def _points(info: Any, needed: int) -> list[list[float]]:
    """``info``'s points: ``[[x, y], ...]`` (or one bare ``[x, y]``, or either as JSON text), at least `needed`."""
    if isinstance(info, str) and info.lstrip().startswith("["):
        # else reported below as not a list of points (RecursionError: nested too deep for the decoder)
        with contextlib.suppress(json.JSONDecodeError, RecursionError):
            info = json.loads(info)
    points = [info] if isinstance(info, list) and len(info) == 2 and not isinstance(info[0], list) else info
    if not isinstance(points, list) or len(points) < needed:
        raise ValueError(f"info: {json.dumps(info)[:60]} is not a list of {needed} [x, y] point(s) in 0-1000")
    return points


def _suggested(value: Any, screen: ScreenSize) -> SuggestedBox | None:
    """sam2_bbox ([x1, y1, x2, y2], 0-1000) in device pixels, as a suggestion (SAM2 drew it, not a person); None
    when the step has none."""
    if value in (None, "", []):
        return None
    if not isinstance(value, list) or len(value) != 4:
        raise ValueError(f"sam2_bbox: {json.dumps(value)[:60]} is not [x1, y1, x2, y2] in 0-1000")
    x1, y1 = device_point(value[:2], SPACE, screen, "sam2_bbox")
    x2, y2 = device_point(value[2:], SPACE, screen, "sam2_bbox")
    if x1 > x2 or y1 > y2:
        raise ValueError(f"sam2_bbox: corners out of order: {value}")
    return SuggestedBox(Box(float(x1), float(y1), float(x2), float(y2)), SAM2_SOURCE)
