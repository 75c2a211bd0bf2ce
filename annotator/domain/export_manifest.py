"""An export folder's `manifest.json`: what the export holds, how it was made, and the settings that training and
evaluation adopt from it (the model space, the prompt variant, the history window, the instruction level).

The export writes it with `write_export_manifest`; training, evaluation and the app read it with
`read_export_manifest`. Each field's name, type and place in the file are said once, in `ExportManifest`; so is the
default a manifest written before the field existed is read with. Reading never guesses silently otherwise: a
missing file, text that is not JSON, a field of the wrong type or a newer layout is a `ManifestError` that names
the file and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT

MANIFEST_FILE = "manifest.json"
FORMAT_VERSION = 1  # the file's layout; a newer one is refused rather than misread
OPTIONS = "options"  # the export's settings, nested under this key
TOP, IN_OPTIONS, BOTH = "top", "options", "both"  # where a field is in the file (BOTH: top level and options)


class ManifestError(ValueError):
    """An export's manifest cannot be read or written; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Kind:
    """A JSON value a field takes: what an error says was expected, the test, and the value as the field holds it."""

    expected: str
    accepts: Callable[[Any], bool]
    held: Callable[[Any], Any] = lambda value: value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _split_counts(value: Any) -> bool:
    """Per split: an object whose `samples` (when there) is a whole number and `apps` an object."""
    return isinstance(value, dict) and all(
        isinstance(split, dict) and _whole(split.get("samples", 0)) and isinstance(split.get("apps", {}), dict)
        for split in value.values()
    )


def _file_entry(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("path"), str)
        and _whole(value.get("bytes"))
        and isinstance(value.get("sha256"), str)
    )


TEXT = Kind("a string", lambda value: isinstance(value, str))
WHOLE = Kind("a whole number", _whole)
POSITIVE = Kind("a whole number above 0", lambda value: _whole(value) and value > 0)
SCALE = Kind(
    "a number above 0",
    lambda value: isinstance(value, int | float) and not isinstance(value, bool) and value > 0,
    float,
)
TALLY = Kind(
    "an object of whole numbers", lambda value: isinstance(value, dict) and all(map(_whole, value.values())), dict
)
COUNTS = Kind("an object of splits, each an object with whole-number samples", _split_counts, dict)


@dataclass(frozen=True)
class ExportedFile:
    """A file of the export: its path in the folder (with /), its size and its sha256."""

    path: str
    size: int
    sha256: str

    def as_json(self) -> dict[str, Any]:
        return {"bytes": self.size, "path": self.path, "sha256": self.sha256}


FILES = Kind(
    "a list of {path, bytes, sha256} objects",
    lambda value: isinstance(value, list) and all(map(_file_entry, value)),
    lambda value: tuple(ExportedFile(entry["path"], entry["bytes"], entry["sha256"]) for entry in value),
)


def _kept(kind: Kind, place: str = TOP, default: Any = MISSING, factory: Any = MISSING) -> Any:
    """A field read from the file: its kind, where it is, and (for fields added later) the value a manifest
    written before it is read with."""
    return field(default=default, default_factory=factory, metadata={"kind": kind, "place": place})


@dataclass(frozen=True)
class ExportManifest:
    """What `manifest.json` holds. The fields without a default are in every manifest since the first export; a
    default is what an export made before its field was (or what the readers before this class took it to be)."""

    # The settings training and evaluation adopt, under `options`.
    stage: str = _kept(TEXT, IN_OPTIONS)  # sft, grpo-action or grpo-task
    format: str = _kept(TEXT, IN_OPTIONS)  # trl, jsonl, easyr1, ...
    min_pixels: int = _kept(POSITIVE, IN_OPTIONS)  # the processor limits the coordinates were written for
    max_pixels: int = _kept(POSITIVE, IN_OPTIONS)
    # What it holds and where it came from.
    counts: Mapping[str, Mapping[str, Any]] = _kept(COUNTS)  # per split: samples, trajectories, apps, actions, ...
    files: tuple[ExportedFile, ...] = _kept(FILES)  # every file but the manifest
    code_version: str = _kept(TEXT)
    source_database: str = _kept(TEXT)  # its URL without a password
    format_version: int = _kept(POSITIVE)
    # Always written too, but read with a default as before (a hand-made manifest may lack them).
    coords: str = _kept(TEXT, IN_OPTIONS, "qwen2.5-vl")  # the model space's name
    image_scale: float = _kept(SCALE, IN_OPTIONS, 1.0)  # 1.0: the screenshots as stored
    history_images: int | None = _kept(POSITIVE, IN_OPTIONS, None)  # W; None: not said (each reader chooses)
    # Recorded later.
    instruction_level: str = _kept(TEXT, IN_OPTIONS, "task")  # task, action or both
    prompt_variant: str = _kept(TEXT, BOTH, str(DEFAULT_PROMPT_VARIANT))  # the system prompt's text
    image_storage: str | None = _kept(TEXT, BOTH, None)  # embedded or files; None: not recorded
    # The other options as written (after_errors, privacy, selection, splits, select, ...): no reader adopts them.
    more_options: Mapping[str, Any] = field(default_factory=dict)
    # What the export left out or changed, counted.
    duplicates_left_out: int = _kept(WHOLE, default=0)
    unsayable_left_out: Mapping[str, int] = _kept(TALLY, factory=dict)  # by action: the prompt variant has no word
    unchecked_boxes_left_out: Mapping[str, int] = _kept(TALLY, factory=dict)  # by action (--checked-boxes)
    pii_scrubbed: Mapping[str, int] = _kept(TALLY, factory=dict)  # by kind of personal data
    images_with_privacy_regions_masked: int = _kept(WHOLE, default=0)

    @property
    def samples(self) -> int:
        """Rows in every split together."""
        return sum(int(split.get("samples", 0)) for split in self.counts.values())

    def apps(self, split: str) -> tuple[str, ...]:
        """The apps of `split`'s rows, sorted (none when the export has no such split)."""
        return tuple(sorted(self.counts.get(split, {}).get("apps", {})))

    def as_json(self) -> dict[str, Any]:
        """The file's JSON object: the fields in their places, `more_options` beside the typed options; a field
        that does not say (None) is left out, as a manifest written before it had it."""
        data: dict[str, Any] = {OPTIONS: dict(self.more_options)}
        for each in _read_fields():
            value = getattr(self, each.name)
            if value is None:
                continue
            value = [entry.as_json() for entry in value] if each.name == "files" else value
            for place in _places(each):
                (data[OPTIONS] if place == IN_OPTIONS else data)[each.name] = _plain(value)
        return data


def _read_fields() -> list[Any]:
    return [each for each in fields(ExportManifest) if "kind" in each.metadata]


def _places(each: Any) -> tuple[str, ...]:
    place = each.metadata["place"]
    return (TOP, IN_OPTIONS) if place == BOTH else (place,)


def _plain(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else value


def manifest_path(path: Path) -> Path:
    """The manifest of the export folder `path`, or `path` itself when it is a file."""
    return path if path.is_file() else path / MANIFEST_FILE


def write_export_manifest(folder: Path, manifest: ExportManifest) -> Path:
    """Write `folder/manifest.json`: sorted keys and no clock time, so that the same export is the same bytes."""
    path, data = folder / MANIFEST_FILE, manifest.as_json()
    manifest_from_json(data, path)  # never write what the readers would refuse
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def read_export_manifest(path: Path) -> ExportManifest:
    """The manifest of the export folder `path` (or the manifest file itself), checked."""
    file = manifest_path(path)
    return manifest_from_json(_json_of(file), file)


def _json_of(file: Path) -> Any:
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ManifestError(
            f"{file} does not exist: {file.parent} is not an export folder "
            "(`trainer-bridge export --out FOLDER` writes one)"
        ) from None
    except UnicodeDecodeError as error:
        raise ManifestError(f"{file} is not UTF-8 text ({error.reason} at byte {error.start})") from None
    except OSError as error:
        raise ManifestError(f"{file} cannot be read: {error.strerror or error}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ManifestError(
            f"{file} is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise ManifestError(f"{file} is not usable JSON: it nests too deep") from None


def manifest_from_json(data: Any, file: Path) -> ExportManifest:
    """The manifest of the JSON object `data`, read from `file` (named in every error)."""
    if not isinstance(data, dict):
        raise ManifestError(f"{file}: expected a JSON object, found {_json_name(data)}")
    options = data.get(OPTIONS, {})
    if not isinstance(options, dict):
        raise ManifestError(f"{file}: {OPTIONS} should be a JSON object, not {_shown(options)}")
    values = {each.name: _field_value(each, data, options, file) for each in _read_fields()}
    version = values["format_version"]
    if version > FORMAT_VERSION:
        raise ManifestError(
            f"{file}: format_version {version} is newer than this version of annotator reads "
            f"({FORMAT_VERSION}); update annotator to read it"
        )
    typed = {each.name for each in _read_fields()}
    more = {key: value for key, value in options.items() if key not in typed}
    return ExportManifest(**{name: value for name, value in values.items() if value is not MISSING}, more_options=more)


def _field_value(each: Any, data: dict[str, Any], options: dict[str, Any], file: Path) -> Any:
    """The field's value as held, MISSING for the dataclass's default; its top-level place first."""
    for place in _places(each):
        found = (options if place == IN_OPTIONS else data).get(each.name, MISSING)
        if found is MISSING:
            continue
        kind: Kind = each.metadata["kind"]
        where = f"{OPTIONS}.{each.name}" if place == IN_OPTIONS else each.name
        if not kind.accepts(found):
            raise ManifestError(f"{file}: {where} should be {kind.expected}, not {_shown(found)}")
        return kind.held(found)
    if each.default is MISSING and each.default_factory is MISSING:
        where = f"{OPTIONS}.{each.name}" if each.metadata["place"] == IN_OPTIONS else each.name
        raise ManifestError(f"{file}: {where} is missing; every export's manifest has it")
    return MISSING


def _json_name(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null"}
    return names.get(type(value), "a number")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return f"{text[:40]}…" if len(text) > 40 else text
