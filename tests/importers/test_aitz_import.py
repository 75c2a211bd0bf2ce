"""`import aitz`: AITZ episodes become annotated trajectories in device pixels; bad ones leave nothing behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from annotator.domain.counting import Counting
from annotator.domain.model_space import model_space
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.importing import import_dataset
from annotator.services.review import review_queue
from annotator.services.stats import dataset_stats
from annotator.storage import imports, models
from annotator.storage.selection import TrajectorySelection
from annotator.storage.workspace import Workspace
from tests.factories import database_snapshot
from tests.importers.datasets import RED, aitz_good_steps, aitz_step, pixel, trajectory_of, write_aitz
from tests.workspaces import NewWorkspace
from trainer_bridge.export.run import ExportOptions, export


def test_an_episode_becomes_an_annotated_trajectory_whose_click_lands_on_the_target(
    workspace: Workspace, tmp_path: Path
) -> None:
    write_aitz(tmp_path / "train", "101", aitz_good_steps(), subset="google_apps")
    summary = import_dataset(workspace, "aitz", tmp_path / "train")
    assert (summary.imported, summary.skipped, summary.steps, summary.failures) == (1, 0, 7, [])
    trajectory = trajectory_of(workspace, "aitz", "101")
    assert trajectory.settings["source"] == "aitz" and trajectory.settings["source_episode_id"] == "101"
    assert (trajectory.collector_kind, trajectory.status, trajectory.outcome) == ("human", "complete", "success")
    assert trajectory.review_status == "annotated" and trajectory.reviews[0].comment.startswith("imported from AITZ")
    assert (trajectory.instruction.text, trajectory.instruction.app.name) == ("open Clock", "AITZ google_apps")
    assert (trajectory.instruction.source, trajectory.instruction.status) == ("imported", "archived")
    calls = [step.raw_tool_call["arguments"] for step in trajectory.steps]
    assert calls == [
        {"action": "click", "coordinate": [270, 300]},  # touch [y 0.25, x 0.5] on 540x1200
        {"action": "type", "text": "alarm 7:00"},
        {"action": "swipe", "coordinate": [270, 960], "coordinate2": [270, 240]},
        {"action": "system_button", "button": "Back"},
        {"action": "system_button", "button": "Enter"},
        {"action": "system_button", "button": "Home"},
        {"action": "terminate", "status": "success"},
    ]
    first = trajectory.steps[0]
    assert pixel(workspace, first.screenshot_sha256, calls[0]["coordinate"]) == RED
    assert (first.screen_width, first.screen_height) == (540, 1200)
    assert (first.think, first.action_text, first.tool_call) == ("think 0", "action 0", first.raw_tool_call)
    assert first.flags["imported"]["screen_desc"] == "screen 0" and first.flags["imported"]["step"] == 0
    assert {revision.field for revision in first.revisions} == {"think", "action_text", "tool_call"}
    assert [item.trajectory_id for item in review_queue(workspace)] == [trajectory.id]


def test_imported_trajectories_export_and_import_like_collected_ones(
    workspace: Workspace, tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    write_aitz(tmp_path / "train", "101", aitz_good_steps())
    import_dataset(workspace, "aitz", tmp_path / "train")
    bundle = export_bundle(workspace, tmp_path / "bundle.zip", status="annotated")
    assert (bundle.trajectories, bundle.steps) == (1, 7)
    with new_workspace(tmp_path / "elsewhere") as other:
        import_bundle(other, bundle.path)
        assert dataset_stats(other.database, Counting.ROWS) == dataset_stats(workspace.database, Counting.ROWS)


def test_importing_the_same_episodes_again_adds_nothing(workspace: Workspace, tmp_path: Path) -> None:
    write_aitz(tmp_path / "train", "101", aitz_good_steps())
    write_aitz(tmp_path / "train", "102", aitz_good_steps(), instruction="open Clock")
    first = import_dataset(workspace, "aitz", tmp_path / "train")
    assert first.imported == 2
    with workspace.database.session() as session:  # the same instruction twice: two runs of one instruction
        runs = session.execute(select(models.Trajectory.instruction_id, models.Trajectory.run_number)).all()
    assert sorted(number for _, number in runs) == [1, 2] and len({i for i, _ in runs}) == 1
    before = database_snapshot(workspace)
    again = import_dataset(workspace, "aitz", tmp_path / "train")
    assert (again.imported, again.skipped, again.failed) == (0, 2, 0)
    assert database_snapshot(workspace) == before


def _bad_json(file: Path) -> None:
    file.write_text(file.read_text()[:-20], encoding="utf-8")


def _edit_step(index: int, **changes: object):  # type: ignore[no-untyped-def]
    def edit(file: Path) -> None:
        steps = json.loads(file.read_text())
        steps[index].update(changes)
        for key in [k for k, v in changes.items() if v is None]:
            del steps[index][key]
        file.write_text(json.dumps(steps), encoding="utf-8")

    return edit


def _lose_screenshot(file: Path) -> None:
    next(file.parent.glob("*_3.png")).unlink()


def _truncate_screenshot(file: Path) -> None:
    shot = next(file.parent.glob("*_5.png"))
    shot.write_bytes(shot.read_bytes()[:-40])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("damage", "step", "words"),
    [
        (_bad_json, None, "is not valid JSON"),
        (_edit_step(2, result_action_type=None), 2, "result_action_type: missing"),
        (_edit_step(2, result_action_type=8), 2, "8 is not an AITW action type"),
        (_edit_step(0, result_touch_yx="[1.3, 0.5]", result_lift_yx="[1.3, 0.5]"), 0, "outside the normalized space"),
        (_edit_step(2, result_lift_yx="[0.5"), 2, "is not a JSON [y, x] pair"),
        (_edit_step(1, result_action_text=""), 1, "arguments.text: empty"),
        (_lose_screenshot, 3, "not found"),
        (_truncate_screenshot, 5, "is not a readable image"),
    ],
    ids=[
        "bad-json",
        "missing-field",
        "unknown-action",
        "out-of-range",
        "bad-point",
        "empty-text",
        "missing-screenshot",
        "truncated-screenshot",
    ],
)
def test_a_bad_episode_is_reported_by_file_and_step_and_leaves_nothing_behind(
    workspace: Workspace,
    tmp_path: Path,
    damage,
    step: int | None,
    words: str,  # type: ignore[no-untyped-def]
) -> None:
    bad = write_aitz(tmp_path / "train", "666", aitz_good_steps())
    damage(bad)
    before = database_snapshot(workspace)
    summary = import_dataset(workspace, "aitz", bad)
    assert (summary.imported, summary.failed) == (0, 1)
    message = summary.failures[0]
    assert str(bad) in message and words in message, message
    if step is not None:
        assert f"episode 666, step {step}:" in message, message
    assert database_snapshot(workspace) == before
    assert not list(workspace.blobs.all_hashes())  # the screenshots are checked before any is stored


def test_one_bad_episode_does_not_stop_the_others(workspace: Workspace, tmp_path: Path) -> None:
    write_aitz(tmp_path / "train", "101", aitz_good_steps())
    bad = write_aitz(tmp_path / "train", "102", [*aitz_good_steps()[:2], aitz_step(2, 9)])
    write_aitz(tmp_path / "train", "103", aitz_good_steps(), subset="install")
    progress: list[tuple[int, int | None]] = []
    summary = import_dataset(workspace, "aitz", tmp_path / "train", progress=lambda *args: progress.append(args))
    assert (summary.imported, summary.failed) == (2, 1)
    assert summary.failures[0].startswith(f"{bad}: episode 102, step 2:")
    assert progress == [(1, 3), (2, 3), (3, 3)]
    with workspace.database.session() as session:
        assert session.scalar(select(func.count()).select_from(models.Trajectory)) == 2


def test_a_failure_while_writing_rolls_the_whole_episode_back(
    workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refusing the last label: no instruction, trajectory, step, revision or screenshot file of the
    episode stays."""
    write_aitz(tmp_path / "train", "101", aitz_good_steps())
    real = imports.apply_label_changes
    written: list[int] = []

    def refuse_the_last(session, step, changes, person):  # type: ignore[no-untyped-def]
        written.append(step.index)
        if step.index == 6:
            raise RuntimeError("disk full")
        return real(session, step, changes, person)

    monkeypatch.setattr(imports, "apply_label_changes", refuse_the_last)
    before = database_snapshot(workspace)
    with pytest.raises(RuntimeError, match="disk full"):
        import_dataset(workspace, "aitz", tmp_path / "train")
    assert written == list(range(7))
    assert database_snapshot(workspace) == before
    assert list(workspace.blobs.all_hashes()) == []  # the screenshots it stored went with it


# On 540x1200: a row at y 0.2-0.3 across the screen, a button inside it at x 0.4-0.6, the whole page; [y, x, h, w].
IN_PIXELS = [[240, 0, 120, 540], [264, 216, 72, 108], [0, 0, 1200, 540]]  # as AITZ publishes them
IN_FRACTIONS = [[0.2, 0.0, 0.1, 1.0], [0.22, 0.4, 0.06, 0.2], [0.0, 0.0, 1.0, 1.0]]  # as some conversions write them


@pytest.mark.parametrize("positions", [IN_PIXELS, IN_FRACTIONS], ids=["pixels", "fractions"])
def test_aitzs_element_boxes_suggest_each_tap_its_target_box(
    workspace: Workspace, tmp_path: Path, positions: list[list[float]]
) -> None:
    steps = [
        aitz_step(0, 4, (0.25, 0.5), ui_positions=json.dumps(positions)),  # on the button: the smallest that holds it
        aitz_step(1, 4, (0.9, 0.5), ui_positions=json.dumps(positions)),  # only the page holds it
        aitz_step(2, 4, (0.25, 0.1), ui_positions="[[0.2, 0.0]]"),  # unreadable: nothing suggested, noted
        aitz_step(3, 10),
    ]
    write_aitz(tmp_path / "train", "7", steps)
    assert import_dataset(workspace, "aitz", tmp_path / "train").imported == 1
    button, page, unreadable, _ = trajectory_of(workspace, "aitz", "7").steps
    assert (button.suggested_box, button.suggested_box_source) == ([216.0, 264.0, 324.0, 336.0], "aitz ui_positions")
    assert page.suggested_box == [0.0, 0.0, 540.0, 1200.0]
    assert "ui_positions_error" not in button.flags["imported"] and "ui_positions_error" not in page.flags["imported"]
    assert unreadable.suggested_box is None and "ui_positions" in unreadable.flags["imported"]["ui_positions_error"]
    out = tmp_path / "export"
    annotated = TrajectorySelection(review_states=("annotated",))
    export(workspace, ExportOptions("grpo-action", "jsonl", out, model_space("qwen2.5-vl"), selection=annotated))
    rows = [json.loads(line) for line in (out / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(row["gt_bbox"], row["gt_bbox_provenance"]) for row in rows[:2]] == [
        ([216.0, 264.0, 324.0, 336.0], "hierarchy"),
        ([0.0, 0.0, 540.0, 1200.0], "hierarchy"),
    ]
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["counts"]["train"]["target_box_provenance"] == {"annotator": 0, "hierarchy": 2, "none": 1}


def test_aitz_element_boxes_past_the_screenshot_suggest_nothing_and_say_why(
    workspace: Workspace, tmp_path: Path
) -> None:
    beyond = json.dumps([[264, 216, 72, 108], [0, 0, 2400, 1080]])  # a page box twice the 540x1200 screenshot
    write_aitz(tmp_path / "train", "8", [aitz_step(0, 4, (0.25, 0.5), ui_positions=beyond), aitz_step(1, 10)])
    assert import_dataset(workspace, "aitz", tmp_path / "train").imported == 1
    step = trajectory_of(workspace, "aitz", "8").steps[0]
    assert step.suggested_box is None
    assert "outside the 540x1200 screenshot" in step.flags["imported"]["ui_positions_error"]
