"""A phone's own task hooks, where it has them: whether an instruction is done on it, and its start state.

The virtual phone answers `cmd virtualphone check-task` with the instruction's success check run on its current
state, and `cmd virtualphone reset` by going back to the state every instruction starts from (see
`annotator.demo.phone.shell_tasks`). Both go over adb like every other command, so an evaluation asks an
emulator or a real phone the same way; those answer `cmd: Can't find service`, which here means "no hooks":
`None` and `False`, never an error. A phone that is gone or hangs still raises its DeviceError.
"""

from __future__ import annotations

import base64

from annotator.device.android import AndroidDevice

ANSWERS = {"success": True, "failure": False}


def task_check(device: AndroidDevice, instruction_text: str) -> bool | None:
    """Whether the phone says the instruction is done on its current screen and data: True or False, or None
    when it has no success check (a real phone) or the instruction is not in its set."""
    encoded = base64.b64encode(instruction_text.encode("utf-8")).decode("ascii")  # no shell quoting on the way
    result = device.shell(["cmd", "virtualphone", "check-task", "--base64", encoded])
    if result.exit_code != 0:
        return None
    lines = result.text.strip().splitlines()
    return ANSWERS.get(lines[0].strip()) if len(lines) == 1 else None


def reset_to_start(device: AndroidDevice) -> bool:
    """Put the phone in the state every instruction starts from, where it can do that; whether it did."""
    result = device.shell(["cmd", "virtualphone", "reset"])
    return result.exit_code == 0 and result.text.startswith("reset")
