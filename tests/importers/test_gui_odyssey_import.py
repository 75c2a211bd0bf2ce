"""`import gui-odyssey`: 0-1000 points become pixels of each screenshot; the 2025 labels come along."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.services.importing import import_dataset
from annotator.storage.workspace import Workspace
from tests.factories import database_snapshot
from tests.importers.datasets import (
    RED,
    TARGET,
    odyssey_episode,
    odyssey_good_steps,
    odyssey_step,
    pixel,
    trajectory_of,
    write_odyssey,
)


def test_an_episode_maps_onto_the_action_space_in_device_pixels(workspace: Workspace, tmp_path: Path) -> None:
    data = write_odyssey(tmp_path / "data", [odyssey_episode("9001", odyssey_good_steps())])
    (data / "splits").mkdir()
    (data / "splits" / "random_split.json").write_text(json.dumps({"train": ["9001.json"], "test": []}))
    summary = import_dataset(workspace, "gui-odyssey", data)  # the data folder: only annotations/ is read
    assert (summary.imported, summary.steps, summary.failures) == (1, 8, [])
    trajectory = trajectory_of(workspace, "gui-odyssey", "9001")
    calls = [step.raw_tool_call["arguments"] for step in trajectory.steps]
    assert calls == [
        {"action": "click", "coordinate": [270, 300]},
        {"action": "long_press", "coordinate": [270, 300]},
        {"action": "swipe", "coordinate": [270, 960], "coordinate2": [270, 240]},
        {"action": "type", "text": "weather"},
        {"action": "system_button", "button": "Back"},
        {"action": "key", "text": "KEYCODE_APP_SWITCH"},
        {"action": "system_button", "button": "Home"},
        {"action": "terminate", "status": "success"},
    ]
    click = trajectory.steps[0]
    assert pixel(workspace, click.screenshot_sha256, calls[0]["coordinate"]) == RED
    assert click.target_box is None  # SAM2 drew sam2_bbox, not a person: a suggestion, in pixels
    assert (click.suggested_box, click.suggested_box_source) == ([float(v) for v in TARGET], "gui-odyssey sam2_bbox")
    assert (click.think, click.action_text) == ("intention 0", "low level 0")
    assert click.flags["imported"]["action"] == {"action": "CLICK", "info": [[500, 250], [500, 250]]}
    assert click.flags["imported"]["description"] == "description 0"
    assert trajectory.steps[2].suggested_box is None
    assert trajectory.instruction.text == "Use Chrome to search the weather, then note it in Tasks."
    assert trajectory.instruction.app.name == "Chrome"
    assert trajectory.outcome == "success" and trajectory.review_status == "annotated"
    assert trajectory.settings["source_details"]["device_info"]["device_name"] == "Pixel 7 Pro"
    assert trajectory.settings["source_details"]["task_info"]["app"] == ["Chrome", "Tasks"]


def test_a_list_file_with_screenshots_elsewhere_and_an_incomplete_episode(workspace: Workspace, tmp_path: Path) -> None:
    """One file of every episode (as the first release's all_anno.json), its screenshots given with --images."""
    steps = [odyssey_step(0, "CLICK", "[[500, 250]]"), odyssey_step(1, "INCOMPLETE", "", low_level_instruction=None)]
    episodes = [odyssey_episode("1", [dict(s) for s in steps]), odyssey_episode("2", [dict(s) for s in steps])]
    write_odyssey(tmp_path / "data", episodes, screenshots=tmp_path / "shots")
    every = tmp_path / "all_anno.json"
    every.write_text(json.dumps(episodes), encoding="utf-8")
    summary = import_dataset(workspace, "gui-odyssey", every, images=tmp_path / "shots", app="跨应用")
    assert (summary.imported, summary.failed) == (2, 0)
    trajectory = trajectory_of(workspace, "gui-odyssey", "2")
    assert trajectory.outcome == "failure" and trajectory.instruction.app.name == "跨应用"
    assert trajectory.steps[0].raw_tool_call["arguments"]["coordinate"] == [270, 300]  # info given as JSON text
    assert trajectory.steps[1].action_text is None and trajectory.steps[1].tool_call["arguments"]["status"] == "failure"


def test_importing_again_adds_nothing(workspace: Workspace, tmp_path: Path) -> None:
    data = write_odyssey(tmp_path / "data", [odyssey_episode("9001", odyssey_good_steps())])
    import_dataset(workspace, "gui-odyssey", data)
    before = database_snapshot(workspace)
    again = import_dataset(workspace, "gui-odyssey", data / "annotations" / "9001.json")
    assert (again.imported, again.skipped) == (0, 1)
    assert database_snapshot(workspace) == before


@pytest.mark.slow
@pytest.mark.parametrize(
    ("step", "words"),
    [
        (odyssey_step(1, "DOUBLE_TAP", [[500, 500]]), "'DOUBLE_TAP' is not a GUI-Odyssey action"),
        (odyssey_step(1, "CLICK", [[500, 1200]]), "outside the qwen2-vl space"),
        (odyssey_step(1, "SCROLL", [[500, 500]]), "is not a list of 2 [x, y] point(s)"),
        (odyssey_step(1, "SCROLL", [[500, 500], [500, 500]]), "a swipe needs two different points"),
        (odyssey_step(1, "TEXT", ["weather"]), "is not the text to type"),
        (odyssey_step(1, "CLICK", [[10, 10]], sam2_bbox=[5, 5, 20]), "sam2_bbox"),
    ],
    ids=["unknown-action", "out-of-range", "one-point-scroll", "still-scroll", "text-not-text", "bad-box"],
)
def test_a_bad_step_fails_its_episode_by_name(workspace: Workspace, tmp_path: Path, step: dict, words: str) -> None:
    episode = odyssey_episode("77", [odyssey_step(0, "CLICK", [[500, 250]]), step, odyssey_step(2, "COMPLETE")])
    data = write_odyssey(tmp_path / "data", [episode, odyssey_episode("78", odyssey_good_steps())])
    before = database_snapshot(workspace)
    summary = import_dataset(workspace, "gui-odyssey", data / "annotations" / "77.json")
    assert len(summary.failures) == 1 and summary.imported == 0
    assert summary.failures[0].startswith(f"{data / 'annotations' / '77.json'}: episode 77, step 1: ")
    assert words in summary.failures[0], summary.failures[0]
    assert database_snapshot(workspace) == before
    assert import_dataset(workspace, "gui-odyssey", data).imported == 1  # the good one beside it


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda e: e.pop("steps"), "steps: missing"),
        (lambda e: e["task_info"].pop("instruction") and e["task_info"].pop("task"), "task_info.instruction"),
        (lambda e: e.update(steps=[]), "steps: empty"),
        (lambda e: e["steps"][1].update(screenshot="nowhere.png"), "screenshot nowhere.png not found"),
    ],
    ids=["no-steps", "no-instruction", "empty-steps", "missing-screenshot"],
)
def test_a_malformed_episode_is_reported_and_skipped(
    workspace: Workspace,
    tmp_path: Path,
    change,
    words: str,  # type: ignore[no-untyped-def]
) -> None:
    episode = odyssey_episode("5", odyssey_good_steps())
    data = write_odyssey(tmp_path / "data", [episode])
    change(episode)
    (data / "annotations" / "5.json").write_text(json.dumps(episode), encoding="utf-8")
    summary = import_dataset(workspace, "gui-odyssey", data)
    assert summary.imported == 0 and len(summary.failures) == 1
    assert summary.failures[0].startswith(f"{data / 'annotations' / '5.json'}: episode 5")
    assert words in summary.failures[0], summary.failures[0]
    assert not list(workspace.blobs.all_hashes())
