"""Export and import bundles: trajectories with their labels, revisions, reviews and blobs, the judges' scores
and the validation studies.

Import validates the whole manifest and copies every blob (checking size and
hash, and that a screenshot is an image of its size) before it touches the
database, then writes all rows in one transaction: a bad bundle leaves the
database exactly as it was, and the blob files it wrote are removed.
Trajectories and instructions are identified by uid, so importing a bundle
twice (even two imports at once) adds nothing.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from annotator import __version__
from annotator.services import bundle_manifest as fmt
from annotator.services.bundle_blobs import BlobCopier, exporting_blobs
from annotator.services.bundle_io import BundleReader, open_bundle
from annotator.services.bundle_judging import validate_judging, withhold
from annotator.services.target_boxes import suggest_missing_boxes
from annotator.storage import bundle_rows, bundles, integrity
from annotator.storage import studies as stored_studies
from annotator.storage.failures import NO_ROOM
from annotator.storage.staging import staging_folder
from annotator.storage.studies import HiddenJudging
from annotator.storage.workspace import Workspace

Progress = Callable[[int, int], None]


@dataclass
class ExportResult:
    path: Path
    trajectories: int
    steps: int
    blobs: int
    bytes: int
    withheld: dict[str, Any] | None = None  # the manifest's "withheld" section: judge results left out, and why


@dataclass
class ImportResult:
    trajectories_added: int = 0
    trajectories_skipped: int = 0
    steps_added: int = 0
    blobs_added: int = 0
    judge_scores_added: int = 0
    studies_added: int = 0
    skipped_uids: list[str] = field(default_factory=list)
    withheld: dict[str, Any] | None = None  # the bundle's writer could not see some judge results: not in it


def build_manifest(
    workspace: Workspace, app: str | None, status: str | None, hidden: HiddenJudging | None = None
) -> dict[str, Any]:
    """The manifest; `hidden` (storage.studies.hidden_judging of whoever writes it) leaves out what they may not
    see, and the "withheld" section says what was left out."""
    manifest = {
        "format": fmt.FORMAT_NAME,
        "format_version": fmt.FORMAT_VERSION,
        "created_at": datetime.now(UTC).isoformat(),
        "created_by": f"annotator {__version__}",
        **bundles.export_sections(workspace.database, app, status),
    }
    if hidden:
        uid_of = stored_studies.trajectory_uids(workspace.database, hidden.trajectory_ids)
        withheld = withhold(manifest, hidden, uid_of)
        if withheld is not None:
            manifest["withheld"] = withheld
    return manifest


@contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused, as it was before afterwards. A manifest is hundreds of thousands of
    small objects, built or parsed at once (and rows made of them): the collector's passes over them all took about
    a third of building one. The few cycles made meanwhile (the ORM's) wait for it to run again."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@_cycle_collector_paused()
def export_bundle(
    workspace: Workspace,
    out: Path,
    *,
    app: str | None = None,
    status: str | None = None,
    progress: Progress | None = None,
    hidden: HiddenJudging | None = None,
) -> ExportResult:
    """Write a bundle to `out` (a folder, or a zip when it ends in .zip); written aside, then renamed. `hidden`:
    the judge results its writer may not see (storage.studies.hidden_judging), left out and named in the
    manifest's "withheld" section; None writes everything."""
    out = Path(out)
    if out.exists():
        raise FileExistsError(f"{out} already exists; choose a new name")
    manifest = build_manifest(workspace, app, status, hidden)
    staging = staging_folder(out)
    try:
        total = _write_folder(workspace, staging, manifest, progress)
        if out.suffix.lower() == ".zip":
            _zip_folder(staging, out)
        else:
            os.replace(staging, out)
    except OSError as error:
        if error.errno not in NO_ROOM:
            raise
        raise OSError(error.errno, error.strerror, str(out)) from error  # not the staging folder's file: the bundle
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    steps = sum(len(t["steps"]) for t in manifest["trajectories"])
    withheld = manifest.get("withheld")
    return ExportResult(out, len(manifest["trajectories"]), steps, len(manifest["blobs"]), total, withheld)


def _write_folder(workspace: Workspace, folder: Path, manifest: dict[str, Any], progress: Progress | None) -> int:
    (folder / fmt.BLOB_FOLDER).mkdir()
    with exporting_blobs(workspace.blobs, manifest["blobs"], folder / fmt.BLOB_FOLDER, progress) as copied:
        data = json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8")  # while the blobs are copied
        (folder / fmt.MANIFEST_NAME).write_bytes(data)
        return copied() + len(data)


def _zip_folder(folder: Path, out: Path) -> None:
    partial = folder.with_name(f"{folder.name}.zip")  # a leftover of the staging folder's, until it is renamed
    # Screenshots are PNG already; storing them avoids paying for a second compression.
    try:
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
            archive.write(folder / fmt.MANIFEST_NAME, fmt.MANIFEST_NAME, compress_type=zipfile.ZIP_DEFLATED)
            for blob in sorted((folder / fmt.BLOB_FOLDER).iterdir()):
                archive.write(blob, f"{fmt.BLOB_FOLDER}/{blob.name}")
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)  # a failed write's half zip (a full disk)


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
    except RecursionError:  # Python's decoder recurses once per level: a hostile file nests 100,000 deep
        raise fmt.BundleError(
            f"manifest.json is not usable JSON: it nests deeper than {fmt.MAX_NESTING} levels"
        ) from None


@_cycle_collector_paused()
def import_bundle(workspace: Workspace, path: Path, *, progress: Progress | None = None) -> ImportResult:
    """Check the bundle, copy the blobs the new trajectories need (each checked), then write every row in one
    transaction. A failure anywhere leaves the database as it was and removes the blob files this import wrote
    (not those another writer needs meanwhile: storage.integrity)."""
    reader = open_bundle(Path(path))
    copier = BlobCopier(workspace.blobs, reader)
    try:
        manifest = read_manifest(reader)
        copier.entries = fmt.validate_manifest(manifest)
        uids = [t["uid"] for t in manifest["trajectories"]]
        validate_judging(manifest, set(uids))
        stored = bundle_rows.stored_trajectory_uids(workspace.database, uids)
        wanted = [t for t in manifest["trajectories"] if t["uid"] not in stored]
        copier.screenshots = {s["screenshot_sha256"] for t in wanted for s in t["steps"]}
        copier.screenshots |= {t["final_screenshot_sha256"] for t in wanted if t.get("final_screenshot_sha256")}
        copier.copy_all(sorted(bundle_rows.needed_blobs(wanted)), progress)
        copier.start_flush()  # to disk while the rows are written; the commit waits for it
        written, skipped = bundle_rows.write_bundle(
            workspace.database, workspace.blobs, manifest, copier.refetch, copier.wait_flushed
        )
    except BaseException:
        integrity.remove_written_blobs(workspace.database, workspace.blobs, copier.written)
        raise
    finally:
        reader.close()
    suggest_missing_boxes(workspace, written.trajectory_ids)  # a bundle written before suggestions existed
    return ImportResult(
        trajectories_added=written.trajectories,
        trajectories_skipped=len(skipped),
        steps_added=written.steps,
        blobs_added=len(copier.written),
        judge_scores_added=written.judge_scores,
        studies_added=written.studies,
        skipped_uids=skipped,
        withheld=manifest.get("withheld"),
    )
