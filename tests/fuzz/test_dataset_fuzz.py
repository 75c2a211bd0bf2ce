"""Fuzzing the dataset importers: AITZ and GUI-Odyssey episodes with their JSON edited, AndroidControl records with
features replaced and TFRecord files with bytes changed or cut. An import never raises: each episode is imported or
named in one failure line, and an import that adds nothing leaves the database and the blob folder as they were."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotator.services.importing import import_dataset
from annotator.storage.workspace import Workspace
from tests.fuzz.edits import Copies, Edit, edited, edits, fuzzing, json_values, state
from tests.importers.datasets import (
    ac_episode,
    ac_good_actions,
    aitz_good_steps,
    odyssey_episode,
    odyssey_good_steps,
    tfrecord_bytes,
    write_aitz,
    write_odyssey,
)
from tests.workspaces import open_new

pytestmark = pytest.mark.slow
FUZZ = fuzzing(25)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("dataset-fuzz")
    open_new(root / "template", migrated_database).close()
    aitz = write_aitz(root / "aitz", "1", aitz_good_steps()[:3])
    odyssey = write_odyssey(root / "odyssey", [odyssey_episode("7", odyssey_good_steps()[:3])])
    annotations = odyssey / "annotations" / "7.json"
    return {
        "template": root / "template",
        # the file a test edits, its JSON, and what is imported
        "aitz": (aitz, json.loads(aitz.read_text(encoding="utf-8")), aitz),
        "gui-odyssey": (annotations, json.loads(annotations.read_text(encoding="utf-8")), odyssey),
        "androidcontrol": ac_episode(3, ac_good_actions()[:2]),
        "root": root,
    }


def import_all_or_report(workspace: Workspace, source: str, path: Path) -> None:
    before = state(workspace)
    summary = import_dataset(workspace, source, path)
    for failure in summary.failures:
        assert failure and "\n" not in failure and "Traceback" not in failure
    if summary.imported == 0:
        assert state(workspace) == before


@pytest.mark.parametrize("source", ["aitz", "gui-odyssey"])
@FUZZ
@given(changes=edits)
def test_an_edited_json_episode_imports_or_is_reported(
    made: dict[str, Any], fresh: Copies, source: str, changes: list[Edit]
) -> None:
    file, document, path = made[source]
    file.write_text(json.dumps(edited(document, changes)), encoding="utf-8")
    import_all_or_report(fresh(), source, path)


FEATURE_VALUES = (
    st.lists(
        st.binary(max_size=12) | st.sampled_from([b"{}", b'{"action_type": "click"}', b"\xff", b"[1]"]), max_size=3
    )
    | st.lists(st.integers(-(2**63), 2**63 - 1), max_size=3)
    | st.lists(st.floats(width=32), max_size=3)
)


@FUZZ
@given(
    replaced=st.dictionaries(st.sampled_from([*sorted(ac_episode(1, [])), "other"]), FEATURE_VALUES, max_size=2),
    damage=st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 255)), max_size=2),
    cut=st.none() | st.integers(0, 10**9),
    compress=st.booleans(),
)
def test_a_damaged_androidcontrol_file_imports_or_is_reported(
    made: dict[str, Any],
    fresh: Copies,
    replaced: dict[str, list[Any]],
    damage: list[tuple[int, int]],
    cut: int | None,
    compress: bool,
) -> None:
    records = tfrecord_bytes([made["androidcontrol"] | replaced])
    data = bytearray(gzip.compress(records) if compress else records)
    for where, byte in damage:
        data[where % len(data)] = byte
    file = made["root"] / "android_control-00000-of-00001"
    file.write_bytes(bytes(data[: cut % len(data)] if cut is not None else data))
    import_all_or_report(fresh(), "androidcontrol", file)


@FUZZ
@given(value=json_values)
def test_a_gui_odyssey_point_of_any_kind_is_reported(made: dict[str, Any], fresh: Copies, value: Any) -> None:
    file, episode, data = made["gui-odyssey"]
    episode = edited(episode, [])
    episode["steps"][0]["info"] = value
    file.write_text(json.dumps(episode), encoding="utf-8")
    import_all_or_report(fresh(), "gui-odyssey", data)
