"""Issue 30: on a team database the app's Who Is Working dialog cannot make anyone someone else. Opened with 小王's
login, the window works as 小王 whatever name the settings keep, the dialog's name cannot be edited, a kept role
above 小王's counts as 小王's own, and a decision under another name is refused by the database."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from annotator.services import review
from annotator.services.roles import NotAllowed
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.identity_dialog import IdentityDialog
from annotator.ui.main_window import MainWindow
from tests.postgres import needs_postgres
from tests.team_database import TeamDatabase

pytestmark = [needs_postgres, pytest.mark.slow]


def test_the_login_says_who_works_and_the_dialog_cannot_change_it(
    qtbot: QtBot,
    qapp: AnnotatorApp,
    team: TeamDatabase,
) -> None:
    identity.remember("主管", "admin")  # what someone typed earlier, on this computer
    window = MainWindow(qapp.languages)
    qtbot.addWidget(window)
    team.open().close()  # made and migrated by its owner
    window.open_workspace(team.data_dir, team.url("小王"))
    qtbot.waitUntil(lambda: window.workspace is not None, timeout=20_000)
    assert identity.current_person() == ("小王", "annotator")
    assert window.status.person.text() == "小王"
    window.menu_actions.actions["person.change"].trigger()
    dialog = window.findChild(IdentityDialog)
    assert dialog is not None and dialog.name.isReadOnly() and dialog.name.text() == "小王"
    assert "your own login" in dialog.role_note.text()
    dialog.role.setCurrentIndex(dialog.role.findData("admin"))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert identity.current_person() == ("小王", "annotator")  # never above the list's role
    assert window.workspace is not None
    with pytest.raises(NotAllowed, match="you are connected as"):
        review.accept(window.workspace, 1, "主管")
    window._close_workspace()
    assert identity.vouched() is None and identity.current_person() == ("主管", "admin")  # the settings again
