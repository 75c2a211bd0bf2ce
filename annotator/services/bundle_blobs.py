"""Copying a bundle's blobs into the store, each checked against its manifest entry, and out of it into a bundle
being written (exporting_blobs), a few at a time.

Each blob is read once: its size, its hash and (for a screenshot) a check that it is a whole image of its size are
worked out from the same bytes, which are then written to the store. Hashing alone takes about as long as a plain
copy of the bundle; it, the file reads and writes and the PNG chunks' CRCs (zlib) let go of the GIL, so threads
share that work between the cores.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from annotator.imaging.decode import UnreadableImage, checked_image_size
from annotator.services import bundle_manifest as fmt
from annotator.services.bundle_io import ZIP_READ_ERRORS, BundleReader
from annotator.storage.blobs import CHUNK, BlobCorruptError, BlobStore, hash_stream

Progress = Callable[[int, int], None]
WORKERS = 4  # on 2 cores 2, 4 and 8 threads copied about as fast; more than 2 for a disk that makes them wait
WHOLE = CHUNK  # a blob up to this size is read whole; a bigger one that is no image is streamed


@contextmanager
def exporting_blobs(
    store: BlobStore, entries: list[dict[str, Any]], folder: Path, progress: Progress | None
) -> Iterator[Callable[[], int]]:
    """Start copying the blobs of `entries` (the manifest's) from the store into `folder`, each checked on the way
    (size and hash), several at once; yields the wait for them to be copied, which returns their bytes in all. The
    caller writes the manifest meanwhile. The first failure, in the order of `entries`, is raised once no copy is
    running."""
    pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="bundle-export")
    try:
        futures = [pool.submit(store.copy_to, e["sha256"], folder / e["sha256"], size=e["size"]) for e in entries]

        def copied() -> int:
            for done, future in enumerate(futures, start=1):
                future.result()
                if progress:
                    progress(done, len(entries))
            return sum(entry["size"] for entry in entries)

        yield copied
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


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
        self._failed = threading.Event()
        self._flush: threading.Thread | None = None
        self._refetched = False

    def copy_all(self, hashes: list[str], progress: Progress | None = None) -> None:
        """Copy the blobs `hashes`, several at once. Raises the error of the first that fails, in the order of
        `hashes` (as copying one after another would), once no copy is running: `written` is then complete."""
        pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="bundle-blobs")
        try:
            futures: list[Future[None]] = [pool.submit(self._copy_unless_failed, sha256) for sha256 in hashes]
            for done, future in enumerate(futures, start=1):
                future.result()
                if progress:
                    progress(done, len(hashes))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def start_flush(self) -> None:
        """Start flushing the copied blobs to disk (it takes a while after gigabytes), to be waited for before the
        rows that point at them are committed (wait_flushed)."""
        self._flush = threading.Thread(target=self.store.sync, name="bundle-flush", daemon=True)
        self._flush.start()

    def refetch(self, sha256: str) -> None:
        """Copy a blob again: one that went after the copy (another import's clean-up removed it)."""
        self.copy(sha256)
        self._refetched = True

    def wait_flushed(self) -> None:
        """Return once the copied blobs are on disk, those copied again since the flush began too."""
        if self._flush is not None:
            self._flush.join()
        if self._refetched:
            self.store.sync()

    def _copy_unless_failed(self, sha256: str) -> None:
        if self._failed.is_set():  # a copy started before this one failed: the import stops, no use going on
            return
        try:
            self.copy(sha256)
        except BaseException:
            self._failed.set()
            raise

    def copy(self, sha256: str) -> None:
        entry = self.entries[sha256]
        image = sha256 in self.screenshots or entry["media_type"].startswith("image/")
        try:
            with self.reader.open_blob(sha256) as source:
                if image or entry["size"] <= WHOLE:
                    new = self._copy_whole(sha256, source, entry, image)
                else:
                    new = self._copy_stream(sha256, source, entry)
        except BlobCorruptError as error:
            raise fmt.BundleError(f"blob {sha256} in the bundle does not match its name: {error}") from None
        except ZIP_READ_ERRORS as error:
            raise fmt.BundleError(f"blob {sha256} in the zip is damaged ({error}); truncated?") from None
        if new:
            self.written.add(sha256)

    def _copy_whole(self, sha256: str, source: IO[bytes], entry: dict[str, Any], image: bool) -> bool:
        data = source.read(entry["size"] + 1)  # one byte more than the manifest says tells a longer file
        if len(data) != entry["size"]:
            self._check_size(sha256, len(data) + hash_stream(source).size, entry)
        actual = hashlib.sha256(data).hexdigest()
        if actual != sha256:
            raise BlobCorruptError(f"content hashes to {actual}, expected {sha256}")
        if image:
            self._check_image(sha256, data, entry)
        return self.store.write_if_missing(data, sha256=sha256, durable=False)

    @staticmethod
    def _check_image(sha256: str, data: bytes, entry: dict[str, Any]) -> None:
        try:
            size = checked_image_size(data)
        except UnreadableImage as error:
            raise fmt.BundleError(
                f"blob {sha256} is not a readable image, but the bundle uses it as one ({error})"
            ) from None
        expected = (entry.get("width"), entry.get("height"))
        if None not in expected and size != expected:
            raise fmt.BundleError(
                f"blob {sha256} is a {size[0]}x{size[1]} image, the manifest says {expected[0]}x{expected[1]}"
            )

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
