"""What a dataset reader hands over (episodes, or errors that say where and what) and the helpers readers share."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from annotator.domain.actions import Action, Terminate
from annotator.domain.coords import CoordinateSpace, to_device_point
from annotator.domain.geometry import ScreenSize
from annotator.domain.target_box import SuggestedBox
from annotator.domain.trajectory import Outcome
from annotator.imaging.decode import UnreadableImage, header_size


class EpisodeError(ValueError):
    """A file or an episode that cannot be imported: where (file, episode, step) and what is wrong."""

    def __init__(self, file: Path, detail: str, *, episode: str | None = None, step: int | str | None = None) -> None:
        super().__init__(file, detail, episode, step)  # all in args, so that the error pickles
        self.file, self.detail, self.episode, self.step = file, detail, episode, step

    def __str__(self) -> str:
        where = [f"episode {self.episode}"] if self.episode is not None else []
        where += [f"step {self.step}"] if self.step is not None else []
        return f"{self.file}: {', '.join(where) + ': ' if where else ''}{self.detail}"


@dataclass(frozen=True)
class SourceStep:
    """One screen of an episode, the action done on it (device pixels of `screen`) and the dataset's labels."""

    number: int | str  # the dataset's own step id, for messages and the step's flags
    screenshot: Path | bytes
    screen: ScreenSize  # from the image header; the importer checks the whole image before storing it
    action: Action | None  # None: nothing was done on this screen (AndroidControl's last screen)
    source_action: Any  # the action as the dataset wrote it
    think: str | None = None
    action_text: str | None = None
    label_action: Action | None = None  # the labelled tool call when it is not `action` (a derived terminate)
    target_box: list[float] | None = None  # device pixels, as a person labelled it
    notes: dict[str, Any] = field(default_factory=dict)  # the dataset's other fields of this step
    suggested_box: SuggestedBox | None = None  # the target element's box from the dataset's elements

    def labels(self) -> dict[str, Any]:
        """The label fields this step starts with (only those the dataset gives)."""
        labelled = self.label_action or self.action
        values = {
            "think": self.think,
            "action_text": self.action_text,
            "tool_call": labelled.to_tool_call() if labelled else None,
            "target_box": self.target_box,
        }
        return {key: value for key, value in values.items() if value is not None}


@dataclass(frozen=True)
class SourceEpisode:
    source: str  # "aitz", "gui-odyssey", "androidcontrol"
    episode_id: str
    file: Path
    app: str
    instruction: str
    steps: tuple[SourceStep, ...]
    details: dict[str, Any] = field(default_factory=dict)  # the dataset's episode fields worth keeping
    hierarchy_note: str = "the dataset has no UI hierarchy"  # why the steps have no uiautomator dump

    @property
    def outcome(self) -> Outcome | None:
        """What the dataset says of the whole episode: the status of its last step's stop action, when it has
        one (a derived terminate, as AndroidControl's, is a label and says nothing)."""
        last = self.steps[-1].action if self.steps else None
        return Outcome(last.status) if isinstance(last, Terminate) else None


def load_json(file: Path) -> Any:
    """The parsed JSON of a file, or EpisodeError naming the file and what is wrong with it."""
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise EpisodeError(file, f"is not UTF-8 text ({error.reason} at byte {error.start})") from None
    except OSError as error:
        raise EpisodeError(file, f"cannot be read ({error.strerror or error})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        detail = f"is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        raise EpisodeError(file, detail) from None
    except RecursionError:
        raise EpisodeError(file, "is not usable JSON: nested too deeply") from None


def json_files(path: Path) -> list[Path]:
    """`path` itself, or the .json files under the folder, in a stable order."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*.json") if p.is_file())
    return [path]


def required(record: dict[str, Any], key: str, kinds: type | tuple[type, ...], what: str) -> Any:
    """``record[key]`` when it is there and of the expected kind; ValueError in words otherwise."""
    if key not in record:
        raise ValueError(f"{key}: missing; expected {what}")
    value = record[key]
    if not isinstance(value, kinds) or isinstance(value, bool):
        raise ValueError(f"{key}: {json.dumps(value, ensure_ascii=False)[:60]} is not {what}")
    return value


def source_id(value: Any) -> str | None:
    """An id as the dataset writes it (text or a whole number), as text; None when it is not one."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or str(value).strip() == "":
        return None
    return str(value)


def optional_text(record: dict[str, Any], key: str) -> str | None:
    """A text field the dataset may leave out or empty (labels): its stripped value, or None."""
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{key}: {json.dumps(value, ensure_ascii=False)[:60]} is not text")
    return value.strip() or None


def find_image(name: str, json_file: Path, images: Path | None) -> Path:
    """Where the screenshot `name` (as the dataset writes it, maybe with folders) lies.

    Looked for under `images` (given by the user) first, then next to the JSON file and in the folders
    above it, by its whole relative path and by its file name, and in a `screenshots` folder beside them
    (GUI-Odyssey's layout).
    """
    relative = PurePosixPath(name.replace("\\", "/"))
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise ValueError(f"screenshot path {name!r} must be relative to the dataset, without '..'")
    bases = ([images] if images is not None else []) + [json_file.parent, *list(json_file.parents)[1:4]]
    tried: list[Path] = []
    for base in bases:
        for candidate in (base / relative, base / relative.name, base / "screenshots" / relative.name):
            if candidate in tried:
                continue
            tried.append(candidate)
            if candidate.is_file():
                return candidate
    hint = "" if images is not None else "; give the screenshots folder with --images"
    raise ValueError(f"screenshot {name} not found (looked in {', '.join(str(p.parent) for p in tried[:4])}…){hint}")


def image_header_size(data: Path | bytes) -> ScreenSize:
    """Width and height from the image header (cheap); ValueError when it is not an image."""
    try:
        width, height = header_size(data)
    except UnreadableImage as error:
        shown = "the screenshot" if isinstance(data, bytes) else f"screenshot {data}"
        separator = " " if str(error).startswith("is ") else ": "
        raise ValueError(f"{shown}{separator}{error}") from None
    return ScreenSize(width, height)


def device_point(point: Any, space: CoordinateSpace, screen: ScreenSize, what: str) -> tuple[int, int]:
    """A dataset point in device pixels of `screen`; ValueError naming `what` when it lies outside its space.

    The far edge of a space (1.0, 1000) maps one pixel past the screen; such points move onto its last pixel.
    """
    try:
        x, y = to_device_point(point, space, screen)
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None
    return min(int(x), screen.width - 1), min(int(y), screen.height - 1)


Reader = Callable[[Path], Iterator["SourceEpisode | EpisodeError"]]


def read_episodes(files: list[Path], read_file: Reader) -> Iterator[SourceEpisode | EpisodeError]:
    """``read_file(file)`` for every file; a file that fails as a whole becomes one EpisodeError."""
    for file in files:
        try:
            yield from read_file(file)
        except EpisodeError as error:
            yield error
