"""The quick loop passes over a module only when the mark expression leaves out every test it could hold."""

from __future__ import annotations

from tests.marked_modules import leaves_out_whole, module_marks

SLOW_MODULE = """
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.train]
"""


def test_the_module_level_marks_are_read_from_the_source() -> None:
    assert module_marks(SLOW_MODULE) == {"slow", "train"}
    assert module_marks("import pytest\npytestmark = pytest.mark.slow  # why\n") == {"slow"}
    assert module_marks("import pytest\n\n@pytest.mark.slow\ndef test_one() -> None: ...\n") == set()
    assert module_marks("pytestmark = [needs_postgres]\n") == set()  # a mark in a variable is not known here


def test_a_module_is_passed_over_only_when_no_test_in_it_could_be_selected() -> None:
    slow, slow_train = frozenset({"slow"}), frozenset({"slow", "train"})
    assert leaves_out_whole(slow, "not slow") and leaves_out_whole(slow_train, "not slow")
    assert not leaves_out_whole(slow, "slow")
    assert not leaves_out_whole(slow, "not slow or train")  # a test in it may be marked train as well
    assert leaves_out_whole(slow_train, "not train")
    assert not leaves_out_whole(frozenset(), "not slow")  # unmarked: its tests decide one by one
    assert not leaves_out_whole(slow, "not slow or level(n=1)")  # a mark's arguments are not read: imported
