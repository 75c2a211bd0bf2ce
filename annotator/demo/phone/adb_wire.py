"""Framing of the adb host protocol ("smart sockets"): requests, OKAY/FAIL replies, and a clean goodbye."""

from __future__ import annotations

import socket

OKAY, FAIL = b"OKAY", b"FAIL"
DRAIN_SECONDS = 2.0


class ClientGone(Exception):
    """The client closed its side of the connection; nothing more can be said to it."""


class ProtocolError(Exception):
    """The client sent something that is not the adb protocol; the message goes back to it in a FAIL."""


def recv_exact(sock: socket.socket, size: int) -> bytes:
    """Exactly `size` bytes, or ClientGone when the client closes first."""
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ClientGone(f"connection closed after {len(data)} of {size} bytes")
        data += chunk
    return bytes(data)


def read_request(sock: socket.socket) -> str:
    """One request: four hex digits of length, then the service name in UTF-8."""
    prefix = recv_exact(sock, 4)
    try:
        size = int(prefix.decode("ascii"), 16)
    except (UnicodeDecodeError, ValueError):
        raise ProtocolError(f"invalid length prefix {prefix!r}: expected four hex digits") from None
    if size == 0:
        raise ProtocolError("empty request")
    try:
        return recv_exact(sock, size).decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("request is not valid UTF-8") from None


def block(payload: str | bytes) -> bytes:
    """A length-prefixed block, as host services answer with."""
    data = payload.encode("utf-8") if isinstance(payload, str) else payload
    return f"{len(data):04x}".encode("ascii") + data


def send_okay(sock: socket.socket, payload: str | bytes | None = None) -> None:
    sock.sendall(OKAY if payload is None else OKAY + block(payload))


def send_fail(sock: socket.socket, message: str) -> None:
    sock.sendall(FAIL + block(message[:0xFFFF]))


def finish(sock: socket.socket) -> None:
    """Close our side, then read what the client still sends until it closes too.

    Closing a socket with unread input makes the kernel reset the connection, and a reset can
    destroy replies the client has not read yet; draining first lets every reply arrive.
    """
    try:
        sock.shutdown(socket.SHUT_WR)
        sock.settimeout(DRAIN_SECONDS)
        while sock.recv(65536):
            pass
    except OSError:
        pass
