"""Reading bundle files from a folder or a .zip, refusing anything that escapes the bundle or would unpack to far
more than the file holds (a zip bomb).

A zip's directory is checked before anything is read: every member's path, its expansion ratio and the total size
it unpacks to. The directory may lie; zipfile never hands out more than the size the directory gives a member (the
member then fails its CRC check, reported as damaged), so the limits hold while reading too.
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import IO, Protocol

from annotator.services.bundle_manifest import BLOB_FOLDER, MANIFEST_NAME, BundleError

MAX_MANIFEST_BYTES = 512 * 2**20  # read whole and parsed in memory
MAX_TOTAL_BYTES = 256 * 2**30  # what a zip may unpack to in all
MAX_RATIO = 100  # unpacked / packed size of a blob: PNGs barely deflate, hierarchy dumps ~10-fold
RATIO_FLOOR = 2**20  # members smaller than this may have any ratio: they cannot be a bomb
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

    def _file(self, relative: str) -> Path:
        path = (self.root / safe_member(relative)).resolve()
        if not path.is_relative_to(self.root):
            raise BundleError(f"the bundle holds a path that escapes it: {relative!r} -> {path}")
        return path

    def read_manifest(self) -> bytes:
        try:
            path = self._file(MANIFEST_NAME)
            if path.stat().st_size > MAX_MANIFEST_BYTES:
                raise BundleError(f"{MANIFEST_NAME} is {path.stat().st_size} bytes, more than the "
                                  f"{MAX_MANIFEST_BYTES} a bundle may hold")  # fmt: skip
            return path.read_bytes()
        except FileNotFoundError:
            raise BundleError(f"{self.root} has no {MANIFEST_NAME}; is it a bundle?") from None

    def open_blob(self, sha256: str) -> IO[bytes]:
        try:
            return self._file(f"{BLOB_FOLDER}/{sha256}").open("rb")
        except FileNotFoundError:
            raise BundleError(f"blob {sha256} is listed in the manifest but missing from the bundle") from None

    def close(self) -> None:
        pass


class ZipBundle:
    def __init__(self, path: Path) -> None:
        try:
            self.archive = zipfile.ZipFile(path)
        except zipfile.BadZipFile as error:
            raise BundleError(f"{path} is not a readable zip ({error}); it may be truncated") from None
        try:
            _check_directory(self.archive.infolist())
        except BundleError:
            self.archive.close()
            raise
        self.names = set(self.archive.namelist())

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
        return self.archive.open(name)

    def close(self) -> None:
        self.archive.close()


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
