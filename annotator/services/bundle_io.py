"""Reading bundle files from a folder or a .zip, refusing anything that escapes the bundle or would unpack to far
more than the file holds (a zip bomb).

A zip's directory is checked before anything is read: every member's path, its expansion ratio and the total size
it unpacks to. The directory may lie; zipfile never hands out more than the size the directory gives a member (the
member then fails its CRC check, reported as damaged), so the limits hold while reading too.

Blobs are read by several threads at once (services/bundle_blobs.py): a folder's files are opened independently, and
each thread reads a zip through a handle of its own.
"""

from __future__ import annotations

import errno
import os
import threading
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import IO, Protocol

from annotator.services.bundle_manifest import BLOB_FOLDER, MANIFEST_NAME, BundleError
from annotator.storage.blobs import SHA256_PATTERN

MAX_MANIFEST_BYTES = 512 * 2**20  # read whole and parsed in memory
MAX_TOTAL_BYTES = 256 * 2**30  # what a zip may unpack to in all
MAX_RATIO = 100  # unpacked / packed size of a blob: PNGs barely deflate, hierarchy dumps ~10-fold
RATIO_FLOOR = 2**20  # members smaller than this may have any ratio: they cannot be a bomb
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)  # not on Windows: there every blob takes the slower check
# What reading a damaged member raises: a bad header or CRC, data cut short or not deflate, an unknown method.
ZIP_READ_ERRORS = (zipfile.BadZipFile, EOFError, zlib.error, NotImplementedError)


class BundleReader(Protocol):
    def read_manifest(self) -> bytes: ...
    def open_blob(self, sha256: str) -> IO[bytes]: ...
    def close(self) -> None: ...


def safe_member(name: str) -> PurePosixPath:
    """A bundle-relative path, or BundleError when it is absolute or climbs out with '..'."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        raise BundleError(f"the bundle holds a path that escapes it: {name!r}")
    return path


class FolderBundle:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._blobs: Path | None = None  # the blob folder, resolved once it is known to stay inside the bundle

    def _file(self, relative: str) -> Path:
        path = (self.root / safe_member(relative)).resolve()
        if not path.is_relative_to(self.root):
            raise BundleError(f"the bundle holds a path that escapes it: {relative!r} -> {path}")
        return path

    def read_manifest(self) -> bytes:
        try:
            path = self._file(MANIFEST_NAME)
            if path.stat().st_size > MAX_MANIFEST_BYTES:
                raise BundleError(
                    f"{MANIFEST_NAME} is {path.stat().st_size} bytes, more than the "
                    f"{MAX_MANIFEST_BYTES} a bundle may hold"
                )
            return path.read_bytes()
        except FileNotFoundError:
            raise BundleError(f"{self.root} has no {MANIFEST_NAME}; is it a bundle?") from None

    def open_blob(self, sha256: str) -> IO[bytes]:
        """The blob's file. Resolving each path (an lstat per folder on the way) cost about as much as hashing the
        blobs in a profile of an import: the blob folder is resolved once, and only a blob that is a link (to
        anywhere) takes the full check."""
        relative = f"{BLOB_FOLDER}/{sha256}"
        try:
            if self._blobs is None:
                self._blobs = self._file(BLOB_FOLDER)
            if NO_FOLLOW and SHA256_PATTERN.match(sha256):  # a plain name: no folder, no '..'
                try:
                    return os.fdopen(os.open(self._blobs / sha256, os.O_RDONLY | NO_FOLLOW), "rb")
                except OSError as error:
                    if error.errno != errno.ELOOP:  # ELOOP: a link, checked below
                        raise
            return self._file(relative).open("rb")
        except FileNotFoundError:
            raise BundleError(f"blob {sha256} is listed in the manifest but missing from the bundle") from None

    def close(self) -> None:
        pass


class ZipBundle:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.archive = self._open(path)
        self.names = set(self.archive.namelist())
        self._local = threading.local()  # each thread's own handle on the zip (see _thread_archive)
        self._handles: list[zipfile.ZipFile] = []
        self._lock = threading.Lock()

    @staticmethod
    def _open(path: Path) -> zipfile.ZipFile:
        try:
            archive = zipfile.ZipFile(path)
        except zipfile.BadZipFile as error:
            raise BundleError(f"{path} is not a readable zip ({error}); it may be truncated") from None
        try:
            _check_directory(archive.infolist())
        except BundleError:
            archive.close()
            raise
        return archive

    def _thread_archive(self) -> zipfile.ZipFile:
        """This thread's handle on the zip: zipfile counts the members open on a handle without a lock, so threads
        that shared one could close its file under each other. Its directory is checked again, as the file may
        have changed since."""
        archive: zipfile.ZipFile | None = getattr(self._local, "archive", None)
        if archive is None:
            archive = self._local.archive = self._open(self.path)
            with self._lock:
                self._handles.append(archive)
        return archive

    def _read_checked(self, name: str) -> bytes:
        try:
            return self.archive.read(name)
        except (*ZIP_READ_ERRORS, OSError) as error:
            raise BundleError(f"{name} in the zip is damaged ({error}); the file may be truncated") from None

    def read_manifest(self) -> bytes:
        if MANIFEST_NAME not in self.names:
            raise BundleError(f"the zip has no {MANIFEST_NAME}; is it a bundle?")
        return self._read_checked(MANIFEST_NAME)

    def open_blob(self, sha256: str) -> IO[bytes]:
        name = f"{BLOB_FOLDER}/{sha256}"
        if name not in self.names:
            raise BundleError(f"blob {sha256} is listed in the manifest but missing from the bundle")
        try:
            return self._thread_archive().open(name)
        except KeyError:  # the zip changed since its directory was read
            raise BundleError(f"blob {sha256} is listed in the manifest but missing from the bundle") from None

    def close(self) -> None:
        with self._lock:
            for archive in [self.archive, *self._handles]:
                archive.close()
            self._handles.clear()


def _check_directory(members: list[zipfile.ZipInfo]) -> None:
    """Refuse a zip whose directory names a path outside the bundle or unpacks to too much (a zip bomb)."""
    total = 0
    for member in members:
        safe_member(member.filename)
        size, packed = member.file_size, max(member.compress_size, 1)
        if member.filename == MANIFEST_NAME and size > MAX_MANIFEST_BYTES:
            raise BundleError(f"{MANIFEST_NAME} is {size} bytes, more than the {MAX_MANIFEST_BYTES} a bundle may hold")
        # the manifest's own limit bounds it: a big one of many alike trajectories deflates ~75-fold
        if member.filename != MANIFEST_NAME and size > RATIO_FLOOR and size > MAX_RATIO * packed:
            raise BundleError(
                f"{member.filename!r} in the zip unpacks {size // packed}-fold ({packed} bytes to {size}), more "
                f"than the {MAX_RATIO}-fold a bundle needs: refused as a zip bomb"
            )
        total += size
    if total > MAX_TOTAL_BYTES:
        raise BundleError(f"the zip unpacks to {total} bytes, more than the {MAX_TOTAL_BYTES} a bundle may hold")


def open_bundle(path: Path) -> BundleReader:
    if path.is_dir():
        return FolderBundle(path)
    if path.is_file():
        return ZipBundle(path)
    raise BundleError(f"no bundle at {path}")
