"""The fuzz modules' shared fixture: a fresh copy of the module's template workspace per example."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.fuzz.edits import Copies


@pytest.fixture
def fresh(made: dict[str, Any]) -> Iterator[Copies]:
    """Copies of `made["template"]` (the module's own `made` fixture), closed and removed after the test."""
    copies = Copies(made["template"])
    yield copies
    copies.close()
