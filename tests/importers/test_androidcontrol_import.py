"""`import androidcontrol`: GZIP TFRecords of tf.train.Example episodes, read without TensorFlow, checksums checked."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from annotator.importers.a11y_forest import forest_class
from annotator.importers.tfrecord import frame, parse_example, read_records
from annotator.services.importing import import_dataset
from annotator.storage.workspace import Workspace
from tests.factories import database_snapshot
from tests.importers.datasets import (
    RED,
    ac_episode,
    ac_good_actions,
    pixel,
    tfrecord_bytes,
    trajectory_of,
    write_tfrecord,
)


def test_an_episode_maps_onto_the_action_space_and_ends_with_a_labelled_terminate(
    workspace: Workspace, tmp_path: Path
) -> None:
    """The dataset states a 1080x2400 screen; its PNGs here are 540x1200, so points are scaled onto them."""
    actions = ac_good_actions()
    episode = ac_episode(42, actions, recorded=(1080, 2400), instructions=[f"do {n}" for n in range(len(actions))])
    write_tfrecord(tmp_path / "android_control-00000-of-00001", [episode])
    (tmp_path / "splits.json").write_text(json.dumps({"train": [42]}))  # not a TFRecord: left alone
    summary = import_dataset(workspace, "androidcontrol", tmp_path)
    assert (summary.imported, summary.steps, summary.failures) == (1, 9, [])
    trajectory = trajectory_of(workspace, "androidcontrol", "42")
    calls = [step.raw_tool_call["arguments"] if step.raw_tool_call else None for step in trajectory.steps]
    assert calls == [
        {"action": "open", "text": "Clock"},
        {"action": "click", "coordinate": [270, 300]},
        {"action": "swipe", "coordinate": [270, 600], "coordinate2": [270, 0]},  # scroll down: the finger goes up
        {"action": "type", "text": "7:00"},
        {"action": "system_button", "button": "Back"},
        {"action": "long_press", "coordinate": [270, 300]},
        {"action": "wait", "time": 1.0},
        {"action": "system_button", "button": "Home"},
        None,  # the last screen: nothing was done there
    ]
    assert pixel(workspace, trajectory.steps[1].screenshot_sha256, calls[1]["coordinate"]) == RED
    assert [step.action_text for step in trajectory.steps] == [*(f"do {n}" for n in range(8)), None]
    last = trajectory.steps[-1]
    assert last.tool_call == {"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}
    assert "derived" in last.flags["imported"] and last.label_action == "terminate" and last.raw_action is None
    assert trajectory.steps[1].flags["imported"]["action"] == {"action_type": "click", "x": 540, "y": 600}
    assert "accessibility tree" in trajectory.steps[0].hierarchy_error
    assert (trajectory.instruction.text, trajectory.instruction.app.name) == ("Set an alarm for 7 am", "Clock")
    assert trajectory.outcome is None and trajectory.review_status == "annotated"


def test_importing_again_adds_nothing(workspace: Workspace, tmp_path: Path) -> None:
    file = write_tfrecord(tmp_path / "a.tfrecord.gz", [ac_episode(1, ac_good_actions()), ac_episode(2, [])])
    assert import_dataset(workspace, "androidcontrol", file).imported == 2
    before = database_snapshot(workspace)
    again = import_dataset(workspace, "androidcontrol", file)
    assert (again.imported, again.skipped) == (0, 2)
    assert database_snapshot(workspace) == before


def test_a_damaged_record_fails_its_file_from_there_on_and_keeps_what_came_before(
    workspace: Workspace, tmp_path: Path
) -> None:
    """A byte flipped in the second record: its CRC fails; the first episode is in, nothing of the second."""
    data = bytearray(tfrecord_bytes([ac_episode(1, ac_good_actions()), ac_episode(2, ac_good_actions())]))
    data[-100] ^= 0xFF
    file = tmp_path / "android_control-00003-of-00020"
    file.write_bytes(bytes(data))  # an uncompressed TFRecord reads too
    summary = import_dataset(workspace, "androidcontrol", tmp_path)
    assert (summary.imported, summary.failed) == (1, 1)
    assert summary.failures == [
        f"{file}: record 1: the record data fails its CRC check; the file is damaged; the rest of the file was not read"
    ]
    assert trajectory_of(workspace, "androidcontrol", "1").steps


@pytest.mark.parametrize("compress", [True, False], ids=["gzip", "plain"])
def test_a_truncated_file_is_reported_at_the_record_where_it_ends(
    workspace: Workspace, tmp_path: Path, compress: bool
) -> None:
    data = tfrecord_bytes([ac_episode(1, ac_good_actions()), ac_episode(2, ac_good_actions())])
    data = gzip.compress(data) if compress else data
    file = tmp_path / "cut.gz"
    file.write_bytes(data[: len(data) * 3 // 4])
    summary = import_dataset(workspace, "androidcontrol", file)
    assert (summary.imported, summary.failed) == (1, 1)
    failure = summary.failures[0]
    assert failure.startswith(f"{file}: record 1: ") and failure.endswith("; the rest of the file was not read")
    assert ("cut short" if compress else "the file ends inside the record's data; it is truncated") in failure
    assert trajectory_of(workspace, "androidcontrol", "1").steps


def test_a_file_that_is_not_a_tfrecord_says_so(workspace: Workspace, tmp_path: Path) -> None:
    file = tmp_path / "notes.tfrecord"
    file.write_text("These are not the records you are looking for.\n" * 3)
    summary = import_dataset(workspace, "androidcontrol", file)
    assert summary.failures == [
        f"{file}: record 0: the record length fails its CRC check; not a TFRecord, or damaged; "
        "the rest of the file was not read"
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda e: e["actions"].__setitem__(1, b'{"action_type": "double_tap", "x": 1, "y": 1}'),
            'episode 13 (record 0), step 1: action_type: "double_tap" is not an AndroidControl action',
        ),
        (
            lambda e: e["actions"].__setitem__(1, b'{"action_type": "click", "x": 900, "y": 10}'),
            "step 1: x, y: (900, 10) is outside the recorded 540x1200 screen",
        ),
        (lambda e: e["actions"].__setitem__(2, b"{not json"), "episode 13 (record 0): actions[2]: not valid JSON"),
        (lambda e: e["screenshots"].pop(), "8 screenshots for 8 actions"),
        (lambda e: e["step_instructions"].pop(), "7 step_instructions for 8 actions"),
        (lambda e: e["screenshots"].__setitem__(3, e["screenshots"][3][:-30]), "step 3: the screenshot is not"),
        (lambda e: e.pop("goal"), "goal: expected one text value"),
    ],
    ids=[
        "unknown-action",
        "out-of-range",
        "bad-json",
        "missing-screenshot",
        "missing-instruction",
        "truncated-png",
        "no-goal",
    ],
)
def test_a_bad_episode_is_reported_and_leaves_nothing_behind(
    workspace: Workspace,
    tmp_path: Path,
    change,
    words: str,  # type: ignore[no-untyped-def]
) -> None:
    bad = ac_episode(13, ac_good_actions())
    change(bad)
    file = write_tfrecord(tmp_path / "a.gz", [bad, ac_episode(14, ac_good_actions())])
    before = database_snapshot(workspace)
    summary = import_dataset(workspace, "androidcontrol", file)
    assert (summary.imported, summary.failed) == (1, 1)
    assert summary.failures[0].startswith(f"{file}: episode 13") and words in summary.failures[0], summary.failures
    after = database_snapshot(workspace)
    assert len(after["trajectories"]) == len(before["trajectories"]) + 1  # only episode 14
    assert trajectory_of(workspace, "androidcontrol", "14").steps


def test_records_round_trip_through_the_tfrecord_framing(tmp_path: Path) -> None:
    features = {"goal": [b"hi"], "episode_id": [7], "score": [0.5]}
    file = tmp_path / "one.tfrecord"
    file.write_bytes(frame(b"") + tfrecord_bytes([features]))
    records = list(read_records(file))
    assert records[0] == b"" and parse_example(records[1]) == features
    with pytest.raises(ValueError, match=r"not a tf\.train\.Example"):
        parse_example(b"\xff\xff\xff")


def forest(*windows: tuple[int, list[tuple[tuple[int, int, int, int], bool]]]) -> bytes:
    """A serialised AndroidAccessibilityForest: windows of (layer, [(bounds, clickable), ...])."""
    message = forest_class()()
    for layer, nodes in windows:
        window = message.windows.add(layer=layer)
        for (left, top, right, bottom), clickable in nodes:
            node = window.tree.nodes.add(is_clickable=clickable, is_visible_to_user=True)
            node.bounds_in_screen.left, node.bounds_in_screen.top = left, top
            node.bounds_in_screen.right, node.bounds_in_screen.bottom = right, bottom
    return message.SerializeToString()


def test_the_accessibility_tree_suggests_the_tapped_elements_box(workspace: Workspace, tmp_path: Path) -> None:
    """Bounds are pixels of the recorded 1080x2400 screen; the PNGs are 540x1200, so boxes are halved."""
    actions = [{"action_type": "click", "x": 540, "y": 600}, {"action_type": "click", "x": 540, "y": 600}]
    app = (0, [((0, 0, 1080, 2400), False), ((0, 500, 1080, 700), True), ((400, 550, 700, 650), True)])
    keyboard = (5, [((0, 1600, 1080, 2400), True)])  # in front, but not under the point
    trees = [forest(app, keyboard), b"\xff\xff", forest()]
    episode = ac_episode(7, actions, recorded=(1080, 2400)) | {"accessibility_trees": trees}
    write_tfrecord(tmp_path / "android_control-00000-of-00001", [episode])
    assert import_dataset(workspace, "androidcontrol", tmp_path).imported == 1
    button, unreadable, _ = trajectory_of(workspace, "androidcontrol", "7").steps
    assert button.suggested_box == [200.0, 275.0, 350.0, 325.0]
    assert button.suggested_box_source == "androidcontrol accessibility tree"
    assert unreadable.suggested_box is None
    assert "not an AndroidAccessibilityForest" in unreadable.flags["imported"]["accessibility_tree_error"]
