"""Test modules that a mark expression leaves out whole are not imported.

`pytest -m "not slow"` (the quick loop) would otherwise import every module marked slow as a whole (`pytestmark =
pytest.mark.slow`: 99 of 220), torch and transformers among them, only to deselect every test in it. A module is
passed over when its module-level marks make the expression false whatever other marks its tests add (each
combination of the registered markers is tried), so no test the expression selects is ever left out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from functools import cache
from itertools import chain, combinations
from pathlib import Path

from _pytest.mark.expression import Expression  # what `-m` itself compiles the expression with

KEYWORDS = {"and", "or", "not", "True", "False"}


def module_marks(source: str) -> frozenset[str]:
    """The names of `pytest.mark.NAME` in the module's `pytestmark` (a mark or a list of marks); bare names, such
    as a mark kept in a variable, are not known here and count as none."""
    marks: set[str] = set()
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "pytestmark" for target in statement.targets
        ):
            marks.update(_mark_names(statement.value))
    return frozenset(marks)


def _mark_names(value: ast.expr) -> Iterable[str]:
    for node in ast.walk(value):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "mark"
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "pytest"
        ):
            yield node.attr


def leaves_out_whole(marks: frozenset[str], expression: str) -> bool:
    """Whether `expression` is false for every test carrying `marks`, whichever other marks it has: only the marks
    the expression names can change its value, so each combination of those is tried."""
    if not marks or "=" in expression:  # a mark's arguments (`-m "level(n=1)"`) are not read here
        return False
    compiled = Expression.compile(expression)
    others = sorted(set(re.findall(r"[A-Za-z_]\w*", expression)) - KEYWORDS - marks)
    added = chain.from_iterable(combinations(others, size) for size in range(len(others) + 1))
    return not any(compiled.evaluate(_matcher(marks | set(extra))) for extra in added)


def _matcher(names: frozenset[str] | set[str]) -> Callable[..., bool]:
    return lambda name, /, **kwargs: name in names


@cache
def passed_over(path: Path, expression: str) -> bool:
    return leaves_out_whole(module_marks(path.read_text(encoding="utf-8")), expression)
