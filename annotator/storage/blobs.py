"""Content-addressed blob store: screenshots and UI dumps, named by sha256.

Files live under ROOT/ab/cdef... (two-letter fan-out). A write goes to a
temporary file in the same folder and is renamed into place, so a crash never
leaves a half-written blob under its final name. Reads check size and hash; a
missing or corrupt blob is an error, never silently replaced.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO

CHUNK = 1 << 20
SHA256_PATTERN = re.compile(r"^[0-9a-f]{64}$")


class BlobError(RuntimeError):
    pass


class BlobMissingError(BlobError):
    pass


class BlobCorruptError(BlobError):
    pass


@dataclass(frozen=True, slots=True)
class BlobRef:
    sha256: str
    size: int


def check_sha256(value: str) -> str:
    if not isinstance(value, str) or not SHA256_PATTERN.match(value):
        raise BlobError(f"not a sha256 hex digest: {value!r}")
    return value


def hash_stream(source: IO[bytes]) -> BlobRef:
    digest = hashlib.sha256()
    size = 0
    while chunk := source.read(CHUNK):
        digest.update(chunk)
        size += len(chunk)
    return BlobRef(digest.hexdigest(), size)


@contextmanager
def _naming(path: Path) -> Iterator[None]:
    """A write that fails (a full disk) names the file it was writing: write() and close() name none."""
    try:
        yield
    except OSError as error:
        if error.filename is not None or error.errno is None:
            raise
        raise OSError(error.errno, error.strerror, str(path)) from error


class BlobStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, sha256: str) -> Path:
        check_sha256(sha256)
        return self.root / sha256[:2] / sha256[2:]

    def screenshot_path(self, sha256: str) -> Path:
        """The file of a stored screenshot, for the GUI: Qt's image reader decodes a screenshot straight to the size
        shown from a file, reading only what that needs. The bytes are not checked on the way (read_bytes does
        that), so a reader treats the file as untrusted and reports one it cannot decode, or that is not there."""
        return self.path(sha256)

    def exists(self, sha256: str) -> bool:
        return self.path(sha256).is_file()

    def put_bytes(self, data: bytes, *, durable: bool = True) -> BlobRef:
        ref = BlobRef(hashlib.sha256(data).hexdigest(), len(data))
        if not self.exists(ref.sha256):
            self._write(ref.sha256, lambda out: out.write(data), durable=durable)
        return ref

    def write_if_missing(self, data: bytes, *, sha256: str | None = None, durable: bool = True) -> bool:
        """Store `data` unless its blob is there; whether this call wrote the file (a failed import removes those).

        `sha256` is the hash of `data` when the caller has just worked it out (it is not checked again)."""
        sha256 = sha256 or hashlib.sha256(data).hexdigest()
        if self.exists(sha256):
            return False
        self._write(sha256, lambda out: out.write(data), durable=durable)
        return True

    def remove(self, sha256: str) -> bool:
        """Delete a blob's file; whether there was one. Only storage.integrity calls this, under the blob lock."""
        try:
            self.path(sha256).unlink()
        except FileNotFoundError:
            return False
        return True

    def put_stream(self, source: IO[bytes], *, expected_sha256: str | None = None, durable: bool = True) -> BlobRef:
        """Copy a stream into the store, hashing as it goes; refuse it if it does not match the expected hash."""
        digest = hashlib.sha256()
        size = 0
        directory = self.root / "tmp"
        directory.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(dir=directory, prefix="incoming-")
        try:
            with _naming(Path(temp_name)), os.fdopen(handle, "wb") as out:
                while chunk := source.read(CHUNK):
                    digest.update(chunk)
                    size += len(chunk)
                    out.write(chunk)
                if durable:
                    out.flush()
                    os.fsync(out.fileno())
            sha256 = digest.hexdigest()
            if expected_sha256 is not None and sha256 != expected_sha256:
                raise BlobCorruptError(f"content hashes to {sha256}, expected {expected_sha256}")
            final = self.path(sha256)
            final.parent.mkdir(parents=True, exist_ok=True)
            os.replace(temp_name, final)
            return BlobRef(sha256, size)
        finally:
            if os.path.exists(temp_name):
                os.unlink(temp_name)

    def _write(self, sha256: str, writer, *, durable: bool) -> None:
        final = self.path(sha256)
        try:
            handle, temp_name = tempfile.mkstemp(dir=final.parent, prefix=".tmp-")
        except FileNotFoundError:  # the first blob of its folder (not a mkdir before every write: a bundle import
            final.parent.mkdir(parents=True, exist_ok=True)  # writes thousands)
            handle, temp_name = tempfile.mkstemp(dir=final.parent, prefix=".tmp-")
        try:
            with _naming(final), os.fdopen(handle, "wb") as out:
                writer(out)
                if durable:
                    out.flush()
                    os.fsync(out.fileno())
            os.replace(temp_name, final)
        except BaseException:
            with suppress(FileNotFoundError):
                os.unlink(temp_name)
            raise

    def read_bytes(self, sha256: str, *, size: int | None = None) -> bytes:
        path = self.path(sha256)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise BlobMissingError(f"blob {sha256} is missing from {self.root}") from None
        self._check(sha256, hashlib.sha256(data).hexdigest(), len(data), size)
        return data

    def copy_to(self, sha256: str, target: Path, *, size: int | None = None) -> None:
        """Copy a blob to `target`, checking its hash on the way (one pass over the bytes)."""
        digest = hashlib.sha256()
        copied = 0
        try:
            source = self.path(sha256).open("rb")
        except FileNotFoundError:
            raise BlobMissingError(f"blob {sha256} is missing from {self.root}") from None
        with source, _naming(target), target.open("wb") as out:
            while chunk := source.read(CHUNK):
                digest.update(chunk)
                copied += len(chunk)
                out.write(chunk)
        self._check(sha256, digest.hexdigest(), copied, size)

    def verify(self, sha256: str, *, size: int | None = None) -> None:
        try:
            with self.path(sha256).open("rb") as source:
                ref = hash_stream(source)
        except FileNotFoundError:
            raise BlobMissingError(f"blob {sha256} is missing from {self.root}") from None
        self._check(sha256, ref.sha256, ref.size, size)

    def _check(self, sha256: str, actual: str, actual_size: int, size: int | None) -> None:
        if size is not None and actual_size != size:
            raise BlobCorruptError(f"blob {sha256} is corrupt: {actual_size} bytes on disk, {size} recorded")
        if actual != sha256:
            raise BlobCorruptError(f"blob {sha256} is corrupt: its content hashes to {actual}")

    def sync(self) -> None:
        """Flush written blobs to disk before the database commits rows that point at them."""
        if hasattr(os, "sync"):
            os.sync()

    def all_hashes(self) -> Iterable[str]:
        if not self.root.is_dir():
            return
        for folder in sorted(self.root.iterdir()):
            if len(folder.name) == 2 and folder.is_dir():
                for item in sorted(folder.iterdir()):
                    if SHA256_PATTERN.match(folder.name + item.name):
                        yield folder.name + item.name

    def remove_temporaries(self) -> None:
        shutil.rmtree(self.root / "tmp", ignore_errors=True)
