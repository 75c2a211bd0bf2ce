"""Every instruction of the virtual phone is solved by its steps, and its check turns true only at the end."""

from __future__ import annotations

import pytest

from annotator.demo.phone.instructions import all_instructions
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.solver import run_solution
from annotator.domain import actions as act

INSTRUCTIONS = all_instructions()


@pytest.fixture(scope="module")
def phone() -> VirtualPhone:
    return VirtualPhone()


def test_the_instruction_set_is_large_and_unique() -> None:
    assert len(INSTRUCTIONS) >= 30
    assert len({item.uid for item in INSTRUCTIONS}) == len(INSTRUCTIONS)
    assert len({item.text for item in INSTRUCTIONS}) == len(INSTRUCTIONS)
    assert len({item.app for item in INSTRUCTIONS}) >= 3


@pytest.mark.parametrize("instruction", INSTRUCTIONS, ids=lambda item: item.uid)
def test_solution_reaches_success_only_at_the_end(phone: VirtualPhone, instruction) -> None:
    phone.reset()
    assert not instruction.check(phone), "already true before any step"
    last = len(instruction.steps) - 1
    done = []
    for index, action in run_solution(phone, instruction):
        done.append(action.to_arguments())
        if index < last or (index == last and isinstance(action, act.Swipe)):
            assert not instruction.check(phone), f"true too early, after {done}"
    assert isinstance(action, act.Terminate)
    assert instruction.check(phone), f"not true after {done}"
