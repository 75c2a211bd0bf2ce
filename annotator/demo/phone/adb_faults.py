"""The virtual adb server's real faults: a connection that drops part way through a reply (a pulled cable)."""

from __future__ import annotations

import contextlib
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass

from annotator.demo.phone.adb_wire import ClientGone


@dataclass(frozen=True)
class Cut:
    """A connection to drop: the next command running `program` sends `after` bytes of its reply, then the line
    goes dead (and the phone is unplugged when `unplug`)."""

    program: str
    after: int
    unplug: bool = True
    skip: int = 0  # commands running `program` let through first

    def matches(self, command: str) -> bool:
        return re.search(rf"(^|[\s;&|/]){re.escape(self.program)}(\s|$)", command) is not None


def drop(sock: socket.socket, cut: Cut, serial: str, size: int, unplug: Callable[[str], object]) -> None:
    """Drop the line after the start of a reply was sent (and the phone, when the cut says so)."""
    if cut.unplug:
        unplug(serial)
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    raise ClientGone(f"the connection to {serial} was cut after {cut.after} of {size} bytes")
