"""First start asks who is working and remembers it; the status bar and the File menu show it."""

from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.identity_dialog import IdentityDialog
from annotator.ui.main_window import MainWindow


def test_the_dialog_needs_a_name_and_remembers_name_and_role(qtbot: QtBot, qapp: AnnotatorApp) -> None:
    assert identity.current_person() == ("", "")
    dialog = IdentityDialog()
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    dialog.name.clear()
    assert not ok.isEnabled()
    dialog.name.setText("小王")  # QTest cannot type CJK characters (Qt aborts)
    dialog.role.setCurrentIndex(dialog.role.findData("reviewer"))
    assert ok.isEnabled()
    ok.click()
    assert identity.current_person() == ("小王", "reviewer")
    again = IdentityDialog()
    qtbot.addWidget(again)
    assert (again.name.text(), again.role.currentData()) == ("小王", "reviewer")


def test_the_window_shows_the_person_and_lets_them_change(qtbot: QtBot, qapp: AnnotatorApp) -> None:
    window = MainWindow(qapp.languages)
    qtbot.addWidget(window)
    window.show()
    assert window.status.person.text() == "Nobody signed in"
    window.menu_actions.actions["person.change"].trigger()
    dialog = window.findChild(IdentityDialog)
    assert dialog is not None and dialog.isVisible()
    dialog.name.setText("小李")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert window.status.person.text() == "小李"
    qapp.languages.install("zh_CN")
    qtbot.waitUntil(lambda: "标注员" in window.status.person.toolTip())  # Qt posts the language change
