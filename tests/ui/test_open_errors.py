"""Opening a workspace in the desktop app: why one cannot be opened, in the same one line as the command line; a
folder without one is asked about before one is made; a read-only one opens read-only on request, and then a
write is refused in words, not with SQLite's error."""

from __future__ import annotations

import subprocess
from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from annotator.storage.workspace import DATABASE_FILE, Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from tests.cli.test_workspace_errors import tmpfs
from tests.factories import add_trajectory
from tests.ui.conftest import open_window


def test_a_file_that_is_not_a_database_is_named_in_one_line(qtbot: QtBot, qapp: AnnotatorApp, tmp_path: Path) -> None:
    data = tmp_path / "work"
    data.mkdir()
    (data / DATABASE_FILE).write_bytes(b"not a database")
    window = open_window(qtbot, qapp, data)
    qtbot.waitUntil(lambda: window.error_dialog is not None and window.error_dialog.isVisible())
    assert window.error_dialog is not None
    assert window.error_dialog.informativeText() == (
        f"{data} holds a file that is not an annotator database (file is not a database); nothing was changed"
    )
    assert (data / DATABASE_FILE).read_bytes() == b"not a database" and window.workspace is None


def test_a_folder_without_a_workspace_is_asked_about_and_created_only_when_the_user_says(
    qtbot: QtBot, qapp: AnnotatorApp, tmp_path: Path
) -> None:
    typo = tmp_path / "wrok"
    window = open_window(qtbot, qapp, typo)
    question = window.question
    assert question is not None and question.isVisible() and question.objectName() == "create-workspace"
    assert question.text() == f"There is no workspace in {typo}." and question.other is not None
    assert not typo.exists() and window.workspace is None  # nothing made while it asks
    question.button(QMessageBox.StandardButton.Cancel).click()
    qtbot.wait(50)
    assert not typo.exists() and window.workspace is None

    window.open_workspace(typo)
    assert window.question is not None and window.question is not question
    window.question.go.click()  # Create Workspace
    qtbot.waitUntil(lambda: window.workspace is not None)
    assert (typo / DATABASE_FILE).exists() and window.workspace is not None and window.workspace.created
    assert window.status.currentMessage() == f"Created a new workspace in {typo}."


def test_a_read_only_folder_opens_read_only_on_request_and_refuses_writes_in_words(
    qtbot: QtBot, qapp: AnnotatorApp, tmp_path: Path
) -> None:
    with tmpfs(tmp_path / "ro", "16m") as data:
        with Workspace.open(data) as workspace:
            add_trajectory(workspace, "设置", "打开蓝牙", 2, label=False)
        subprocess.run(["mount", "-o", "remount,ro", str(data)], check=True)
        window = open_window(qtbot, qapp, data)
        qtbot.waitUntil(lambda: window.question is not None and window.question.isVisible())
        question = window.question
        assert question is not None and question.objectName() == "read-only-workspace"
        assert question.text() == f"The workspace folder {data} is read-only: nothing in it can be changed here."
        assert question.go.text() == "Open Read-Only" and window.workspace is None
        question.go.click()
        qtbot.waitUntil(lambda: window.workspace is not None and window.browser.summary is not None)
        assert window.workspace is not None and window.workspace.read_only
        assert window.windowTitle() == f"{data} (read-only)"
        assert window.status.workspace.text() == f"{data} (read-only)"
        assert window.browser.summary.total == 1  # browsing works

        identity.remember("小王", "annotator")
        messages: list[str] = []
        window.status.messageChanged.connect(messages.append)
        window.open_trajectory(1)
        qtbot.waitUntil(lambda: window.annotate.is_showing(1))
        actions, header = window.menu_actions.actions, window.annotate.header  # it looks read-only (issue 29, 9)
        assert not actions["annotate.verdict_correct"].isEnabled() and not actions["annotate.accept_step"].isEnabled()
        assert actions["annotate.next_step"].isEnabled() and not header.submit.isEnabled()
        assert header.banner.isVisible() and "open read-only" in header.banner.text()
        window.annotate.commands.set_verdict("wrong")  # reached some other way, it is still refused in words
        qtbot.waitUntil(lambda: any("open read-only" in message for message in messages))
        assert not [m for m in messages if "SQL" in m or "sqlite3" in m or "Traceback" in m]
        assert "The workspace is open read-only: labels cannot be changed here." in messages  # asked for nothing
        assert window.annotate.editors.think.edit.isReadOnly()
        window.close()
