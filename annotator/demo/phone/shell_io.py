"""What every shell command of the virtual phone shares: its output streams and how it fails."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone


@dataclass(frozen=True)
class ShellResult:
    """A command line's outcome. `output` is stdout and stderr interleaved in the order they were written,
    which is what a v1 `shell:` or `exec:` connection carries."""

    stdout: bytes
    stderr: bytes
    exit_code: int
    output: bytes = b""


class ShellIO:
    """The streams one command line writes to, shared by all its commands."""

    def __init__(self) -> None:
        self.stdout, self.stderr, self.output = bytearray(), bytearray(), bytearray()

    def out(self, data: str | bytes) -> None:
        chunk = data.encode() if isinstance(data, str) else data
        self.stdout += chunk
        self.output += chunk

    def err(self, data: str | bytes) -> None:
        chunk = data.encode() if isinstance(data, str) else data
        self.stderr += chunk
        self.output += chunk

    def result(self, exit_code: int) -> ShellResult:
        return ShellResult(bytes(self.stdout), bytes(self.stderr), exit_code, bytes(self.output))


class CommandError(Exception):
    """A command failed the way its Android counterpart would: `message` goes to stderr, `code` is the status."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.message, self.code = message, code


# A command gets the phone, its arguments (without its own name) and the streams; it returns its status.
Handler = Callable[["VirtualPhone", list[str], ShellIO], int]


def take(args: list[str], usage: str) -> str:
    """Pop the next required argument, or fail with the command's usage line (exit 255, as Android's `cmd`)."""
    if not args:
        raise CommandError(usage, 255)
    return args.pop(0)


def parse_int(text: str, what: str) -> int:
    """An integer argument; Android's input accepts floats for coordinates, so those round."""
    try:
        return round(float(text))
    except ValueError:
        raise CommandError(f"Error: {what} must be a number, got '{text}'", 255) from None
