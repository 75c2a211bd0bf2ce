"""Export and import bundles: trajectories with their labels, revisions, reviews and blobs, the judges' scores
and the validation studies.

Import validates the whole manifest and copies every blob (checking size and
hash) before it touches the database, then writes all rows in one transaction:
a bad bundle leaves the database exactly as it was. Trajectories and
instructions are identified by uid, so importing a bundle twice adds nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from annotator import __version__
from annotator.services import bundle_manifest as fmt
from annotator.services.bundle_io import BundleReader, open_bundle
from annotator.services.bundle_judging import insert_judging, judging_entries, validate_judging
from annotator.services.bundle_rows import insert_trajectory, upsert_reference_rows
from annotator.storage import models
from annotator.storage.blobs import BlobCorruptError, hash_stream
from annotator.storage.workspace import Workspace

Progress = Callable[[int, int], None]


@dataclass
class ExportResult:
    path: Path
    trajectories: int
    steps: int
    blobs: int
    bytes: int


@dataclass
class ImportResult:
    trajectories_added: int = 0
    trajectories_skipped: int = 0
    steps_added: int = 0
    blobs_added: int = 0
    judge_scores_added: int = 0
    studies_added: int = 0
    skipped_uids: list[str] = field(default_factory=list)


def select_trajectories(session: Session, app: str | None, status: str | None) -> list[models.Trajectory]:
    query = (
        select(models.Trajectory)
        .options(
            selectinload(models.Trajectory.steps)
            .selectinload(models.Step.revisions)
            .selectinload(models.LabelRevision.person),
            selectinload(models.Trajectory.reviews).selectinload(models.Review.reviewer),
            selectinload(models.Trajectory.instruction).selectinload(models.Instruction.app),
            selectinload(models.Trajectory.device),
            selectinload(models.Trajectory.collector_person),
        )
        .order_by(models.Trajectory.id)
    )
    if app:
        query = query.join(models.Instruction).join(models.App).where(models.App.name == app)
    if status:
        query = query.where((models.Trajectory.status == status) | (models.Trajectory.review_status == status))
    return list(session.scalars(query))


def build_manifest(session: Session, trajectories: list[models.Trajectory]) -> dict[str, Any]:
    instructions = {t.instruction.uid: t.instruction for t in trajectories}
    apps = {i.app.name: i.app for i in instructions.values()}
    devices = {t.device.serial: t.device for t in trajectories if t.device}
    hashes = {h for t in trajectories for s in t.steps for h in (s.screenshot_sha256, s.hierarchy_sha256) if h}
    blobs = session.scalars(select(models.Blob).where(models.Blob.sha256.in_(hashes))).all() if hashes else []
    people = {p.name: p for p in session.scalars(select(models.Person))}
    outcome_revisions = _trajectory_revisions(session, [t.id for t in trajectories])
    return {
        "format": fmt.FORMAT_NAME,
        "format_version": fmt.FORMAT_VERSION,
        "created_at": datetime.now(UTC).isoformat(),
        "created_by": f"annotator {__version__}",
        "people": [{"name": p.name, "role": p.role} for p in people.values()],
        "apps": [{"name": a.name, "package": a.package} for a in apps.values()],
        "devices": [{k: getattr(d, k) for k in fmt.DEVICE_COLUMNS} for d in devices.values()],
        "instructions": [
            {
                "uid": i.uid,
                "app": i.app.name,
                "text": i.text,
                "source": i.source,
                "status": i.status,
                "created_at": fmt.iso(i.created_at),
            }
            for i in instructions.values()
        ],
        "blobs": [fmt.blob_entry(b) for b in sorted(blobs, key=lambda b: b.sha256)],
        "trajectories": [fmt.trajectory_entry(t, outcome_revisions.get(t.id, [])) for t in trajectories],
        **judging_entries(session, trajectories),
    }


def _trajectory_revisions(session: Session, ids: list[int]) -> dict[int, list[models.LabelRevision]]:
    """Revisions that belong to a trajectory and no step (its labelled outcome), by trajectory id."""
    R = models.LabelRevision
    found: dict[int, list[models.LabelRevision]] = {}
    query = select(R).where(R.step_id.is_(None), R.trajectory_id.in_(ids)).options(selectinload(R.person))
    query = query.order_by(R.id)
    for revision in session.scalars(query) if ids else []:
        found.setdefault(revision.trajectory_id or 0, []).append(revision)
    return found


def export_bundle(
    workspace: Workspace, out: Path, *, app: str | None = None, status: str | None = None,
    progress: Progress | None = None,
) -> ExportResult:  # fmt: skip
    """Write a bundle to `out` (a folder, or a zip when it ends in .zip); written aside, then renamed."""
    out = Path(out)
    if out.exists():
        raise FileExistsError(f"{out} already exists; choose a new name")
    with workspace.database.session() as session:
        trajectories = select_trajectories(session, app, status)
        manifest = build_manifest(session, trajectories)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        total = _write_folder(workspace, staging, manifest, progress)
        if out.suffix.lower() == ".zip":
            _zip_folder(staging, out)
        else:
            os.replace(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    steps = sum(len(t["steps"]) for t in manifest["trajectories"])
    return ExportResult(out, len(trajectories), steps, len(manifest["blobs"]), total)


def _write_folder(workspace: Workspace, folder: Path, manifest: dict[str, Any], progress: Progress | None) -> int:
    (folder / fmt.BLOB_FOLDER).mkdir()
    total = 0
    count = len(manifest["blobs"])
    for done, entry in enumerate(manifest["blobs"], start=1):
        workspace.blobs.copy_to(entry["sha256"], folder / fmt.BLOB_FOLDER / entry["sha256"], size=entry["size"])
        total += entry["size"]
        if progress:
            progress(done, count)
    data = json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8")
    (folder / fmt.MANIFEST_NAME).write_bytes(data)
    return total + len(data)


def _zip_folder(folder: Path, out: Path) -> None:
    partial = out.with_name(f".{out.name}.partial")
    # Screenshots are PNG already; storing them avoids paying for a second compression.
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        archive.write(folder / fmt.MANIFEST_NAME, fmt.MANIFEST_NAME, compress_type=zipfile.ZIP_DEFLATED)
        for blob in sorted((folder / fmt.BLOB_FOLDER).iterdir()):
            archive.write(blob, f"{fmt.BLOB_FOLDER}/{blob.name}")
    os.replace(partial, out)


def read_manifest(reader: BundleReader) -> dict[str, Any]:
    raw = reader.read_manifest()
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise fmt.BundleError(f"manifest.json is not UTF-8 text ({error})") from None
    except json.JSONDecodeError as error:
        raise fmt.BundleError(
            f"manifest.json is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None


def import_bundle(workspace: Workspace, path: Path, *, progress: Progress | None = None) -> ImportResult:
    reader = open_bundle(Path(path))
    try:
        manifest = read_manifest(reader)
        blobs = fmt.validate_manifest(manifest)
        validate_judging(manifest, {t["uid"] for t in manifest["trajectories"]})
        with workspace.database.session() as session:
            existing = set(session.scalars(select(models.Trajectory.uid)))
        wanted = [t for t in manifest["trajectories"] if t["uid"] not in existing]
        needed = {
            h for t in wanted for s in t["steps"] for h in (s["screenshot_sha256"], s.get("hierarchy_sha256")) if h
        }
        result = ImportResult(
            trajectories_skipped=len(manifest["trajectories"]) - len(wanted),
            skipped_uids=[t["uid"] for t in manifest["trajectories"] if t["uid"] in existing],
        )
        result.blobs_added = _copy_blobs(workspace, reader, [blobs[h] for h in sorted(needed)], progress)
    finally:
        reader.close()
    with workspace.database.session() as session, session.begin():
        refs = upsert_reference_rows(session, manifest, blobs, needed)
        for trajectory in wanted:
            result.steps_added += insert_trajectory(session, trajectory, refs)
        session.flush()
        result.judge_scores_added, result.studies_added = insert_judging(session, manifest)
    result.trajectories_added = len(wanted)
    return result


def _copy_blobs(
    workspace: Workspace, reader: BundleReader, entries: list[dict[str, Any]], progress: Progress | None
) -> int:
    """Copy (or, when the store has it already, only check) every blob the new trajectories need."""
    added = 0
    for done, entry in enumerate(entries, start=1):
        sha256 = entry["sha256"]
        present = workspace.blobs.exists(sha256)
        with reader.open_blob(sha256) as source:
            try:
                if present:
                    ref = hash_stream(source)
                    if ref.sha256 != sha256:
                        raise BlobCorruptError(f"content hashes to {ref.sha256}, expected {sha256}")
                else:
                    ref = workspace.blobs.put_stream(source, expected_sha256=sha256, durable=False)
            except BlobCorruptError as error:
                raise fmt.BundleError(f"blob {sha256} in the bundle does not match its name: {error}") from None
            except (zipfile.BadZipFile, EOFError) as error:
                raise fmt.BundleError(f"blob {sha256} in the zip is damaged ({error}); truncated?") from None
        if ref.size != entry["size"]:
            raise fmt.BundleError(f"blob {sha256}: {ref.size} bytes, the manifest says {entry['size']}")
        added += not present
        if progress:
            progress(done, len(entries))
    workspace.blobs.sync()
    return added
