"""Hostile edits of JSON documents for the fuzz tests: values replaced, removed or repeated at any path, and the
workspace copies each example imports into."""

from __future__ import annotations

import copy
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from annotator.storage.workspace import Workspace
from tests.factories import database_snapshot


def fuzzing(max_examples: int) -> settings:
    """The fuzz tests' settings: a few examples in the test command; ANNOTATOR_FUZZ_EXAMPLES=N searches deeper."""
    examples = int(os.environ.get("ANNOTATOR_FUZZ_EXAMPLES", max_examples))
    return settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["", "../x", "/etc/passwd", "2024-13-45", "a" * 300, -1, 0, 2**63, "[0.5, 0.5]"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
# (which path of the document, counted when the edit is made; replace, remove or repeat; the new value)
Edit = tuple[int, str, Any]
edits = st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from(["replace", "remove", "repeat"]), json_values),
    min_size=1,
    max_size=3,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if prefix:
        yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield from paths(inner, (*prefix, key))


def edited(document: Any, changes: list[Edit]) -> Any:
    """A copy of `document` with the edits made, one after the other."""
    document = copy.deepcopy(document)
    for which, how, value in changes:
        every = list(paths(document))
        if not every:
            return value
        path = every[which % len(every)]
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        if how == "remove":
            del parent[path[-1]]
        elif how == "repeat" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
        else:
            parent[path[-1]] = value
    return document


def blob_files(workspace: Workspace) -> list[Path]:
    return sorted(path for path in workspace.blobs.root.rglob("*") if path.is_file())


def state(workspace: Workspace) -> tuple[dict[str, list[tuple]], list[Path]]:
    """Every row and every blob file: what a refused import must leave as it was."""
    return database_snapshot(workspace), blob_files(workspace)


class Copies:
    """Fresh copies of a template workspace, one per example (copying a file is far cheaper than migrating)."""

    def __init__(self, template: Path) -> None:
        self.template, self.opened = template, list[Workspace]()

    def __call__(self) -> Workspace:
        folder = self.template.with_name(f"{self.template.name}-copy-{len(self.opened)}")
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(self.template, folder)
        self.opened.append(Workspace.open(folder))
        return self.opened[-1]

    def close(self) -> None:
        for workspace in self.opened:
            workspace.close()
            shutil.rmtree(workspace.data_dir, ignore_errors=True)
