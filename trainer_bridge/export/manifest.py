"""`manifest.json`: what an export holds and how it was made; no clock time in it, so that the same inputs
and options give byte-identical files."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from annotator import __version__
from annotator.domain.target_box import BoxProvenance, action_point
from annotator.storage.workspace import Workspace
from trainer_bridge.export.privacy import PiiTally
from trainer_bridge.export.sft import Sample

MANIFEST = "manifest.json"


class Tally:
    """Counts per split, app, action type and record kind, as samples are built."""

    def __init__(self) -> None:
        self.samples: Counter[str] = Counter()
        self.trajectories: dict[str, set[int]] = {}
        self.apps: dict[str, Counter[str]] = {}
        self.actions: dict[str, Counter[str]] = {}
        self.kinds: dict[str, Counter[str]] = {}
        self.boxes: dict[str, Counter[str]] = {}  # rows of coordinate actions by their target box's provenance
        self.splits: list[str] = []  # every split of the plan, also those left empty
        self.duplicates = 0
        self.unsayable: Counter[str] = Counter()  # steps left out by action: the prompt variant cannot say them
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
        if action_point(record.tool_call) is not None:
            self.boxes.setdefault(split, Counter())[str(record.box_provenance)] += 1

    def as_json(self) -> dict[str, Any]:
        return {
            split: {
                "samples": self.samples[split],
                "trajectories": len(self.trajectories.get(split, ())),
                "apps": dict(sorted(self.apps.get(split, Counter()).items())),
                "action_types": dict(sorted(self.actions.get(split, Counter()).items())),
                "kinds": dict(sorted(self.kinds.get(split, Counter()).items())),
                "target_box_provenance": {
                    str(name): self.boxes.get(split, Counter())[str(name)] for name in BoxProvenance
                },
            }
            for split in self.splits
        }


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def file_hashes(folder: Path, known: dict[str, str]) -> list[dict[str, Any]]:
    """Every file but the manifest, with its size and sha256 (`known`: hashes taken as the files were written)."""
    files = sorted(path for path in folder.rglob("*") if path.is_file() and path.name != MANIFEST)
    listed = []
    for path in files:
        name = path.relative_to(folder).as_posix()
        sha = known.get(name) or file_sha256(path)
        listed.append({"path": name, "bytes": path.stat().st_size, "sha256": sha})
    return listed


def write_manifest(
    folder: Path, workspace: Workspace, options: dict[str, Any], tally: Tally, known: dict[str, str]
) -> None:
    manifest = {
        "format_version": 1,
        "code_version": __version__,
        "source_database": workspace.database.safe_url,
        "options": options,
        "prompt_variant": options["prompt_variant"],  # the system prompt's text: evaluate with the same
        "counts": tally.as_json(),
        "duplicates_left_out": tally.duplicates,
        "unsayable_left_out": dict(sorted(tally.unsayable.items())),  # by action: the variant's paper has no word
        "pii_scrubbed": tally.pii.as_dict(),
        "images_with_privacy_regions_masked": tally.masked_images,
        "files": file_hashes(folder, known),
    }
    text = json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    (folder / MANIFEST).write_text(text, encoding="utf-8")
