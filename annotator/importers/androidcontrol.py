"""AndroidControl (google-research/android_control): human demonstrations, as GZIP TFRecord files.

Each record is a ``tf.train.Example`` of one episode: ``episode_id`` (int), ``goal`` (the high-level
instruction), ``screenshots`` (PNG bytes), ``screenshot_widths`` / ``screenshot_heights``,
``accessibility_trees`` (one android_env ``AndroidAccessibilityForest`` per screenshot), ``actions`` (one JSON
object per step, one fewer than the screenshots) and ``step_instructions`` (the low-level instruction of each
action). Points are pixels of the recorded screen size.

Mapping: click, long_press at (x, y); scroll in a direction is a swipe from the screen's centre to its edge,
as android_world executes it (``down`` moves the finger up to show what is below); open_app opens
``app_name``; input_text and type type ``text``; navigate_home / navigate_back press Home / Back; wait waits
1 s (android_world's wait). The step instruction is the action text. The last screenshot, on which nothing
was done, becomes a last step whose labelled tool call is ``terminate`` with success (AndroidControl records
the demonstrations of completed tasks and has no stop action of its own); its raw tool call stays empty.
A click's or swipe's suggested target box is the smallest visible clickable node under its point in the
screen's accessibility tree (`domain.target_box`); a tree that cannot be read suggests nothing, noted in the
step's flags. The trees are not stored: the app's element tools read uiautomator dumps.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from annotator.domain.actions import (
    Action,
    Click,
    LongPress,
    Open,
    Swipe,
    SystemButton,
    Terminate,
    Type,
    Wait,
    check_action,
)
from annotator.domain.coords import CoordinateSpace
from annotator.domain.geometry import ScreenSize
from annotator.domain.target_box import suggest_box
from annotator.importers.a11y_forest import TREE_SOURCE, forest_elements
from annotator.importers.episode import (
    EpisodeError,
    SourceEpisode,
    SourceStep,
    device_point,
    image_header_size,
)
from annotator.importers.tfrecord import TFRecordError, parse_example, read_records

SOURCE = "androidcontrol"
FALLBACK_APP = "AndroidControl"
BUTTONS = {"navigate_home": "Home", "navigate_back": "Back", "keyboard_enter": "Enter"}
KNOWN = "click, long_press, scroll, open_app, input_text, type, navigate_home, navigate_back, wait"
FINAL_STEP_NOTE = "the episode's last screen: AndroidControl has no stop action, terminate(success) is derived"
HIERARCHY_NOTE = (
    "AndroidControl's accessibility tree (an android_env AndroidAccessibilityForest) gave the target box only"
)


def episode_files(path: Path) -> list[Path]:
    """`path` itself, or the TFRecord files under the folder (android_control-*-of-*, *.tfrecord*, *.gz)."""
    if not path.is_dir():
        return [path]
    return sorted(
        p
        for p in path.rglob("*")
        if p.is_file() and (p.name.startswith("android_control") or ".tfrecord" in p.name or p.suffix == ".gz")
    )


def read_androidcontrol(path: Path, *, app: str | None = None) -> Iterator[SourceEpisode | EpisodeError]:
    """The episodes of a TFRecord file, or of every TFRecord file under a folder, in file order."""
    for file in episode_files(path):
        try:
            for number, data in enumerate(read_records(file)):
                try:
                    yield _episode(file, number, data, app)
                except EpisodeError as error:
                    yield error
        except TFRecordError as error:
            yield EpisodeError(file, f"record {error.record}: {error.detail}; the rest of the file was not read")
        except OSError as error:
            yield EpisodeError(file, f"cannot be read ({error.strerror or error})")


def _episode(file: Path, number: int, data: bytes, app: str | None) -> SourceEpisode:
    record = f"record {number}"
    try:
        features = parse_example(data)
        ids = features.get("episode_id") or []
        if len(ids) != 1 or not isinstance(ids[0], int):
            raise ValueError("episode_id: expected one integer")
    except ValueError as error:
        raise EpisodeError(file, f"{record}: {error}") from None
    episode_id = str(ids[0])
    where = f"{episode_id} ({record})"
    try:
        goal = _text(features, "goal")
        screenshots = features.get("screenshots") or []
        if not all(isinstance(png, bytes) for png in screenshots):
            raise ValueError("screenshots: expected image bytes (a bytes feature)")
        actions = [_json_action(raw, index) for index, raw in enumerate(features.get("actions") or [])]
        instructions = [_decode(raw, "step_instructions") for raw in features.get("step_instructions") or []]
        if len(screenshots) != len(actions) + 1:
            raise ValueError(f"{len(screenshots)} screenshots for {len(actions)} actions; expected one more screenshot")
        if instructions and len(instructions) != len(actions):
            raise ValueError(f"{len(instructions)} step_instructions for {len(actions)} actions; expected as many")
        recorded = _recorded_sizes(features, len(screenshots))
        trees = _trees(features, len(screenshots))
    except ValueError as error:
        raise EpisodeError(file, str(error), episode=where) from None
    steps = []
    for index, png in enumerate(screenshots):
        try:
            step = _step(index, png, recorded[index], actions, instructions)
            steps.append(_with_suggestion(step, trees[index], recorded[index]))
        except ValueError as error:
            raise EpisodeError(file, str(error), episode=where, step=index) from None
    opened = next((a.get("app_name") for a in actions if a.get("action_type") == "open_app"), None)
    return SourceEpisode(
        source=SOURCE,
        episode_id=episode_id,
        file=file,
        app=app or (opened if isinstance(opened, str) and opened.strip() else FALLBACK_APP),
        instruction=goal,
        steps=tuple(steps),
        details={"record": number},
        hierarchy_note=HIERARCHY_NOTE,
    )


def _step(
    index: int, png: bytes, recorded: tuple[int, int] | None, actions: list[dict[str, Any]], instructions: list[str]
) -> SourceStep:
    screen = image_header_size(png)
    if index == len(actions):
        final = Terminate("success")
        return SourceStep(index, png, screen, None, None, label_action=final, notes={"derived": FINAL_STEP_NOTE})
    source = actions[index]
    action = check_action(_action(source, screen, recorded or (screen.width, screen.height)), screen)
    text = (instructions[index].strip() or None) if instructions else None
    return SourceStep(index, png, screen, action, source, action_text=text)


def _action(source: dict[str, Any], screen: ScreenSize, recorded: tuple[int, int]) -> Action:
    kind = source.get("action_type")
    if kind in ("click", "long_press"):
        point = _point(source, screen, recorded)
        return Click(point) if kind == "click" else LongPress(point)
    if kind == "scroll":
        return _scroll(source.get("direction"), screen)
    if kind == "open_app":
        return Open(_string(source, "app_name"))
    if kind in ("input_text", "type"):
        return Type(_string(source, "text"))
    if kind in BUTTONS:
        return SystemButton(BUTTONS[kind])
    if kind == "wait":
        return Wait(1.0)
    raise ValueError(f"action_type: {json.dumps(kind)} is not an AndroidControl action ({KNOWN})")


def _scroll(direction: Any, screen: ScreenSize) -> Swipe:
    """android_world's scroll: from the centre towards the edge opposite to `direction` (content moves that way)."""
    cx, cy = screen.width // 2, screen.height // 2
    ends = {"down": (cx, 0), "up": (cx, screen.height - 1), "right": (0, cy), "left": (screen.width - 1, cy)}
    if direction not in ends:
        raise ValueError(f"direction: {json.dumps(direction)} is not one of up, down, left, right")
    return Swipe((cx, cy), ends[direction])


def _point(source: dict[str, Any], screen: ScreenSize, recorded: tuple[int, int]) -> tuple[int, int]:
    x, y = source.get("x"), source.get("y")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y)):
        raise ValueError(f"x, y: {json.dumps([x, y])} are not pixel coordinates")
    width, height = recorded
    if not (0 <= x <= width and 0 <= y <= height):  # type: ignore[operator]
        raise ValueError(f"x, y: ({x}, {y}) is outside the recorded {width}x{height} screen")
    normalised = (x / width, y / height)  # type: ignore[operator]
    return device_point(normalised, CoordinateSpace.NORMALIZED, screen, "x, y")


def _recorded_sizes(features: dict[str, list[Any]], count: int) -> list[tuple[int, int] | None]:
    widths, heights = features.get("screenshot_widths") or [], features.get("screenshot_heights") or []
    if not widths and not heights:
        return [None] * count  # the screenshots' own sizes
    if len(widths) != count or len(heights) != count:
        raise ValueError(f"{len(widths)} widths and {len(heights)} heights for {count} screenshots")
    if not all(isinstance(v, int) and v > 0 for v in (*widths, *heights)):
        raise ValueError("screenshot_widths / screenshot_heights: expected positive integers")
    return list(zip(widths, heights, strict=True))


def _json_action(raw: Any, index: int) -> dict[str, Any]:
    text = _decode(raw, f"actions[{index}]")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"actions[{index}]: not valid JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:  # the decoder recurses once per level of nesting
        raise ValueError(f"actions[{index}]: not usable JSON (nested too deeply)") from None
    if not isinstance(value, dict):
        raise ValueError(f"actions[{index}]: {text[:60]!r} is not a JSON object")
    return value


def _decode(raw: Any, what: str) -> str:
    if not isinstance(raw, bytes):
        raise ValueError(f"{what}: expected text (a bytes feature)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{what}: not UTF-8 text") from None


def _text(features: dict[str, list[Any]], name: str) -> str:
    values = features.get(name) or []
    if len(values) != 1:
        raise ValueError(f"{name}: expected one text value, found {len(values)}")
    text = _decode(values[0], name).strip()
    if not text:
        raise ValueError(f"{name}: empty")
    return text


def _string(source: dict[str, Any], key: str) -> str:
    value = source.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{key}: {json.dumps(value)[:60]} is not text")
    return value


def _trees(features: dict[str, list[Any]], count: int) -> list[bytes | None]:
    """One serialised forest per screenshot, or None for each when the record has none (or not one each)."""
    trees = features.get("accessibility_trees") or []
    return list(trees) if len(trees) == count else [None] * count


def _with_suggestion(step: SourceStep, tree: bytes | None, recorded: tuple[int, int] | None) -> SourceStep:
    """The step with the target box its accessibility tree suggests (a tree that cannot be read is noted)."""
    if tree is None or step.action is None:
        return step
    try:
        elements = forest_elements(tree, recorded or (step.screen.width, step.screen.height), step.screen)
    except ValueError as error:
        return replace(step, notes={**step.notes, "accessibility_tree_error": str(error)})
    return replace(step, suggested_box=suggest_box(elements, step.action.to_tool_call(), TREE_SOURCE))
