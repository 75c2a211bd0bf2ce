"""The Studies view in the main window: blind rating with the keyboard, the switch to the disagreements and the
report once a rater is done, the report for someone who is not rating, and no judge score on a rater's screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QAbstractButton, QDialogButtonBox, QLabel, QTableWidget, QTextBrowser, QWidget
from pytestqt.qtbot import QtBot

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import blind_rating, studies
from annotator.storage import judging, people
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.main_window import MainWindow
from annotator.ui.studies.new_study import NewStudyDialog
from annotator.ui.studies.view import MESSAGE, RATING, RESULTS
from tests.factories import add_people, add_trajectory
from tests.ui.conftest import open_window, wait_loaded
from tests.ui.ime import type_text

pytestmark = pytest.mark.slow

LEVELS = [0, 1, 2, 3, 4, 4]
REASON = "评判理由"


@pytest.fixture
def study(workspace: Workspace) -> Workspace:
    config = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    for n, level in enumerate(LEVELS):
        trajectory = add_trajectory(workspace, "淘宝", f"任务 {n}", 2, seed=n, label=False)
        record = ScoreRecord(level, f"{REASON} {n}", "{}", None, None, 5.0, 2)
        judging.save_score(workspace.database, config, None, trajectory, record)
    add_people(workspace.database, "小王", "小李", "张审核")
    studies.create_study(workspace.database, "试点", config, 6, ["小王", "小李"])
    return workspace


def shown_as(qtbot: QtBot, qapp: AnnotatorApp, workspace: Workspace, person: str) -> MainWindow:
    identity.remember(person, "annotator")
    window = open_window(qtbot, qapp, workspace.data_dir)
    wait_loaded(qtbot, window)
    window.show_view("studies")
    qtbot.waitUntil(lambda: bool(window.studies.infos))
    return window


def rate_all(workspace: Workspace, rater: str, score: int, study: str = "试点") -> None:
    for entry in blind_rating.rater_queue(workspace.database, study, rater):
        blind_rating.rate(workspace.database, study, rater, entry.item_id, score)


def every_text(root: QWidget) -> str:
    """What the view can show: labels, buttons, tables (cells and tooltips), text browsers."""
    parts = []
    for widget in [root, *root.findChildren(QWidget)]:
        if isinstance(widget, QLabel | QAbstractButton):
            parts += [widget.text(), widget.toolTip()]
        elif isinstance(widget, QTextBrowser):
            parts.append(widget.toPlainText())
        elif isinstance(widget, QTableWidget):
            for row in range(widget.rowCount()):
                for column in range(widget.columnCount()):
                    item = widget.item(row, column)
                    parts += [item.text(), item.toolTip()] if item else []
    return "\n".join(parts)


def test_a_rater_scores_blind_with_the_keyboard_then_sees_the_differences(
    qtbot: QtBot, qapp: AnnotatorApp, study: Workspace
) -> None:
    rate_all(study, "小李", 1)  # the other rater is done: the last score closes the study
    window = shown_as(qtbot, qapp, study, "小王")
    view, page = window.studies, window.studies.rating
    qtbot.waitUntil(lambda: view.pages.currentIndex() == RATING and page.trajectory is not None)
    assert page.steps.table.rowCount() == 2 and "item 1 of 6" in page.header.text()
    queue = [entry.trajectory_id for entry in blind_rating.rater_queue(study.database, "试点", "小王")]
    for number in range(6):
        qtbot.waitUntil(lambda n=number: page.index == n and page.trajectory is not None)
        assert page.trajectory.trajectory_id == queue[number]  # the rater's own order
        assert REASON not in every_text(view) and view.report.report is None  # blind: no judge reason, no report
        table = page.steps.table  # as a rater does: look at a step, then type the score
        qtbot.mouseClick(
            table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(1, 1)).center()
        )
        assert page.steps.current_step() == 1
        qtbot.keyClick(table, Qt.Key.Key_3)
    qtbot.waitUntil(lambda: view.pages.currentIndex() == RESULTS and view.differences.rowCount() == 6, timeout=10_000)
    stored = [entry.score for entry in blind_rating.rater_queue(study.database, "试点", "小王")]
    assert stored == [3] * 6
    assert view.results.isTabVisible(0)
    assert REASON in every_text(view.differences)  # now the judge's reasons, largest gap first
    assert view.differences.item(0, 3).text() in ("0", "1")  # the judge's 0 or 1 is furthest from 3


def test_digits_typed_into_the_note_are_text_not_scores(qtbot: QtBot, qapp: AnnotatorApp, study: Workspace) -> None:
    window = shown_as(qtbot, qapp, study, "小李")
    page = window.studies.rating
    qtbot.waitUntil(lambda: page.trajectory is not None)
    page.note.setFocus()
    qtbot.keyClicks(page.note, "step 3")  # QTest types ASCII only
    assert page.note.text() == "step 3" and page.rated() == 0
    page.score_buttons[2].click()
    qtbot.waitUntil(lambda: not window.jobs.busy())
    first = blind_rating.rater_queue(study.database, "试点", "小李")[0]
    assert (first.score, first.note) == (2, "step 3")


def test_someone_who_is_not_rating_sees_the_report_and_can_save_it(
    qtbot: QtBot, qapp: AnnotatorApp, study: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for rater in ("小王", "小李"):
        for entry in blind_rating.rater_queue(study.database, "试点", rater):
            blind_rating.rate(study.database, "试点", rater, entry.item_id, 2)
    window = shown_as(qtbot, qapp, study, "主管")
    view = window.studies
    qtbot.waitUntil(lambda: view.report.report is not None, timeout=30_000)
    assert view.pages.currentIndex() == RESULTS and not view.results.isTabVisible(0)
    assert view.report.headline.item(0, 0).text() == "Exact agreement"
    assert view.report.headline.item(0, 1).text().startswith("16.7% (1/6)")  # everyone said 2; the judge said 2 once
    assert "Wilson" in view.report.headline.item(0, 2).text()
    target = tmp_path / "report.html"
    monkeypatch.setattr(
        "annotator.ui.studies.view.QFileDialog.getSaveFileName", lambda *_args: (str(target), "HTML (*.html)")
    )
    view.export_report()
    qtbot.waitUntil(lambda: target.exists() and not window.jobs.busy())  # written whole, not being written
    assert target.read_text(encoding="utf-8").count("data:image/png;base64,") == 2


def test_opening_the_view_computes_the_report_once(
    qtbot: QtBot, qapp: AnnotatorApp, study: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    computed = []
    report = studies.study_report
    monkeypatch.setattr(studies, "study_report", lambda *args, **kwargs: computed.append(1) or report(*args, **kwargs))
    window = shown_as(qtbot, qapp, study, "主管")
    qtbot.waitUntil(lambda: window.studies.report.report is not None, timeout=30_000)
    qtbot.waitUntil(lambda: not window.jobs.busy(), timeout=30_000)
    assert len(computed) == 1  # selecting the study when the list arrives does not start a second one


def test_the_view_follows_a_language_change(qtbot: QtBot, qapp: AnnotatorApp, study: Workspace) -> None:
    window = shown_as(qtbot, qapp, study, "小王")
    qtbot.waitUntil(lambda: window.studies.rating.trajectory is not None)
    qapp.languages.install("zh_CN")
    qtbot.waitUntil(lambda: window.studies.rating.previous_button.text() != "Previous")
    qapp.languages.install("en")
    qtbot.waitUntil(lambda: window.studies.rating.previous_button.text() == "Previous")


def test_score_keys_reach_the_rating_wherever_the_focus_is(qtbot: QtBot, qapp: AnnotatorApp, study: Workspace) -> None:
    """After Ctrl+7 the focus is on the view, not in the rating panel; a click on the view list moves it further."""
    window = shown_as(qtbot, qapp, study, "小王")
    view, page = window.studies, window.studies.rating
    qtbot.waitUntil(lambda: view.pages.currentIndex() == RATING and page.trajectory is not None)
    for focus in (view, window.nav):
        focus.setFocus()
        first = page.index
        qtbot.keyClick(focus, Qt.Key.Key_2)
        qtbot.waitUntil(lambda first=first: page.index == first + 1)  # scored, and on to the next item
    qtbot.waitUntil(lambda: not page.jobs.busy())
    stored = [entry.score for entry in blind_rating.rater_queue(study.database, "试点", "小王")]
    assert stored[:2] == [2, 2]


def test_a_finished_rater_sees_nothing_of_the_judge_until_every_rater_has_finished(
    qtbot: QtBot, qapp: AnnotatorApp, study: Workspace
) -> None:
    """Issue 16, defect 8: finishing showed the judge's scores, reasons and the report while 小李 still rated."""
    rate_all(study, "小王", 2)
    window = shown_as(qtbot, qapp, study, "小王")
    view = window.studies
    qtbot.waitUntil(lambda: view.pages.currentIndex() == MESSAGE and "小李 0/6" in view.message.text())
    qtbot.waitUntil(lambda: not window.jobs.busy())
    assert "once every rater has finished" in view.message.text()
    assert REASON not in every_text(view) and view.report.report is None and view.differences.rowCount() == 0
    rate_all(study, "小李", 3)
    view.reload()
    qtbot.waitUntil(lambda: view.pages.currentIndex() == RESULTS and view.differences.rowCount() == 6)
    assert view.results.isTabVisible(0) and view.results.isTabVisible(1)
    qtbot.waitUntil(lambda: view.report.report is not None, timeout=30_000)


def test_the_owner_may_choose_early_differences_in_the_new_study_dialog(
    qtbot: QtBot, qapp: AnnotatorApp, study: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = shown_as(qtbot, qapp, study, "主管")
    view = window.studies

    def fill_in(dialog: NewStudyDialog) -> int:
        dialog.name.setText("早")
        dialog.sample_size.setValue(6)
        dialog.raters.setText("小王, 小李")
        dialog.show_early.setChecked(True)
        return NewStudyDialog.DialogCode.Accepted

    monkeypatch.setattr(NewStudyDialog, "exec", fill_in)
    view.new_study()
    qtbot.waitUntil(lambda: any(info.name == "早" for info in view.infos), timeout=10_000)
    assert studies.study_info(study.database, "早").show_differences_early
    assert not studies.study_info(study.database, "试点").show_differences_early
    rate_all(study, "小王", 2, study="早")
    identity.remember("小王", "annotator")
    view.table.selectRow([info.name for info in view.infos].index("早"))
    view.reload()
    qtbot.waitUntil(lambda: view.pages.currentIndex() == RESULTS and view.differences.rowCount() == 6)
    assert REASON in every_text(view.differences)  # the owner's choice: at once, their own differences
    assert view.results.isTabVisible(0) and not view.results.isTabVisible(1)  # not the others' scores
    qtbot.waitUntil(lambda: not window.jobs.busy(), timeout=30_000)
    assert view.report.report is None


def answer_new_study(qtbot: QtBot, view: QWidget, act: Callable[[NewStudyDialog], None]) -> None:
    """File → New Study in the view, with the real dialog: `act` types into it and presses its buttons from inside
    the dialog's own event loop (exec blocks the test's), then the test goes on once the dialog is closed."""
    acted: list[NewStudyDialog] = []

    def poll() -> None:
        shown = [dialog for dialog in view.findChildren(NewStudyDialog) if dialog.isVisible()]
        if shown and not acted:
            acted.append(shown[0])
            act(shown[0])
            if shown[0].isVisible():
                shown[0].reject()

    timer = QTimer(view)
    timer.timeout.connect(poll)
    timer.start(20)
    view.new_study()  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: bool(acted) and not acted[0].isVisible(), timeout=10_000)
    timer.stop()


def press_ok(dialog: NewStudyDialog) -> None:
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def test_a_misspelt_rater_is_refused_by_name_and_nothing_is_written(
    qtbot: QtBot, qapp: AnnotatorApp, study: Workspace
) -> None:
    window = shown_as(qtbot, qapp, study, "主管")
    seen: list[tuple[bool, str]] = []

    def misspell(dialog: NewStudyDialog) -> None:
        dialog.name.setText("错字")
        type_text(dialog.raters, "小王, 张审和, 路人甲")
        press_ok(dialog)
        seen.append((dialog.isVisible(), dialog.problem.text()))

    answer_new_study(qtbot, window.studies, misspell)
    still_open, problem = seen[0]
    assert still_open, "the dialog accepted raters the workspace does not know"
    assert "张审和" in problem and "张审核" in problem and "路人甲" in problem  # each unknown name, and the likely one
    assert "小王" not in problem.replace("张审核", "")  # the known rater is not blamed
    qtbot.waitUntil(lambda: not window.jobs.busy(), timeout=10_000)
    assert [info.name for info in studies.list_studies(study.database)] == ["试点"]
    assert people.role_of(study.database, "张审和") is None and people.role_of(study.database, "路人甲") is None


def test_known_raters_make_a_study(qtbot: QtBot, qapp: AnnotatorApp, study: Workspace) -> None:
    window = shown_as(qtbot, qapp, study, "主管")

    def name_known_people(dialog: NewStudyDialog) -> None:
        dialog.name.setText("对")
        type_text(dialog.raters, "小王，张审核")  # a Chinese comma separates too
        press_ok(dialog)

    answer_new_study(qtbot, window.studies, name_known_people)
    qtbot.waitUntil(lambda: any(info.name == "对" for info in window.studies.infos), timeout=10_000)
    assert [rater.name for rater in studies.study_info(study.database, "对").raters] == ["小王", "张审核"]
