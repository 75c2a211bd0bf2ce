"""Do the blob files and the rows that point at them agree? Finding and removing files no row needs.

A file is removed only inside a transaction that holds the blob store's exclusive lock (storage.writing) and sees
no row pointing at it. Writers record a blob's row before they check for its file (collection), or check every
file again in their own locked transaction and copy back what went (imports), so a removal never leaves a row
without its file, even while another import or a collection runs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import CompoundSelect, select, union
from sqlalchemy.orm import Session

from annotator.storage import models
from annotator.storage.blobs import BlobCorruptError, BlobMissingError, BlobStore
from annotator.storage.database import Database
from annotator.storage.writing import writing

log = logging.getLogger(__name__)

TEMPORARY_GRACE_S = 3600  # a temporary file younger than this may belong to a write still going on
EXAMPLES = 5
CHUNK = 500  # hashes per IN (...) list


def _chunks(hashes: Iterable[str]) -> Iterable[list[str]]:
    ordered = sorted(hashes)
    for start in range(0, len(ordered), CHUNK):
        yield ordered[start : start + CHUNK]


def _referenced(session: Session, hashes: Iterable[str]) -> set[str]:
    """Those of `hashes` that a blob row or a step points at."""
    B, S = models.Blob, models.Step
    found: set[str] = set()
    for chunk in _chunks(hashes):
        query: CompoundSelect[str] = union(
            select(B.sha256).where(B.sha256.in_(chunk)),
            select(S.screenshot_sha256).where(S.screenshot_sha256.in_(chunk)),
            select(S.hierarchy_sha256).where(S.hierarchy_sha256.in_(chunk)),
        )
        found.update(str(sha) for sha in session.scalars(select(query.subquery().c[0])))
    return found


def _steps_pointing_at(session: Session, hashes: Iterable[str]) -> set[int]:
    """The steps whose screenshot or hierarchy is one of `hashes`: looked up by hash, not read all."""
    S = models.Step
    found: set[int] = set()
    for chunk in _chunks(hashes):
        either = S.screenshot_sha256.in_(chunk) | S.hierarchy_sha256.in_(chunk)
        found.update(session.scalars(select(S.id).where(either)))
    return found


def remove_unreferenced(db: Database, blobs: BlobStore, hashes: Iterable[str]) -> int:
    """Remove the files among `hashes` that no row points at; how many went."""
    wanted = set(hashes)
    if not wanted:
        return 0
    with writing(db, exclusive=True) as session:
        return sum(blobs.remove(sha256) for sha256 in sorted(wanted - _referenced(session, wanted)))


def remove_written_blobs(db: Database, blobs: BlobStore, hashes: Iterable[str]) -> int:
    """After a failed write: remove the files it wrote, except those a row points at by now (another writer
    stored the same content meanwhile). When even that fails (the failure may be the disk itself), the files stay
    for `annotator db check --fix`, and the first failure is the one reported."""
    try:
        return remove_unreferenced(db, blobs, hashes)
    except Exception:
        log.warning(
            "the blob files of a failed write could not be removed; `annotator db check --fix` will", exc_info=True
        )
        return 0


@dataclass
class IntegrityReport:
    """What `annotator db check` found (the command shows the first EXAMPLES of each list)."""

    blob_files: int = 0
    blob_rows: int = 0
    unreferenced: list[str] = field(default_factory=list)  # files no row points at
    missing: list[str] = field(default_factory=list)  # blob rows without their file
    corrupt: list[str] = field(default_factory=list)  # blob rows whose file has another size or content
    steps_without_files: int = 0  # steps whose screenshot or hierarchy is missing or corrupt
    temporaries: list[str] = field(default_factory=list)  # leftovers of writes that never finished
    removed: int = 0  # files removed by --fix

    def remaining_problems(self) -> int:
        return (
            len(self.unreferenced)
            + len(self.missing)
            + len(self.corrupt)
            + self.steps_without_files
            + len(self.temporaries)
        )


def _temporaries(blobs: BlobStore, now: float) -> list[Path]:
    """Files of writes that never finished: what blobs/tmp holds, and the .tmp- files beside stored blobs."""
    if not blobs.root.is_dir():
        return []
    candidates = list((blobs.root / "tmp").glob("*")) + list(blobs.root.glob("??/.tmp-*"))
    return sorted(path for path in candidates if path.is_file() and now - path.stat().st_mtime > TEMPORARY_GRACE_S)


def check(db: Database, blobs: BlobStore, *, fix: bool = False) -> IntegrityReport:
    """Compare the blob files with the rows; with `fix`, remove unreferenced files and old temporaries."""
    files = set(blobs.all_hashes())
    with db.session() as session:
        rows = {sha256: size for sha256, size in session.execute(select(models.Blob.sha256, models.Blob.size))}
        unreferenced = files - set(rows) - _referenced(session, files - set(rows))
    report = IntegrityReport(blob_files=len(files), blob_rows=len(rows))
    missing, corrupt = [], []
    for sha256, size in sorted(rows.items()):
        try:
            blobs.verify(sha256, size=size)
        except BlobMissingError:
            missing.append(sha256)
        except BlobCorruptError:
            corrupt.append(sha256)
    with db.session() as session:  # a step's hashes have foreign keys to blob rows: none points at no row
        report.steps_without_files = len(_steps_pointing_at(session, set(missing) | set(corrupt)))
    temporaries = _temporaries(blobs, time.time())
    if fix:
        report.removed = remove_unreferenced(db, blobs, unreferenced)
        for path in temporaries:
            path.unlink(missing_ok=True)
            report.removed += 1
        unreferenced = {sha256 for sha256 in unreferenced if blobs.exists(sha256)}
        temporaries = [path for path in temporaries if path.exists()]
    report.unreferenced = sorted(unreferenced)
    report.missing, report.corrupt = missing, corrupt
    report.temporaries = [str(path.relative_to(blobs.root)) for path in temporaries]
    return report
