"""The desktop app says why a workspace cannot be opened in the same one line as the command line."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from annotator.storage.workspace import DATABASE_FILE
from annotator.ui.app import AnnotatorApp
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
