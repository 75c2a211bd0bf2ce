"""New Study offers only what the judge scored: the size defaults to the scored trajectories when there are fewer
than the usual 30, cannot exceed them, and the dialog says how many there are. Its raters are people the workspace
knows: the field offers them as one types, and refuses a name it does not know (issue 29, item 8)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import judging as judging_service
from annotator.services import studies
from annotator.storage import judging
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from annotator.ui.studies.new_study import DEFAULT_SIZE, NewStudyDialog
from tests.factories import add_people, add_trajectory
from tests.ui.ime import type_text

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
    dialog = NewStudyDialog(judges, [])
    qtbot.addWidget(dialog)
    assert [judge.scored for judge in judges] == [4, 1] and DEFAULT_SIZE > 4
    assert dialog.sample_size.value() == 4 and dialog.sample_size.maximum() == 4  # not 30, silently cut to 4
    assert dialog.available.text() == "This judge scored 4 trajectories: a study of it holds at most that many."
    dialog.sample_size.setValue(30)
    assert dialog.sample_size.value() == 4
    dialog.judge.setCurrentIndex(1)
    assert dialog.sample_size.value() == 1 and "scored 1 trajector" in dialog.available.text()


def known_dialog(qtbot: QtBot, workspace: Workspace) -> NewStudyDialog:
    add_people(workspace.database, "小王", "小李", "张审核")
    judges = [judge for judge in judging_service.list_judges(workspace.database) if judge.scored]
    dialog = NewStudyDialog(judges, studies.known_people(workspace.database))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.name.setText("试点")
    dialog.raters.setFocus()
    qtbot.waitUntil(dialog.raters.hasFocus)  # the completer follows the focused field
    return dialog


def test_the_raters_field_offers_the_known_people_after_each_comma(qtbot: QtBot, judged: Workspace) -> None:
    dialog = known_dialog(qtbot, judged)
    type_text(dialog.raters, "小王, 张")
    popup = dialog.raters.completer().popup()
    qtbot.waitUntil(popup.isVisible)
    assert [popup.model().index(row, 0).data() for row in range(popup.model().rowCount())] == ["张审核"]
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert dialog.raters.text() == "小王, 张审核" and dialog.rater_names() == ["小王", "张审核"]


def test_an_unknown_rater_is_refused_with_the_name_it_likely_meant(qtbot: QtBot, judged: Workspace) -> None:
    dialog = known_dialog(qtbot, judged)
    type_text(dialog.raters, "小王, 张审和, nobody")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.isVisible() and dialog.result() != NewStudyDialog.DialogCode.Accepted
    problem = dialog.problem.text()
    assert "张审和" in problem and "张审核" in problem and "nobody" in problem
    dialog.raters.setText("小王, 张审核")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.result() == NewStudyDialog.DialogCode.Accepted
