"""`cmd virtualphone`: the virtual phone's own task hooks, reached over adb like every other command.

An evaluation on phones needs two things a real phone cannot give, and the virtual phone can:

- `cmd virtualphone check-task [--base64] TEXT...`: runs the success check of the instruction whose text this
  is on the phone's current state and prints one line: `success`, `failure`, or `unknown: <why>` (the text is
  not in this phone's instruction set). Every answer exits 0: the command worked, the line is the answer.
  `--base64` takes the text as base64 of its UTF-8 bytes, which no shell on the way can mangle.
- `cmd virtualphone reset`: every app's data cleared and the home screen shown, the start state every
  instruction and its check assume (a second run of "turn WLAN off" must not start with WLAN off).

A real phone answers `cmd: Can't find service: virtualphone` (exit 20), so callers learn it has no such hooks.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from annotator.demo.phone.shell_io import CommandError, ShellIO, take

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

SERVICE = "virtualphone"
USAGE = "usage: cmd virtualphone check-task [--base64] TEXT... | cmd virtualphone reset"


def virtualphone_command(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    args = list(args)
    verb = take(args, USAGE)
    if verb == "check-task":
        io.out(check_answer(phone, task_text(args)) + "\n")
        return 0
    if verb == "reset" and not args:
        phone.reset()
        io.out("reset: every app's data cleared, home screen shown\n")
        return 0
    raise CommandError(f"cmd virtualphone: unknown command {' '.join([verb, *args])!r}\n{USAGE}", 255)


def task_text(args: list[str]) -> str:
    """The instruction's text: the words as given, or decoded from `--base64 DATA`."""
    if args[:1] != ["--base64"]:
        if not args:
            raise CommandError(USAGE, 255)
        return " ".join(args)
    if len(args) != 2:
        raise CommandError(USAGE, 255)
    try:
        return base64.b64decode(args[1], validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError) as error:
        raise CommandError(
            f"cmd virtualphone: --base64 {args[1]!r} is not base64 of UTF-8 text: {error}", 255
        ) from None


def check_answer(phone: VirtualPhone, text: str) -> str:
    """`success` / `failure` from the matching instruction's check, or `unknown: <why>`."""
    from annotator.demo.phone.instructions import instruction_by_text  # the task set loads when first asked

    instruction = instruction_by_text(text)
    if instruction is None:
        shown = text if len(text) <= 60 else text[:59] + "…"
        return f"unknown: {shown!r} is not in this phone's instruction set"
    return "success" if instruction.check(phone) else "failure"
