"""Two people's editors on one trajectory: different steps both save; the later save of the same step is refused
with both sides, then merged on top of theirs; an undo over someone else's change is refused and kept."""

from __future__ import annotations

import pytest

from annotator.services.annotation import Editor, StaleLabelError
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory


@pytest.fixture
def two_editors(workspace: Workspace) -> tuple[Editor, Editor, list[int]]:
    trajectory_id = add_trajectory(workspace, "淘宝", "打开淘宝", 2, label=False)
    mine, theirs = Editor(workspace, trajectory_id, "小王"), Editor(workspace, trajectory_id, "小李", "reviewer")
    record = mine.load()
    theirs.load()
    return mine, theirs, [step.id for step in record.steps if step.id is not None]


def test_different_steps_both_save_and_the_same_step_is_refused_then_merged(
    two_editors: tuple[Editor, Editor, list[int]],
) -> None:
    mine, theirs, (first, second) = two_editors
    theirs.change(first, {"think": "他的想法"})
    assert mine.change(second, {"think": "我的想法"}).label.think == "我的想法"  # another step: no conflict
    with pytest.raises(StaleLabelError) as refused:
        mine.change(first, {"think": "我的旧想法"})
    stale = refused.value
    assert (stale.theirs, stale.mine, stale.changed_by) == ({"think": "他的想法"}, {"think": "我的旧想法"}, "小李")
    assert mine.record().step(first).label.think == "他的想法"
    mine.rebase(stale)  # seen theirs: keep mine on top of it
    assert mine.change(first, {"think": "我的旧想法"}).label.think == "我的旧想法"
    with pytest.raises(StaleLabelError):  # now theirs is the older one
        theirs.change(first, {"verdict": "wrong"})
    assert [(r.person, r.new) for r in mine.history(first)] == [("小王", "我的旧想法"), ("小李", "他的想法")]


def test_an_undo_over_a_newer_change_is_refused_and_stays_undoable(
    two_editors: tuple[Editor, Editor, list[int]],
) -> None:
    mine, theirs, (first, _) = two_editors
    mine.change(first, {"verdict": "correct"})
    theirs.load()
    theirs.change(first, {"verdict": "wrong"})
    with pytest.raises(StaleLabelError) as refused:
        mine.undo()
    assert mine.can_undo and not mine.can_redo
    assert mine.record().step(first).label.verdict == "wrong"
    mine.load()  # reading again does not make a refused step's next save unchecked: only the merge does
    with pytest.raises(StaleLabelError):
        mine.undo()
    mine.rebase(refused.value)  # seen theirs: the undo now goes on top of it
    assert mine.undo() == first and mine.record().step(first).label.verdict is None
