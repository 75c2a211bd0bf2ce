"""New Study offers only what the judge scored: the size defaults to the scored trajectories when there are fewer
than the usual 30, cannot exceed them, and the dialog says how many there are."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import judging as judging_service
from annotator.storage import judging
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from annotator.ui.studies.new_study import DEFAULT_SIZE, NewStudyDialog
from tests.factories import add_trajectory

pytestmark = pytest.mark.slow


@pytest.fixture
def judged(workspace: Workspace) -> Workspace:
    """Two judges: one scored 4 trajectories, the other 1."""
    few = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    one = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "n"))
    for n in range(4):
        trajectory = add_trajectory(workspace, "淘宝", f"任务 {n}", 1, seed=n, label=False)
        judging.save_score(workspace.database, few, None, trajectory, ScoreRecord(n, "理由", "{}", None, None, 1.0, 1))
        if n == 0:
            judging.save_score(
                workspace.database, one, None, trajectory, ScoreRecord(2, "理由", "{}", None, None, 1.0, 1)
            )
    return workspace


def test_the_size_is_what_the_chosen_judge_scored_and_the_dialog_says_so(qtbot: QtBot, judged: Workspace) -> None:
    judges = [judge for judge in judging_service.list_judges(judged.database) if judge.scored]
    dialog = NewStudyDialog(judges)
    qtbot.addWidget(dialog)
    assert [judge.scored for judge in judges] == [4, 1] and DEFAULT_SIZE > 4
    assert dialog.size.value() == 4 and dialog.size.maximum() == 4  # not 30, silently cut to 4
    assert dialog.available.text() == "This judge scored 4 trajectories: a study of it holds at most that many."
    dialog.size.setValue(30)
    assert dialog.size.value() == 4
    dialog.judge.setCurrentIndex(1)
    assert dialog.size.value() == 1 and "scored 1 trajector" in dialog.available.text()
