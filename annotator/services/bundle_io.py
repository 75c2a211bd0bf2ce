"""Reading bundle files from a folder or a .zip, refusing anything that escapes the bundle."""

from __future__ import annotations

import zipfile
from pathlib import Path, PurePosixPath
from typing import IO, Protocol

from annotator.services.bundle_manifest import BLOB_FOLDER, MANIFEST_NAME, BundleError


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
            return self._file(MANIFEST_NAME).read_bytes()
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
        for name in self.archive.namelist():
            safe_member(name)
        self.names = set(self.archive.namelist())

    def _read_checked(self, name: str) -> bytes:
        try:
            return self.archive.read(name)
        except (zipfile.BadZipFile, EOFError, OSError) as error:
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


def open_bundle(path: Path) -> BundleReader:
    if path.is_dir():
        return FolderBundle(path)
    if path.is_file():
        return ZipBundle(path)
    raise BundleError(f"no bundle at {path}")
