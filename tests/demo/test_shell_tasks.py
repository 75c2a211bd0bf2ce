"""`cmd virtualphone`: the virtual phone's success check and reset, as a shell line and as exact arguments."""

from __future__ import annotations

import base64

import pytest

from annotator.demo.phone.instructions import all_instructions, instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.shell import run_argv, run_shell
from annotator.demo.phone.solver import run_solution


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone(serial="virtual-1")


def check(phone: VirtualPhone, text: str) -> str:
    encoded = base64.b64encode(text.encode()).decode()
    result = run_argv(phone, ["cmd", "virtualphone", "check-task", "--base64", encoded])
    assert result.exit_code == 0 and result.stderr == b"", result
    return result.stdout.decode()


@pytest.mark.slow
def test_every_instruction_fails_at_the_start_and_succeeds_after_its_solution() -> None:
    for instruction in all_instructions():
        phone = VirtualPhone()
        assert check(phone, instruction.text) == "failure\n", instruction.uid
        for _ in run_solution(phone, instruction):
            pass
        assert check(phone, instruction.text) == "success\n", instruction.uid


def test_the_text_may_come_as_words_in_a_shell_line(phone: VirtualPhone) -> None:
    text = instruction_by_uid("settings-wifi-off").text
    assert run_shell(phone, f"cmd virtualphone check-task '{text}'").stdout == b"failure\n"
    run_shell(phone, "settings put global wifi_on 0")
    assert run_shell(phone, f"cmd virtualphone check-task {text}").stdout == b"success\n"


def test_an_instruction_outside_the_set_is_unknown_with_the_reason(phone: VirtualPhone) -> None:
    assert (
        check(phone, "把屏幕亮度调到最高") == "unknown: '把屏幕亮度调到最高' is not in this phone's instruction set\n"
    )


def test_reset_clears_every_app_and_shows_home(phone: VirtualPhone) -> None:
    nuts = instruction_by_uid("shop-nuts-two")
    for _ in run_solution(phone, nuts):
        pass
    assert check(phone, nuts.text) == "success\n"
    result = run_shell(phone, "cmd virtualphone reset")
    assert (result.exit_code, result.stdout) == (0, b"reset: every app's data cleared, home screen shown\n")
    assert check(phone, nuts.text) == "failure\n" and phone.foreground == phone.launcher_package


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("cmd virtualphone", "usage: cmd virtualphone check-task"),
        ("cmd virtualphone check-task", "usage: cmd virtualphone check-task"),
        ("cmd virtualphone check-task --base64 '%%%'", "is not base64 of UTF-8 text"),
        ("cmd virtualphone reboot", "unknown command 'reboot'"),
    ],
)
def test_bad_requests_fail_with_the_usage(phone: VirtualPhone, line: str, message: str) -> None:
    result = run_shell(phone, line)
    assert result.exit_code == 255 and message in result.stderr.decode() and result.stdout == b""


def test_it_is_a_service_of_cmd_not_a_command_of_its_own(phone: VirtualPhone) -> None:
    assert "  virtualphone\n" in run_shell(phone, "cmd -l").stdout.decode()
    assert run_shell(phone, "virtualphone reset").exit_code == 127
    other = run_shell(phone, "cmd othervendor check-task x")  # what a real phone answers for ours
    assert (other.exit_code, other.stderr) == (20, b"cmd: Can't find service: othervendor\n")
