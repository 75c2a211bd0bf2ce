"""The phone's file store seen as a file system (for `rm`, `cat`, `ls` and the adb sync protocol).

The store is a flat `{path: bytes}`; directories are the usual Android ones plus every parent of a
stored file. Paths are normalised and `/storage/emulated/0` is the same place as `/sdcard`, as on a phone.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from annotator.demo.phone.shell_io import CommandError, ShellIO

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

SDCARD = "/sdcard"
SDCARD_ALIASES = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard")
BASE_DIRS = frozenset(
    {
        "/",
        "/data",
        "/data/local",
        "/data/local/tmp",
        "/sdcard",
        "/sdcard/DCIM",
        "/sdcard/Download",
        "/sdcard/Pictures",
        "/storage",
        "/storage/emulated",
        "/system",
        "/system/bin",
    }
)


def normalize(path: str) -> str:
    """An absolute, normalised path (relative paths start at `/`, the adb shell's working directory)."""
    clean = posixpath.normpath(posixpath.join("/", path))
    clean = "/" + clean.lstrip("/")  # normpath keeps a leading `//`
    for alias in SDCARD_ALIASES:
        if clean == alias or clean.startswith(alias + "/"):
            return SDCARD + clean[len(alias) :]
    return clean


def is_file(files: dict[str, bytes], path: str) -> bool:
    return normalize(path) in files


def is_dir(files: dict[str, bytes], path: str) -> bool:
    clean = normalize(path)
    if clean in BASE_DIRS or clean == "/storage/emulated/0":
        return True
    prefix = clean.rstrip("/") + "/"
    return any(name.startswith(prefix) for name in files)


def list_dir(files: dict[str, bytes], path: str) -> dict[str, int | None]:
    """The entries of a directory: name -> file size, or None for a subdirectory."""
    clean = normalize(path)
    prefix = clean.rstrip("/") + "/"
    entries: dict[str, int | None] = {}
    for directory in BASE_DIRS:
        if directory != clean and posixpath.dirname(directory) == clean:
            entries[posixpath.basename(directory)] = None
    for name, data in files.items():
        if name.startswith(prefix):
            first, _, rest = name[len(prefix) :].partition("/")
            entries[first] = None if rest else len(data)
    return dict(sorted(entries.items()))


def write(files: dict[str, bytes], path: str, data: bytes) -> str:
    """Store a file and return its normalised path; a directory cannot be overwritten by a file."""
    clean = normalize(path)
    if is_dir(files, clean):
        raise IsADirectoryError(f"{path}: Is a directory")
    files[clean] = data
    return clean


# Commands


def rm(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    """`rm [-f] [-r|-R] path...`: like toybox, a missing path is an error unless -f."""
    flags, paths = _split_flags(args)
    force, recursive = "f" in flags, bool({"r", "R"} & flags)
    status = 0
    for path in paths:
        clean = normalize(path)
        if clean in phone.files:
            del phone.files[clean]
        elif is_dir(phone.files, clean):
            if not recursive:
                io.err(f"rm: {path}: Is a directory\n")
                status = 1
                continue
            prefix = clean.rstrip("/") + "/"
            for name in [name for name in phone.files if name.startswith(prefix)]:
                del phone.files[name]
        elif not force:
            io.err(f"rm: {path}: No such file or directory\n")
            status = 1
    if not paths and not force:
        raise CommandError("rm: Need 1 argument", 1)
    return status


def cat(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    status = 0
    for path in args:
        clean = normalize(path)
        if clean in phone.files:
            io.out(phone.files[clean])
        elif is_dir(phone.files, clean):
            io.err(f"cat: {path}: Is a directory\n")
            status = 1
        else:
            io.err(f"cat: {path}: No such file or directory\n")
            status = 1
    return status


def ls(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    """`ls [-l] [-a] [path...]`: names one per line, or mode/size/name lines with -l."""
    flags, paths = _split_flags(args)
    status = 0
    for path in paths or ["/"]:
        clean = normalize(path)
        if clean in phone.files:
            entries: dict[str, int | None] = {path: len(phone.files[clean])}
        elif is_dir(phone.files, clean):
            entries = list_dir(phone.files, clean)
        else:
            io.err(f"ls: {path}: No such file or directory\n")
            status = 1
            continue
        for name, size in entries.items():
            io.out(_long_line(name, size) if "l" in flags else f"{name}\n")
    return status


def _long_line(name: str, size: int | None) -> str:
    mode = "drwxrwx--x" if size is None else "-rw-rw----"
    return f"{mode} 1 shell shell {size or 4096:>8} 2024-11-23 09:41 {name}\n"


def _split_flags(args: list[str]) -> tuple[set[str], list[str]]:
    flags: set[str] = set()
    paths: list[str] = []
    for arg in args:
        if arg.startswith("-") and len(arg) > 1 and not paths:
            flags |= set(arg[1:])
        else:
            paths.append(arg)
    return flags, paths
