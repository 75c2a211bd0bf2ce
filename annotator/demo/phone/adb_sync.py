"""The `sync:` service: stat, list, pull and push against the virtual phone's file store.

Requests are an id and a little-endian length, then a path. v1 (STAT, LIST, RECV, SEND) is what adbutils
speaks; the `adb` tool adds STA2/LST2/LIS2 because the phone advertises `stat_v2` and `ls_v2`.
"""

from __future__ import annotations

import errno
import socket
import struct
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from annotator.demo.phone import shell_files
from annotator.demo.phone.adb_wire import ClientGone, recv_exact

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

MAX_DATA = 64 * 1024  # the largest DATA chunk either side may send
MAX_PATH = 1024
FILE_MODE = 0o100660  # a regular file, rw-rw----, as files on /sdcard
DIR_MODE = 0o040771
SHELL_UID = 2000


class SyncSession:
    """One `sync:` connection to one phone; `mtime` is the time every file reports as its modification."""

    def __init__(self, sock: socket.socket, phone: VirtualPhone, mtime: int) -> None:
        self.sock, self.phone, self.mtime = sock, phone, mtime

    def serve(self) -> None:
        """Answer requests until the client sends QUIT, closes, or sends something invalid."""
        while True:
            try:
                header = recv_exact(self.sock, 8)
            except ClientGone:
                return
            command, length = header[:4], struct.unpack("<I", header[4:])[0]
            if command == b"QUIT":
                return
            handler = HANDLERS.get(command)
            if handler is None:
                self.fail(f"unknown sync command {command!r}")
                return
            if length > MAX_PATH:
                self.fail(f"path too long ({length} bytes; at most {MAX_PATH})")
                return
            path = recv_exact(self.sock, length).decode("utf-8", errors="replace")
            if handler(self, path) is False:
                return

    def fail(self, message: str) -> None:
        data = message.encode("utf-8")
        self.sock.sendall(b"FAIL" + struct.pack("<I", len(data)) + data)

    def lookup(self, path: str) -> tuple[int, int]:
        """(mode, size) of a path; (0, 0) when it does not exist, which is how adbd reports that in v1."""
        with self.phone.lock:
            clean = shell_files.normalize(path)
            if clean in self.phone.files:
                return FILE_MODE, len(self.phone.files[clean])
            if shell_files.is_dir(self.phone.files, clean):
                return DIR_MODE, 4096
            return 0, 0

    def stat_v2(self, path: str, mode: int, size: int) -> bytes:
        """The fields after the id of adb's `sync_stat_v2` (also the start of a `sync_dent_v2`)."""
        error = 0 if mode else errno.ENOENT
        mtime = self.mtime if mode else 0
        inode = zlib.crc32(shell_files.normalize(path).encode()) if mode else 0
        uid = SHELL_UID if mode else 0
        return struct.pack("<IQQIIIIQqqq", error, 0, inode, mode, 1 if mode else 0, uid, uid, size, mtime, mtime, mtime)

    def entries(self, path: str) -> list[tuple[str, int, int]]:
        """(name, mode, size) of a directory's entries, `.` and `..` first as readdir gives them."""
        with self.phone.lock:
            if not shell_files.is_dir(self.phone.files, path):
                return []
            listing = shell_files.list_dir(self.phone.files, path)
        found = [(".", DIR_MODE, 4096), ("..", DIR_MODE, 4096)]
        return found + [(name, DIR_MODE if size is None else FILE_MODE, size or 4096) for name, size in listing.items()]


def _stat(session: SyncSession, path: str) -> None:
    mode, size = session.lookup(path)
    session.sock.sendall(b"STAT" + struct.pack("<III", mode, size, session.mtime if mode else 0))


def _stat2(reply: bytes) -> Callable[[SyncSession, str], None]:
    def handler(session: SyncSession, path: str) -> None:
        mode, size = session.lookup(path)
        session.sock.sendall(reply + session.stat_v2(path, mode, size))

    return handler


def _list(session: SyncSession, path: str) -> None:
    out = bytearray()
    for name, mode, size in session.entries(path):
        data = name.encode("utf-8")
        out += b"DENT" + struct.pack("<IIII", mode, size, session.mtime, len(data)) + data
    session.sock.sendall(bytes(out) + b"DONE" + bytes(16))


def _list2(session: SyncSession, path: str) -> None:
    out = bytearray()
    for name, mode, size in session.entries(path):
        data = name.encode("utf-8")
        entry_path = shell_files.normalize(f"{path}/{name}")
        out += b"DNT2" + session.stat_v2(entry_path, mode, size) + struct.pack("<I", len(data)) + data
    session.sock.sendall(bytes(out) + b"DONE" + bytes(72))


def _recv(session: SyncSession, path: str) -> bool:
    with session.phone.lock:
        data = session.phone.files.get(shell_files.normalize(path))
        is_dir = data is None and shell_files.is_dir(session.phone.files, path)
    if data is None:
        session.fail("read failed: Is a directory" if is_dir else "open failed: No such file or directory")
        return False
    out = bytearray()
    for start in range(0, len(data), MAX_DATA):
        chunk = data[start : start + MAX_DATA]
        out += b"DATA" + struct.pack("<I", len(chunk)) + chunk
    session.sock.sendall(bytes(out) + b"DONE" + bytes(4))
    return True


def _send(session: SyncSession, spec: str) -> bool:
    """`path,mode` then DATA chunks and a DONE; the file is stored when DONE arrives, as adbd writes it."""
    path, comma, _mode = spec.rpartition(",")
    if not comma:
        session.fail("missing , in ID_SEND")
        return False
    content = bytearray()
    while True:
        header = recv_exact(session.sock, 8)
        kind, length = header[:4], struct.unpack("<I", header[4:])[0]
        if kind == b"DONE":
            break
        if kind != b"DATA" or length > MAX_DATA:
            session.fail(f"invalid data message {kind!r} of {length} bytes (DATA chunks are at most {MAX_DATA})")
            return False
        content += recv_exact(session.sock, length)
    try:
        with session.phone.lock:
            shell_files.write(session.phone.files, path, bytes(content))
    except IsADirectoryError as error:
        session.fail(f"couldn't create file: {error}")
        return False
    session.sock.sendall(b"OKAY" + bytes(4))
    return True


HANDLERS: dict[bytes, Callable[[SyncSession, str], bool | None]] = {
    b"STAT": _stat,
    b"STA2": _stat2(b"STA2"),
    b"LST2": _stat2(b"LST2"),
    b"LIST": _list,
    b"LIS2": _list2,
    b"RECV": _recv,
    b"SEND": _send,
}
