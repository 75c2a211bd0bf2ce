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

import hashlib
import json
import os
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from annotator import __version__
from annotator.imaging.decode import UnreadableImage, checked_image_size
from annotator.services import bundle_manifest as fmt
from annotator.services.bundle_io import ZIP_READ_ERRORS, BundleReader, open_bundle
from annotator.services.bundle_judging import validate_judging, withhold
from annotator.services.target_boxes import suggest_missing_boxes
from annotator.storage import bundles, integrity
from annotator.storage import studies as stored_studies
from annotator.storage.blobs import BlobCorruptError, BlobStore, hash_stream
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


def export_bundle(
    workspace: Workspace, out: Path, *, app: str | None = None, status: str | None = None,
    progress: Progress | None = None, hidden: HiddenJudging | None = None,
) -> ExportResult:  # fmt: skip
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
        stored = bundles.stored_trajectory_uids(workspace.database, uids)
        wanted = [t for t in manifest["trajectories"] if t["uid"] not in stored]
        copier.screenshots = {s["screenshot_sha256"] for t in wanted for s in t["steps"]}
        copier.screenshots |= {t["final_screenshot_sha256"] for t in wanted if t.get("final_screenshot_sha256")}
        needed = sorted(bundles.needed_blobs(wanted))
        for done, sha256 in enumerate(needed, start=1):
            copier.copy(sha256)
            if progress:
                progress(done, len(needed))
        workspace.blobs.sync()
        written, skipped = bundles.write_bundle(workspace.database, workspace.blobs, manifest, copier.copy)
    except BaseException:
        integrity.remove_written_blobs(workspace.database, workspace.blobs, copier.written)
        raise
    finally:
        reader.close()
    suggest_missing_boxes(workspace, written.trajectory_ids)  # a bundle written before suggestions existed
    return ImportResult(
        trajectories_added=written.trajectories, trajectories_skipped=len(skipped), steps_added=written.steps,
        blobs_added=len(copier.written), judge_scores_added=written.judge_scores, studies_added=written.studies,
        skipped_uids=skipped, withheld=manifest.get("withheld"),
    )  # fmt: skip


class BlobCopier:
    """Copies a bundle's blobs into the store, checking each against its entry, and remembers which files it wrote.

    A screenshot is also checked the way collection checks one (it decodes whole, at the manifest's size), so a
    "screenshot" that is not an image is refused before anything points at it.
    """

    def __init__(self, store: BlobStore, reader: BundleReader) -> None:
        self.store, self.reader = store, reader
        self.entries: dict[str, dict[str, Any]] = {}
        self.screenshots: set[str] = set()
        self.written: set[str] = set()

    def copy(self, sha256: str) -> None:
        entry = self.entries[sha256]
        try:
            with self.reader.open_blob(sha256) as source:
                if sha256 in self.screenshots or entry["media_type"].startswith("image/"):
                    new = self._copy_image(sha256, source.read(), entry)
                else:
                    new = self._copy_stream(sha256, source, entry)
        except BlobCorruptError as error:
            raise fmt.BundleError(f"blob {sha256} in the bundle does not match its name: {error}") from None
        except ZIP_READ_ERRORS as error:
            raise fmt.BundleError(f"blob {sha256} in the zip is damaged ({error}); truncated?") from None
        if new:
            self.written.add(sha256)

    def _copy_image(self, sha256: str, data: bytes, entry: dict[str, Any]) -> bool:
        self._check_size(sha256, len(data), entry)
        actual = hashlib.sha256(data).hexdigest()
        if actual != sha256:
            raise BlobCorruptError(f"content hashes to {actual}, expected {sha256}")
        try:
            size = checked_image_size(data)
        except UnreadableImage as error:
            raise fmt.BundleError(
                f"blob {sha256} is not a readable image, but the bundle uses it as one ({error})"
            ) from None
        expected = (entry.get("width"), entry.get("height"))
        if None not in expected and size != expected:
            raise fmt.BundleError(f"blob {sha256} is a {size[0]}x{size[1]} image, the manifest says {expected[0]}x"
                                  f"{expected[1]}")  # fmt: skip
        return self.store.write_if_missing(data, sha256=sha256, durable=False)

    def _copy_stream(self, sha256: str, source: IO[bytes], entry: dict[str, Any]) -> bool:
        if self.store.exists(sha256):
            ref = hash_stream(source)
            if ref.sha256 != sha256:
                raise BlobCorruptError(f"content hashes to {ref.sha256}, expected {sha256}")
            self._check_size(sha256, ref.size, entry)
            return False
        ref = self.store.put_stream(source, expected_sha256=sha256, durable=False)
        try:
            self._check_size(sha256, ref.size, entry)
        except fmt.BundleError:
            self.written.add(sha256)  # it is in the store now: the clean-up removes it
            raise
        return True

    @staticmethod
    def _check_size(sha256: str, size: int, entry: dict[str, Any]) -> None:
        if size != entry["size"]:
            raise fmt.BundleError(f"blob {sha256}: {size} bytes, the manifest says {entry['size']}")
