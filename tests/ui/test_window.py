"""The main window: languages, the shortcut sheet, remembered state, errors that reach the user."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from annotator.storage.database import create_db_engine, sqlite_url
from annotator.storage.workspace import Workspace
from annotator.ui import settings as keys
from annotator.ui.actions import ACTIONS, plain, translate
from annotator.ui.app import AnnotatorApp, make_app
from annotator.ui.browser.model import COLUMN_INDEX
from annotator.ui.main_window import MainWindow
from tests.ui.conftest import open_window, wait_loaded

pytestmark = pytest.mark.slow


def menu_titles(window: MainWindow) -> list[str]:
    return [action.text() for action in window.menuBar().actions() if action.isVisible()]


def test_switching_to_chinese_translates_menus_views_and_values(qtbot: QtBot, window: MainWindow) -> None:
    assert menu_titles(window) == ["&File", "&View", "&Go", "&Phone", "&Annotate", "&Review", "&Help"]
    window.language_actions["zh_CN"].trigger()
    qtbot.waitUntil(lambda: menu_titles(window)[0] != "&File")  # Qt posts the language change to every window
    assert menu_titles(window) == ["文件(&F)", "视图(&V)", "转到(&G)", "手机(&P)", "标注(&A)", "审核(&R)", "帮助(&H)"]
    assert [window.nav.item(row).text() for row in range(window.nav.count())] == [
        "采集",
        "轨迹",
        "标注",
        "审核",
        "统计",
        "评判",
        "研究",
        "模型",
        "训练",
    ]
    model = window.browser.model
    assert model.headerData(2, Qt.Orientation.Horizontal) == "指令"
    assert model.data(model.index(2, COLUMN_INDEX["review"])) == "已通过"  # the review state of trajectory 1
    assert window.menu_actions.actions["browser.next_unlabelled"].text() == "下一条未标注轨迹(&U)"
    assert window.browser.filters.app.itemText(0) == "全部应用"
    assert window.browser.counts.text().startswith("<b>共 3 条轨迹</b>")
    assert keys.text(keys.LANGUAGE) == "zh_CN"  # remembered for the next start
    window.language_actions["en"].trigger()
    qtbot.waitUntil(lambda: menu_titles(window)[0] == "&File")
    assert menu_titles(window)[0] == "&File" and window.nav.item(1).text() == "Trajectories"


def test_the_language_follows_the_settings_at_start(qtbot: QtBot, qapp: AnnotatorApp) -> None:
    keys.settings().setValue(keys.LANGUAGE, "zh_CN")
    qapp.languages.install(keys.text(keys.LANGUAGE))  # what make_app does at start
    window = MainWindow(qapp.languages)
    qtbot.addWidget(window)
    assert menu_titles(window)[0] == "文件(&F)" and window.language_actions["zh_CN"].isChecked()


def test_f1_shows_every_action_with_its_shortcut(qtbot: QtBot, window: MainWindow) -> None:
    window.activateWindow()
    window.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_F1)
    sheet = window.shortcut_sheet
    assert sheet is not None
    qtbot.waitUntil(sheet.isVisible)
    rows = {sheet.table.item(r, 0).data(Qt.ItemDataRole.UserRole): r for r in range(sheet.table.rowCount())}
    assert set(rows) == {spec.id for spec in ACTIONS} | {f"view.{view}" for view in window.rows}  # all bound
    for spec in ACTIONS:
        row = rows[spec.id]
        assert sheet.table.item(row, 0).text() == plain(translate(spec.title))
        keys = [key.toString() for key in window.menu_actions.actions[spec.id].shortcuts()]
        assert sheet.table.item(row, 1).text() == ", ".join(keys)  # the single keys beside the chords too
    unexplained = [
        sheet.table.item(r, 0).text() for r in range(sheet.table.rowCount()) if not sheet.table.item(r, 3).text()
    ]
    assert unexplained == []  # every command says what it does
    assert sheet.table.item(rows["help.shortcuts"], 1).text() == "F1"
    assert sheet.table.item(rows["view.collect"], 1).text() == "Ctrl+1"
    assert sheet.table.item(rows["view.browser"], 1).text() == "Ctrl+2"


def test_a_changed_shortcut_is_used_now_and_after_a_restart(
    qtbot: QtBot, qapp: AnnotatorApp, window: MainWindow
) -> None:
    window.show_shortcuts()
    sheet = window.shortcut_sheet
    assert sheet is not None
    row = next(
        r for r in range(sheet.table.rowCount()) if sheet.table.item(r, 0).text() == "Next Unlabelled Trajectory"
    )
    sheet.table.selectRow(row)
    sheet.editor.setKeySequence("Ctrl+F")  # taken by "Find Trajectories": refused, in words
    sheet.editor.editingFinished.emit()
    assert "Find Trajectories" in sheet.message.text()
    assert window.menu_actions.shortcut("browser.next_unlabelled") == "Ctrl+U"
    sheet.editor.setKeySequence("Ctrl+Alt+N")
    sheet.editor.editingFinished.emit()
    assert window.menu_actions.shortcut("browser.next_unlabelled") == "Ctrl+Alt+N"
    assert sheet.table.item(row, 1).text() == "Ctrl+Alt+N"
    restarted = MainWindow(qapp.languages)
    qtbot.addWidget(restarted)
    assert restarted.menu_actions.shortcut("browser.next_unlabelled") == "Ctrl+Alt+N"
    sheet.reset_button.click()
    assert window.menu_actions.shortcut("browser.next_unlabelled") == "Ctrl+U"
    assert keys.settings().value("shortcuts/browser.next_unlabelled") is None


def test_a_failing_job_reaches_the_status_bar_and_the_log(
    qtbot: QtBot, window: MainWindow, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    window.jobs.submit("Importing the bundle", lambda: 1 / 0)
    qtbot.waitUntil(lambda: window.status.currentMessage() == "Importing the bundle failed: division by zero")
    record = next(r for r in caplog.records if "Importing the bundle" in r.getMessage())
    assert record.exc_info is not None and record.exc_info[0] is ZeroDivisionError  # with its traceback

    def broken_view(_result: object) -> None:
        raise ValueError("no such row")

    window.jobs.submit("Showing the step", lambda: 42, on_result=broken_view)
    qtbot.waitUntil(lambda: window.status.currentMessage() == "Showing the step failed: no such row")


def test_a_workspace_from_a_newer_version_is_refused_with_a_message(
    qtbot: QtBot, qapp: AnnotatorApp, populated: Workspace
) -> None:
    with populated.database.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    window = open_window(qtbot, qapp, populated.data_dir)
    qtbot.waitUntil(lambda: window.error_dialog is not None and window.error_dialog.isVisible())
    dialog = window.error_dialog
    assert dialog is not None and dialog.icon() == QMessageBox.Icon.Critical
    assert (
        "newer version of Mobile Annotator" in dialog.text() and "Nothing in it was changed" in dialog.informativeText()
    )
    assert "9999_from_the_future" in dialog.detailedText()
    assert window.workspace is None and window.browser.model.rowCount() == 0
    assert window.browser.counts.text().startswith("No workspace open")
    engine = create_db_engine(sqlite_url(populated.data_dir / "annotator.sqlite"))
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == "9999_from_the_future"
    engine.dispose()


def test_window_size_and_view_are_remembered(qtbot: QtBot, qapp: AnnotatorApp, populated: Workspace) -> None:
    first = open_window(qtbot, qapp, populated.data_dir)
    wait_loaded(qtbot, first)
    first.resize(770, 560)  # inside the offscreen screen (800x600): restoring clamps to it
    first.close()
    second = open_window(qtbot, qapp, populated.data_dir)
    assert second.size() == QSize(770, 560)
    assert second.current_view() == "browser"


def test_make_app_registers_the_shipped_fonts_once(qapp: AnnotatorApp, tmp_path: Path) -> None:
    assert make_app() is qapp
    assert {"Droid Sans Fallback", "Roboto"} <= set(qapp.font_families)
    assert "Droid Sans Fallback" in qapp.font().families()
