"""One export: select, build the records and samples, write the format, write the manifest."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from annotator.domain.model_space import ModelSpace
from annotator.storage.workspace import Workspace
from trainer_bridge.export.formats import FORMATS, write_jsonl, write_trl
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.manifest import Tally, write_manifest
from trainer_bridge.export.record import step_records
from trainer_bridge.export.sft import Sample, sft_sample
from trainer_bridge.export.source import Selection, selected_trajectories

STAGES = ("sft",)


class ExportError(ValueError):
    """The export cannot be made as asked; nothing was written."""


@dataclass(frozen=True)
class ExportOptions:
    stage: str
    format: str
    out: Path
    space: ModelSpace
    history_images: int = 2
    after_errors: bool = False
    selection: Selection = field(default_factory=Selection)

    def as_json(self) -> dict[str, object]:
        return {
            "stage": self.stage, "format": self.format, "coords": self.space.name,
            "min_pixels": self.space.resize.min_pixels, "max_pixels": self.space.resize.max_pixels,
            "image_scale": self.space.image_scale, "history_images": self.history_images,
            "after_errors": self.after_errors, "selection": self.selection.as_json(),
        }  # fmt: skip


def _check(options: ExportOptions) -> None:
    if options.stage not in STAGES:
        raise ExportError(f"stage {options.stage!r}: expected one of {', '.join(STAGES)}")
    if options.format not in FORMATS:
        raise ExportError(f"format {options.format!r}: expected one of {', '.join(FORMATS)}")
    if options.out.exists() and any(options.out.iterdir()):
        raise ExportError(f"{options.out} is not empty; choose a new folder (an export never overwrites)")


def _samples(workspace: Workspace, options: ExportOptions, tally: Tally, on_progress) -> Iterator[Sample]:  # type: ignore[no-untyped-def]
    total, trajectories = selected_trajectories(workspace.database, options.selection)
    for done, trajectory in enumerate(trajectories, start=1):
        for record in step_records(trajectory, after_errors=options.after_errors):
            sample = sft_sample(record, options.space, options.history_images)
            tally.add("train", sample)
            yield sample
        on_progress(done, total)


def export(
    workspace: Workspace, options: ExportOptions, on_progress: Callable[[int, int], None] | None = None
) -> Tally:
    """Write the export into `options.out` (a new or empty folder); a failure leaves no partial output."""
    _check(options)
    progress = on_progress or (lambda done, total: None)
    tally = Tally()
    options.out.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{options.out.name}-", dir=options.out.parent))
    try:
        samples: dict[str, Iterable[Sample]] = {"train": _samples(workspace, options, tally, progress)}
        if options.format == "jsonl":
            write_jsonl(samples, building, ExportImages(workspace.blobs, building / "images"), options.space)
        else:
            write_trl(samples, building, ExportImages(workspace.blobs, building / "images"), options.space)
        write_manifest(building, workspace, options.as_json(), tally)
        if options.out.exists():
            options.out.rmdir()
        building.rename(options.out)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return tally
