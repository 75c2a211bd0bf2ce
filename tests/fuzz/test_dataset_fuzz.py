"""Fuzzing the dataset importers: AITZ and GUI-Odyssey episodes with their JSON edited, AndroidControl records with
features replaced and TFRecord files with bytes changed or cut. An import never raises: each episode is imported or
named in one failure line, and an import that adds nothing leaves the database and the blob folder as they were."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotator.services.importing import import_dataset
from annotator.storage.workspace import Workspace
from tests.fuzz.edits import Copies, Edit, edited, edits, json_values, state
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

pytestmark = pytest.mark.slow
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("dataset-fuzz")
    Workspace.open(root / "template").close()
    aitz = write_aitz(root / "aitz", "1", aitz_good_steps()[:3])
    odyssey = write_odyssey(root / "odyssey", [odyssey_episode("7", odyssey_good_steps()[:3])])
    return {
        "template": root / "template",
        "aitz": (aitz, json.loads(aitz.read_text(encoding="utf-8"))),
        "odyssey": (odyssey, json.loads((odyssey / "annotations" / "7.json").read_text(encoding="utf-8"))),
        "androidcontrol": ac_episode(3, ac_good_actions()[:2]),
        "root": root,
    }


@pytest.fixture
def fresh(made: dict[str, Any]) -> Iterator[Copies]:
    copies = Copies(made["template"])
    yield copies
    copies.close()


def import_all_or_report(workspace: Workspace, source: str, path: Path) -> None:
    before = state(workspace)
    summary = import_dataset(workspace, source, path)
    for failure in summary.failures:
        assert failure and "\n" not in failure and "Traceback" not in failure
    if summary.imported == 0:
        assert state(workspace) == before


@FUZZ
@given(changes=edits)
def test_an_edited_aitz_episode_imports_or_is_reported(
    made: dict[str, Any], fresh: Copies, changes: list[Edit]
) -> None:
    file, records = made["aitz"]
    file.write_text(json.dumps(edited(records, changes)), encoding="utf-8")
    import_all_or_report(fresh(), "aitz", file)


@FUZZ
@given(changes=edits)
def test_an_edited_gui_odyssey_episode_imports_or_is_reported(
    made: dict[str, Any], fresh: Copies, changes: list[Edit]
) -> None:
    data, episode = made["odyssey"]
    (data / "annotations" / "7.json").write_text(json.dumps(edited(episode, changes)), encoding="utf-8")
    import_all_or_report(fresh(), "gui-odyssey", data)


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
    made: dict[str, Any], fresh: Copies, replaced: dict[str, list[Any]], damage: list[tuple[int, int]],
    cut: int | None, compress: bool,
) -> None:  # fmt: skip
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
    data, episode = made["odyssey"]
    episode = edited(episode, [])
    episode["steps"][0]["info"] = value
    (data / "annotations" / "7.json").write_text(json.dumps(episode), encoding="utf-8")
    import_all_or_report(fresh(), "gui-odyssey", data)
