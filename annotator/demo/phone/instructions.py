"""The virtual phone's whole instruction set, across its apps (stable uids, Chinese task texts)."""

from __future__ import annotations

from annotator.demo.phone.tasks import Instruction
from annotator.demo.phone.tasks_settings import SETTINGS_INSTRUCTIONS
from annotator.demo.phone.tasks_shop import SHOP_INSTRUCTIONS
from annotator.demo.phone.tasks_video import VIDEO_INSTRUCTIONS


def all_instructions() -> list[Instruction]:
    return [*SHOP_INSTRUCTIONS, *VIDEO_INSTRUCTIONS, *SETTINGS_INSTRUCTIONS]


def instruction_by_uid(uid: str) -> Instruction:
    for instruction in all_instructions():
        if instruction.uid == uid:
            return instruction
    raise KeyError(f"no virtual-phone instruction {uid!r}")


def instruction_by_text(text: str) -> Instruction | None:
    """The instruction whose task text this is (whitespace ignored), as a scripted agent reads it."""
    wanted = "".join(text.split())
    return next((item for item in all_instructions() if "".join(item.text.split()) == wanted), None)
