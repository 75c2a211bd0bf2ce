"""The exported screenshots: each resized once to the size the model is shown, a batch at a time on all cores.

Decoding, resizing and encoding a screenshot costs tens of milliseconds of CPU, and even a screenshot sent as
stored is read and its sha256 checked, so the samples are made a batch ahead of the writer and their images
made on a thread per core (Pillow and hashlib release the GIL) while the writer writes the batch before; a
screenshot shown in several samples (the history window) is made once and kept for the next ones.
Each copy made is also kept in the data folder's screenshot cache (`annotator.imaging.kept_copies`), so that the
next export of the same screenshots at the same size reads it instead of making it again: an export is then bound
by the disk. The pixel work is `annotator.imaging`'s: the resize the collecting agent and the judge use too.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from annotator.imaging.decode import PNG_SIGNATURE, decoded
from annotator.imaging.encode import png_bytes
from annotator.imaging.kept_copies import KeptCopies
from annotator.imaging.mask import mask_regions
from annotator.imaging.resize import resized
from annotator.storage.blobs import BlobStore
from trainer_bridge.export.sft import ImageRef, Sample

BATCH = 32  # samples made ahead of the writer
KEPT = 8 * BATCH  # prepared images kept: a history window reaches back a few samples at most
WRITES_AHEAD = 2 * BATCH  # image files being written while the writer goes on; bounds the bytes they hold


class ExportImages:
    """Image bytes at the model's size, and `folder/<ab>/<sha256>-<w>x<h>.png` files written once each (`ab` the
    sha256's first two characters)."""

    def __init__(
        self,
        blobs: BlobStore,
        folder: Path,
        mask: str | None = "blur",
        cache: Path | None = None,
        workers: int | None = None,
    ) -> None:
        """`mask`: how privacy regions are hidden (`blur`, `black`), or None to leave them as they are.
        `cache`: where copies made are kept for the next export (None: nowhere)."""
        self.blobs, self.folder, self.mask, self.copies = blobs, folder, mask, KeptCopies(cache)
        self.pool = ThreadPoolExecutor(workers or os.cpu_count() or 1, thread_name_prefix="export-images")
        self.ready: OrderedDict[str, bytes] = OrderedDict()
        self.making: dict[str, Future[bytes]] = {}  # images being made on the pool, by name
        self.written: dict[str, str] = {}  # file name -> sha256 of its bytes ("" while its write is in flight)
        # files are written on threads of their own: creating a file costs a millisecond here, time the writer
        # spends making the next samples (its own pool, so that a write never waits behind images being made)
        self.file_pool = ThreadPoolExecutor(os.cpu_count() or 1, thread_name_prefix="export-files")
        self.writing: deque[tuple[str, Future[str]]] = deque()
        self.masked: set[str] = set()  # images with privacy regions masked
        self.made, self.reused = 0, 0  # copies resized or masked now, and read from the cache
        self._counting = threading.Lock()

    def name(self, ref: ImageRef) -> str:
        return ref.file_name(self.mask)

    def _masks(self, ref: ImageRef) -> bool:
        return bool(self.mask and ref.regions)

    def _as_stored(self, ref: ImageRef) -> bool:
        return ref.size == ref.screen and not self._masks(ref)

    def make(self, ref: ImageRef) -> bytes:
        if self._masks(ref):
            self.masked.add(self.name(ref))
        variant = ref.variant(self.mask)
        if not self._as_stored(ref) and (kept := self.copies.read(ref.sha256, variant)) is not None:
            self._count(reused=1)
            return kept
        data = self.blobs.read_bytes(ref.sha256)
        if self._as_stored(ref) and data.startswith(PNG_SIGNATURE):
            return data  # the model is shown the screenshot as stored
        with decoded(data) as image:
            shown = resized(image, ref.size)
        if self._masks(ref):
            shown = mask_regions(shown, ref.regions, str(self.mask), source=ref.screen)
        made = png_bytes(shown)
        self.copies.keep(ref.sha256, variant, made)
        self._count(made=1)
        return made

    def _count(self, made: int = 0, reused: int = 0) -> None:
        with self._counting:  # the pool's threads count too
            self.made, self.reused = self.made + made, self.reused + reused

    def prepare(self, refs: Iterable[ImageRef]) -> None:
        """Start making the images of `refs` that are neither ready nor being made; `png` waits for them."""
        for ref in refs:
            name = self.name(ref)
            if name not in self.ready and name not in self.making:
                self.making[name] = self.pool.submit(self.make, ref)

    def _keep(self, name: str, data: bytes) -> None:
        self.ready[name] = data
        self.ready.move_to_end(name)
        while len(self.ready) > KEPT:
            self.ready.popitem(last=False)

    def png(self, ref: ImageRef) -> bytes:
        name = self.name(ref)
        if (making := self.making.pop(name, None)) is not None:
            self._keep(name, making.result())  # a failure to make it is raised here, to the writer
        data = self.ready.get(name)
        if data is None:
            data = self.make(ref)
            self._keep(name, data)
        return data

    def relative(self, name: str) -> str:
        """Where the file of image `name` goes under `folder`: in a folder named by the first two characters of
        its sha256, as the blob store fans out. A folder takes one file creation at a time (the kernel locks it),
        and a creation costs a millisecond on some disks: fanned out, the file pool creates them side by side."""
        return f"{name[:2]}/{name}"

    def path(self, ref: ImageRef) -> Path:
        """The file of `ref`, written now if it is not there yet (on the file pool: `known_hashes` waits for every
        write). The folder is inside the export's staging folder (`export.run`), which a failed export removes: a
        file cut short is never left behind as a result."""
        name = self.name(ref)
        path = self.folder / self.relative(name)
        if name not in self.written:
            self.written[name] = ""
            data = self.png(ref)
            as_stored = self._as_stored(ref) and data.startswith(PNG_SIGNATURE)
            writing = self.file_pool.submit(write_file, path, data, ref.sha256 if as_stored else "")
            self.writing.append((name, writing))
            while len(self.writing) > WRITES_AHEAD:
                self._finish_write()
        return path

    def _finish_write(self) -> None:
        name, writing = self.writing.popleft()
        self.written[name] = writing.result()  # a failure to write is raised here, to the writer

    def known_hashes(self, out: Path) -> dict[str, str]:
        """sha256 of each image file written, by its path relative to `out` (the manifest need not read them), once
        every write is done."""
        while self.writing:
            self._finish_write()
        prefix = self.folder.relative_to(out).as_posix()
        return {f"{prefix}/{self.relative(name)}": sha for name, sha in self.written.items()}

    def close(self) -> None:
        """Stop making images and writing files (waiting for those under way: the caller may remove the folder)."""
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.file_pool.shutdown(wait=True, cancel_futures=True)


def write_file(path: Path, data: bytes, sha256: str) -> str:
    """Write `data` to `path` (making its folder if need be); its sha256, `sha256` where the caller knows it."""
    try:
        path.write_bytes(data)
    except FileNotFoundError:  # the first file of its folder (another thread may be making the folder too)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return sha256 or hashlib.sha256(data).hexdigest()


def prepared(samples: Iterable[Sample], images: ExportImages) -> Iterator[Sample]:
    """The samples, a batch at a time; each batch's images are being made while the batch before is written."""
    batch: list[Sample] = []
    ahead: list[Sample] = []
    for sample in samples:
        batch.append(sample)
        if len(batch) == BATCH:
            images.prepare(ref for item in batch for ref in item.images)
            yield from ahead
            ahead, batch = batch, []
    images.prepare(ref for item in batch for ref in item.images)
    yield from ahead
    yield from batch
