"""Importing public GUI-agent datasets (AITZ, GUI-Odyssey, AndroidControl) as trajectories to review and export.

Every episode is all or nothing: its screenshots are read and checked first, then stored as blobs, then
every row (instruction, trajectory, steps, labels with their revisions, the review row) is written in one
transaction. A bad episode is reported with its file, episode and step and leaves no row behind; the
import goes on with the next one.

How an imported trajectory looks:

- its uid is derived from the source and the dataset's episode id, and ``settings`` holds ``source``,
  ``source_episode_id`` and ``source_file``: importing the same data again adds nothing;
- it was collected by people (``collector_kind`` human: the three datasets are human demonstrations), is
  ``complete``, and its outcome is the dataset's stop action (AITZ 10/11, GUI-Odyssey COMPLETE/INCOMPLETE);
- each step's raw tool call is what the dataset says was done, in device pixels of its screenshot; the
  dataset's own fields for the step stay in its ``flags`` under ``imported``;
- the dataset's labels (think, action text, tool call, target box) are written as label revisions, by the
  person given or by nobody, and the trajectory is ``annotated``: it waits in the reviewers' queue;
- its instruction is ``imported`` and ``archived`` (kept out of collection), shared by the episodes of the
  same dataset, app and text, which become its runs; when the app already has an instruction with that text
  (one per app and text), the episodes become runs of that one.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.domain.geometry import ScreenSize
from annotator.imaging.decode import UnreadableImage, checked_image_size
from annotator.importers import aitz, androidcontrol, gui_odyssey
from annotator.importers.aitz import count_aitz, read_aitz
from annotator.importers.androidcontrol import read_androidcontrol
from annotator.importers.episode import EpisodeError, SourceEpisode, SourceStep
from annotator.importers.gui_odyssey import count_gui_odyssey, read_gui_odyssey
from annotator.services.screen_copies import CopyQueue
from annotator.storage import imports, integrity
from annotator.storage.bundle_fields import APP
from annotator.storage.workspace import Workspace

Progress = Callable[[int, int | None], None]  # (episodes done, episodes in all or None when unknown)
Reader = Callable[[Path, Path | None, str | None], Iterator[SourceEpisode | EpisodeError]]
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "import.mobile-annotator")
APP_NAME_LENGTH = APP["name"].length or 200  # the apps table's name column


@dataclass(frozen=True)
class Dataset:
    label: str  # as people write it
    read: Reader  # (path, images folder, app name) -> episodes or errors
    count: Callable[[Path], int] | None  # episodes under a path, when that is cheap to know


def _read_aitz(path: Path, images: Path | None, app: str | None) -> Iterator[SourceEpisode | EpisodeError]:
    return read_aitz(path, images=images, app=app)


def _read_gui_odyssey(path: Path, images: Path | None, app: str | None) -> Iterator[SourceEpisode | EpisodeError]:
    return read_gui_odyssey(path, images=images, app=app)


def _read_androidcontrol(path: Path, _images: Path | None, app: str | None) -> Iterator[SourceEpisode | EpisodeError]:
    return read_androidcontrol(path, app=app)


DATASETS: dict[str, Dataset] = {
    aitz.SOURCE: Dataset("AITZ", _read_aitz, count_aitz),
    gui_odyssey.SOURCE: Dataset("GUI-Odyssey", _read_gui_odyssey, count_gui_odyssey),
    androidcontrol.SOURCE: Dataset("AndroidControl", _read_androidcontrol, None),
}


@dataclass
class ImportSummary:
    source: str
    imported: int = 0
    skipped: int = 0  # imported before
    steps: int = 0
    failures: list[str] = field(default_factory=list)  # one line each: file, episode, step, what is wrong

    @property
    def failed(self) -> int:
        return len(self.failures)


def episode_uid(source: str, episode_id: str) -> str:
    """The uid of the trajectory an episode becomes: the same for the same episode of the same dataset."""
    return str(uuid.uuid5(NAMESPACE, f"{source}:{episode_id}"))


def import_dataset(
    workspace: Workspace,
    source: str,
    path: Path,
    *,
    images: Path | None = None,
    app: str | None = None,
    person: str | None = None,
    progress: Progress | None = None,
) -> ImportSummary:
    """Import every episode of `source` ("aitz", "gui-odyssey", "androidcontrol") found at `path`."""
    if source not in DATASETS:
        raise ValueError(f"{source!r} is not a dataset this version imports ({', '.join(DATASETS)})")
    dataset, path = DATASETS[source], Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist")
    total = dataset.count(path) if dataset.count else None
    summary = ImportSummary(source=source)
    with CopyQueue(workspace) as copies:  # the default export's and the judge's copies, made alongside
        for done, item in enumerate(dataset.read(path, images, app), start=1):
            _import_one(workspace, item, dataset.label, person, copies, summary)
            if progress:
                progress(done, total if total is None else max(total, done))
    return summary


def _import_one(
    workspace: Workspace,
    item: SourceEpisode | EpisodeError,
    label: str,
    person: str | None,
    copies: CopyQueue,
    summary: ImportSummary,
) -> None:
    """Import one episode (or note why not) and count it."""
    try:
        if isinstance(item, EpisodeError):
            raise item
        added = import_episode(workspace, item, label, person=person, copies=copies)
    except EpisodeError as error:
        summary.failures.append(str(error))
        return
    if added is None:
        summary.skipped += 1
    else:
        summary.imported += 1
        summary.steps += added


def import_episode(
    workspace: Workspace,
    episode: SourceEpisode,
    label: str,
    *,
    person: str | None = None,
    copies: CopyQueue | None = None,
) -> int | None:
    """Write one episode in one transaction; returns its step count, or None when it was imported before.

    When the write fails, the screenshot files this import stored are removed again (not those another writer
    needs meanwhile: storage.integrity)."""
    uid = episode_uid(episode.source, episode.episode_id)
    if imports.trajectory_exists(workspace.database, uid):
        return None
    record = _record(episode, label, uid)  # every screenshot is checked before anything is stored
    written = {
        hashlib.sha256(step.screenshot).hexdigest()
        for step in record.steps
        if workspace.blobs.write_if_missing(step.screenshot, durable=False)
    }
    try:
        workspace.blobs.sync()  # the files are on disk before rows point at them
        added = imports.write_episode(workspace.database, workspace.blobs, record, person)
    except BaseException:
        integrity.remove_written_blobs(workspace.database, workspace.blobs, written)
        raise
    if not added:
        integrity.remove_written_blobs(workspace.database, workspace.blobs, written)
        return None
    if copies is not None:
        for step in record.steps:
            copies.add(step.screenshot, ScreenSize(step.width, step.height))
    return len(episode.steps)


def _check_texts(episode: SourceEpisode) -> None:
    """Text both backends store: no NUL character (PostgreSQL refuses one mid-import), an app name that fits."""
    texts = {"the app name": episode.app, "the instruction": episode.instruction}
    for step in episode.steps:
        texts |= {
            f"step {step.number}: the think": step.think or "",
            f"step {step.number}: the action text": step.action_text or "",
        }
    for what, text in texts.items():
        if "\x00" in text:
            detail = f"{what} holds a NUL character, which PostgreSQL cannot store"
            raise EpisodeError(episode.file, detail, episode=episode.episode_id)
    if len(episode.app) > APP_NAME_LENGTH:
        detail = f"the app name has {len(episode.app)} characters, more than the {APP_NAME_LENGTH} allowed"
        raise EpisodeError(episode.file, detail, episode=episode.episode_id)


def _record(episode: SourceEpisode, label: str, uid: str) -> imports.ImportedEpisode:
    """The episode as the rows it becomes."""
    _check_texts(episode)
    instruction_uid = str(uuid.uuid5(NAMESPACE, f"instruction:{episode.source}:{episode.app}:{episode.instruction}"))
    steps = tuple(_step(episode, step) for step in episode.steps)
    where = f"{episode.file.name}, episode {episode.episode_id}"
    return imports.ImportedEpisode(
        uid=uid,
        instruction_uid=instruction_uid,
        app=episode.app,
        instruction=episode.instruction,
        outcome=str(episode.outcome) if episode.outcome else None,
        stop_reason=f"imported from {label}",
        settings={
            "source": episode.source,
            "source_episode_id": episode.episode_id,
            "source_file": str(episode.file),
            "source_details": episode.details,
        },
        hierarchy_note=episode.hierarchy_note,
        review_comment=f"imported from {label} ({where}): the dataset's labels",
        steps=steps,
    )


def _step(episode: SourceEpisode, step: SourceStep) -> imports.ImportedStep:
    imported: dict[str, Any] = {"step": step.number, "action": step.source_action, **step.notes}
    raw = step.action.to_tool_call() if step.action else None
    screen = step.screen
    return imports.ImportedStep(
        _screenshot(episode, step),
        screen.width,
        screen.height,
        raw,
        {"imported": imported},
        step.labels(),
        step.suggested_box,
    )


def _screenshot(episode: SourceEpisode, step: SourceStep) -> bytes:
    """The screenshot's bytes, checked whole (a truncated PNG fails its chunk CRCs) against the size read before."""

    def fail(detail: str) -> EpisodeError:
        return EpisodeError(episode.file, detail, episode=episode.episode_id, step=step.number)

    if isinstance(step.screenshot, bytes):
        data, shown = step.screenshot, "the screenshot"
    else:
        shown = f"screenshot {step.screenshot}"
        try:
            data = step.screenshot.read_bytes()
        except OSError as error:
            raise fail(f"{shown} cannot be read ({error.strerror or error})") from None
    try:
        size = checked_image_size(data)
    except UnreadableImage as error:
        raise fail(f"{shown} is not a readable image ({error})") from None
    if size != (step.screen.width, step.screen.height):
        raise fail(f"{shown} is {size[0]}x{size[1]}, its header said {step.screen}")
    return data
