"""Annotating through the service: revisions, undo/redo, corrected and removed steps, outcome, history."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from annotator.domain.geometry import Box, ScreenSize
from annotator.services.annotation import Editor, IncompleteWork, LabelError, load_elements, load_trajectory
from annotator.storage import models
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, click, finish_labelling


def revisions(workspace: Workspace, trajectory_id: int) -> list[tuple]:
    R = models.LabelRevision
    with workspace.database.session() as session:
        rows = session.execute(
            select(R.step_id, R.field, R.old_value, R.new_value).where(R.trajectory_id == trajectory_id).order_by(R.id)
        )
        return [tuple(row) for row in rows]


@pytest.fixture
def unlabelled(workspace: Workspace) -> int:
    return add_trajectory(workspace, "淘宝", "打开淘宝，查看我关注的店铺", 3, seed=3, label=False)


@pytest.mark.slow
def test_record_shows_original_and_empty_labels(workspace: Workspace, unlabelled: int) -> None:
    record = load_trajectory(workspace.database, unlabelled)
    assert [s.position for s in record.steps] == [1, 2, 3]
    first = record.steps[0]
    assert first.original.think == "步骤 0" and first.original.tool_call == click(100, 200)
    assert first.label.think is None and first.stages == (False, False, False)
    assert workspace.blobs.path(first.screenshot_sha256).is_file() and first.screen == ScreenSize(1080, 2400)
    assert record.review_status == "unlabelled"
    assert [node.text for node in load_elements(workspace.blobs, first)] == ["搜索"]


def test_change_writes_revisions_and_undo_redo_restore_values(workspace: Workspace, unlabelled: int) -> None:
    editor = Editor(workspace, unlabelled, "小王")
    step_id = load_trajectory(workspace.database, unlabelled).steps[0].id
    step = editor.change(step_id, {"think": "当前在首页，点击搜索框，以便输入关键词", "tool_call": click(300, 200)})
    assert step.label.think.startswith("当前在首页") and step.stages == (True, False, True)
    assert load_trajectory(workspace.database, unlabelled).review_status == "in_progress"
    editor.change(step_id, {"think": "改过的想法"})
    assert editor.undo() == step_id
    assert load_trajectory(workspace.database, unlabelled).steps[0].label.think.startswith("当前在首页")
    assert editor.can_redo and editor.redo() == step_id
    assert load_trajectory(workspace.database, unlabelled).steps[0].label.think == "改过的想法"
    written = revisions(workspace, unlabelled)
    assert [field for _, field, _, _ in written] == ["think", "tool_call", "think", "think", "think"]
    assert written[3][2:] == ("改过的想法", "当前在首页，点击搜索框，以便输入关键词")  # the undo is a revision too


def test_a_no_op_writes_nothing_and_a_bad_value_is_refused(workspace: Workspace, unlabelled: int) -> None:
    editor = Editor(workspace, unlabelled, "小王")
    step_id = load_trajectory(workspace.database, unlabelled).steps[1].id
    editor.change(step_id, {"verdict": "correct"})
    editor.change(step_id, {"verdict": "correct"})
    with pytest.raises(LabelError, match="verdict"):
        editor.change(step_id, {"verdict": "maybe"})
    assert len(revisions(workspace, unlabelled)) == 1
    with pytest.raises(ValueError, match="who you are"):
        Editor(workspace, unlabelled, "  ")


def test_privacy_regions_are_a_label_with_revisions_undo_and_no_stage(workspace: Workspace, unlabelled: int) -> None:
    editor = Editor(workspace, unlabelled, "小王")
    step_id = load_trajectory(workspace.database, unlabelled).steps[0].id
    one = ((0.0, 100.0, 1080.0, 260.0),)
    two = (*one, (40.0, 2000.0, 500.0, 2400.0))
    step = editor.change(step_id, {"privacy_regions": one})
    assert boxes(step.label.privacy_regions) == one and step.stages == (False, False, False)
    assert load_trajectory(workspace.database, unlabelled).review_status == "in_progress"
    assert boxes(editor.change(step_id, {"privacy_regions": two}).label.privacy_regions) == two
    assert editor.change(step_id, {"privacy_regions": ()}).label.privacy_regions == ()  # cleared
    assert editor.undo() == step_id
    assert boxes(load_trajectory(workspace.database, unlabelled).steps[0].label.privacy_regions) == two
    editor.undo()
    assert boxes(load_trajectory(workspace.database, unlabelled).steps[0].label.privacy_regions) == one
    editor.redo()
    assert boxes(load_trajectory(workspace.database, unlabelled).steps[0].label.privacy_regions) == two
    as_lists = [list(box) for box in two]
    # the last three: the undo that brought the cleared regions back, the second undo, the redo
    assert revisions(workspace, unlabelled)[-3:] == [
        (step_id, "privacy_regions", None, as_lists),
        (step_id, "privacy_regions", as_lists, as_lists[:1]),
        (step_id, "privacy_regions", as_lists[:1], as_lists),
    ]
    newest = editor.history(step_id)[0]
    assert (newest.field, newest.new, newest.person) == ("privacy_regions", as_lists, "小王")
    with pytest.raises(LabelError, match="not within the 1080x2400 screen"):
        editor.change(step_id, {"privacy_regions": ((0.0, 2300.0, 100.0, 2401.0),)})
    assert boxes(load_trajectory(workspace.database, unlabelled).steps[0].label.privacy_regions) == two


def test_inserted_step_follows_the_wrong_one_and_removal_keeps_the_raw_step(
    workspace: Workspace, unlabelled: int
) -> None:
    editor = Editor(workspace, unlabelled, "小李")
    wrong, second, last = load_trajectory(workspace.database, unlabelled).steps
    inserted = editor.insert_corrected_step(wrong.id)
    assert inserted.origin == "inserted" and inserted.position == 2 and inserted.corrects_index == wrong.index
    assert inserted.screenshot_sha256 == wrong.screenshot_sha256 and inserted.label.tool_call is None
    editor.remove_step(second.id)
    record = load_trajectory(workspace.database, unlabelled)
    assert [(s.id, s.removed) for s in record.steps] == [
        (wrong.id, False),
        (inserted.id, False),
        (second.id, True),
        (last.id, False),
    ]
    with workspace.database.session() as session:
        assert session.get(models.Step, second.id).raw_tool_call == click(101, 200)  # the raw record stays
    editor.undo()
    editor.undo()  # the insertion: the step is left out again, not deleted
    assert [s.removed for s in load_trajectory(workspace.database, unlabelled).steps] == [False, True, False, False]


def test_outcome_history_restore_and_submit(workspace: Workspace, unlabelled: int) -> None:
    editor = Editor(workspace, unlabelled, "小王")
    step_id = load_trajectory(workspace.database, unlabelled).steps[0].id
    editor.set_outcome("failure")
    editor.change(step_id, {"action_text": "点击搜索框"})
    editor.change(step_id, {"action_text": "点击顶部的搜索框"})
    history = editor.history()
    assert [(r.field, r.new, r.person, r.step_position) for r in history] == [
        ("action_text", "点击顶部的搜索框", "小王", 1),
        ("action_text", "点击搜索框", "小王", 1),
        ("outcome", "failure", "小王", None),
    ]
    editor.restore(history[1].id)
    assert load_trajectory(workspace.database, unlabelled).steps[0].label.action_text == "点击搜索框"
    assert editor.undo() == step_id  # a restore is undoable
    assert load_trajectory(workspace.database, unlabelled).steps[0].label.action_text == "点击顶部的搜索框"
    with pytest.raises(IncompleteWork, match="step 1: think, tool_call, verdict; step 2: think, action_text"):
        editor.submit()  # an annotator hands on only finished work
    finish_labelling(workspace, unlabelled)
    assert editor.submit().review_status == "annotated" and editor.record().label_outcome == "failure"


def test_bundles_carry_inserted_and_removed_steps_privacy_regions_outcome_and_its_history(
    workspace: Workspace, unlabelled: int, tmp_path
) -> None:
    from annotator.services.bundle import export_bundle, import_bundle

    editor = Editor(workspace, unlabelled, "小李")
    wrong, second, _ = load_trajectory(workspace.database, unlabelled).steps
    inserted = editor.insert_corrected_step(wrong.id)
    editor.change(inserted.id, {"tool_call": click(500, 600), "verdict": "correct"})
    editor.change(wrong.id, {"privacy_regions": ((0.0, 100.0, 1080.0, 260.0), (40.0, 2000.0, 500.0, 2400.0))})
    editor.remove_step(second.id)
    editor.set_outcome("success")
    export_bundle(workspace, tmp_path / "bundle")
    with Workspace.open(tmp_path / "other") as other:
        import_bundle(other, tmp_path / "bundle")
        copied = load_trajectory(other.database, 1)
        original = load_trajectory(workspace.database, unlabelled)
        assert [(s.position, s.origin, s.removed, s.label) for s in copied.steps] == [
            (s.position, s.origin, s.removed, s.label) for s in original.steps
        ]
        assert copied.label_outcome == "success"
        regions = ((0.0, 100.0, 1080.0, 260.0), (40.0, 2000.0, 500.0, 2400.0))
        assert boxes(copied.steps[0].label.privacy_regions) == regions
        fields = [(r.field, r.new, r.person) for r in Editor(other, 1, "小李").history()]
        assert fields == [(r.field, r.new, r.person) for r in editor.history()]


@pytest.mark.slow
def test_two_windows_on_one_database_both_keep_their_edits(workspace: Workspace, unlabelled: int) -> None:
    """Two app instances (two engines, as two windows or two processes) edit the same trajectory at once."""
    from concurrent.futures import ThreadPoolExecutor

    steps = load_trajectory(workspace.database, unlabelled).steps
    with Workspace.open(workspace.data_dir, workspace.database.url) as second:  # the same database, SQLite or not
        editors = {"小王": Editor(workspace, unlabelled, "小王"), "小李": Editor(second, unlabelled, "小李")}

        def edit(person: str) -> None:
            for n in range(15):
                for step in steps:
                    editors[person].change(step.id, {"action_text": f"{person} 第 {n} 次"})

        with ThreadPoolExecutor(2) as pool:
            list(pool.map(edit, editors))
    written = revisions(workspace, unlabelled)
    assert len(written) == 2 * 15 * len(steps)  # no edit lost, none refused ("database is locked")
    final = {s.label.action_text for s in load_trajectory(workspace.database, unlabelled).steps}
    assert final <= {"小王 第 14 次", "小李 第 14 次"}


def boxes(regions: tuple[Box, ...]) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(box) for box in regions)


def test_only_a_reviewer_or_admin_submits_unfinished_work_and_it_is_recorded(workspace: Workspace) -> None:
    unlabelled = add_trajectory(workspace, "淘宝", "打开淘宝", 2, label=False)
    with pytest.raises(IncompleteWork, match="the outcome"):
        Editor(workspace, unlabelled, "小王").submit(anyway=True)  # an annotator may not
    assert load_trajectory(workspace.database, unlabelled).review_status == "unlabelled"
    submitted = Editor(workspace, unlabelled, "李审核", role="reviewer").submit(anyway=True)
    assert submitted.review_status == "annotated"
    with workspace.database.session() as session:
        note = session.scalars(select(models.Review.comment).where(models.Review.trajectory_id == unlabelled)).one()
    assert note.startswith("submitted incomplete by 李审核 (reviewer): step 1: think, action_text, tool_call, verdict")
