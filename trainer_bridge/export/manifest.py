"""An export's manifest (annotator.domain.export_manifest): the counts taken as samples are built, the files'
hashes, and the manifest made from them and the export's options; no clock time in it, so that the same inputs
and options give byte-identical files."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from annotator import __version__
from annotator.domain.agent_conversation import PAPER_ACTIONS, paper_action_name
from annotator.domain.export_manifest import (
    FORMAT_VERSION,
    MANIFEST_FILE,
    ExportedFile,
    ExportManifest,
    write_export_manifest,
)
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PromptVariant
from annotator.domain.target_box import BoxProvenance, action_point
from annotator.storage.workspace import Workspace
from trainer_bridge.export.privacy import PiiTally
from trainer_bridge.export.sft import Sample

if TYPE_CHECKING:  # run.py imports this module
    from trainer_bridge.export.run import ExportOptions


class Tally:
    """Counts per split, app, action type, record kind and instruction level, as samples are built."""

    def __init__(self, variant: PromptVariant = DEFAULT_PROMPT_VARIANT) -> None:
        self.variant = variant  # a paper's own action names are counted too (UI-R1's Table 5)
        self.samples: Counter[str] = Counter()
        self.trajectories: dict[str, set[int]] = {}
        self.apps: dict[str, Counter[str]] = {}
        self.actions: dict[str, Counter[str]] = {}
        self.kinds: dict[str, Counter[str]] = {}
        self.levels: dict[str, Counter[str]] = {}  # rows by the instruction level they are asked at
        self.boxes: dict[str, Counter[str]] = {}  # rows of coordinate actions by their target box's provenance
        self.splits: list[str] = []  # every split of the plan, also those left empty
        self.duplicates = 0
        self.unsayable: Counter[str] = Counter()  # steps left out by action: the prompt variant cannot say them
        self.unchecked_boxes: Counter[str] = Counter()  # rows left out by action: no person checked their box
        self.paper_actions: dict[str, Counter[str]] = {}  # rows by the paper's own action name (paper variants)
        self.pii = PiiTally()
        self.masked_images = 0  # exported images with privacy regions blurred or blacked out
        # Not in the manifest (they differ between identical exports): screenshots resized or masked by this
        # export, and copies kept by an earlier export or judge run read from the data folder's cache instead.
        self.images_made = 0
        self.images_reused = 0

    def add(self, split: str, sample: Sample) -> None:
        record = sample.record
        self.samples[split] += 1
        self.trajectories.setdefault(split, set()).add(record.trajectory_id)
        self.apps.setdefault(split, Counter())[record.app] += 1
        action = str(record.tool_call.get("arguments", {}).get("action", "?"))
        self.actions.setdefault(split, Counter())[action] += 1
        self.kinds.setdefault(split, Counter())[record.kind] += 1
        self.levels.setdefault(split, Counter())[sample.level] += 1
        if action_point(record.tool_call) is not None:
            self.boxes.setdefault(split, Counter())[str(record.box_provenance)] += 1
        if self.variant in PAPER_ACTIONS:
            name = paper_action_name(record.tool_call, self.variant) or "?"
            self.paper_actions.setdefault(split, Counter())[name] += 1

    def paper_action_types(self, split: str) -> dict[str, int]:
        """The split's rows by the paper's own action names, every name of its vocabulary (0 where none)."""
        counts = self.paper_actions.get(split, Counter())
        return {name: counts[name] for name in PAPER_ACTIONS.get(self.variant, ())}

    def as_json(self) -> dict[str, Any]:
        return {split: self._split_json(split) for split in self.splits}

    def _split_json(self, split: str) -> dict[str, Any]:
        counts = {
            "samples": self.samples[split],
            "trajectories": len(self.trajectories.get(split, ())),
            "apps": dict(sorted(self.apps.get(split, Counter()).items())),
            "action_types": dict(sorted(self.actions.get(split, Counter()).items())),
            "kinds": dict(sorted(self.kinds.get(split, Counter()).items())),
            "instruction_levels": dict(sorted(self.levels.get(split, Counter()).items())),
            "target_box_provenance": {str(name): self.boxes.get(split, Counter())[str(name)] for name in BoxProvenance},
        }
        if self.variant in PAPER_ACTIONS:
            counts["paper_action_types"] = self.paper_action_types(split)
        return counts


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def file_hashes(folder: Path, known: dict[str, str]) -> tuple[ExportedFile, ...]:
    """Every file but the manifest, with its size and sha256 (`known`: hashes taken as the files were written)."""
    files = sorted(path for path in folder.rglob("*") if path.is_file() and path.name != MANIFEST_FILE)
    listed = []
    for path in files:
        name = path.relative_to(folder).as_posix()
        listed.append(ExportedFile(name, path.stat().st_size, known.get(name) or file_sha256(path)))
    return tuple(listed)


def export_manifest(
    folder: Path, workspace: Workspace, options: ExportOptions, tally: Tally, known: dict[str, str]
) -> ExportManifest:
    """The manifest of the export built in `folder` with `options`."""
    return ExportManifest(
        stage=options.stage,
        format=options.format,
        coords=options.space.name,
        min_pixels=options.space.resize.min_pixels,
        max_pixels=options.space.resize.max_pixels,
        image_scale=options.space.image_scale,
        history_images=options.history_images,
        instruction_level=options.instruction_level,
        prompt_variant=str(options.prompt_variant),
        image_storage=options.storage,
        more_options=options.more_options(),
        counts=tally.as_json(),
        files=file_hashes(folder, known),
        code_version=__version__,
        source_database=workspace.database.safe_url,
        format_version=FORMAT_VERSION,
        duplicates_left_out=tally.duplicates,
        unsayable_left_out=dict(sorted(tally.unsayable.items())),
        unchecked_boxes_left_out=dict(sorted(tally.unchecked_boxes.items())),
        pii_scrubbed=tally.pii.as_dict(),
        images_with_privacy_regions_masked=tally.masked_images,
    )


def write_manifest(
    folder: Path, workspace: Workspace, options: ExportOptions, tally: Tally, known: dict[str, str]
) -> ExportManifest:
    manifest = export_manifest(folder, workspace, options, tally, known)
    write_export_manifest(folder, manifest)
    return manifest
