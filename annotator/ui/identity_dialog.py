"""The first-start question "who is working?", also reachable later from the File menu."""

from __future__ import annotations

import getpass

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

from annotator.ui import identity
from annotator.ui.i18n import QT_TRANSLATE_NOOP

ROLE_TITLES = {
    "annotator": QT_TRANSLATE_NOOP("IdentityDialog", "Annotator"),
    "reviewer": QT_TRANSLATE_NOOP("IdentityDialog", "Reviewer"),
    "admin": QT_TRANSLATE_NOOP("IdentityDialog", "Administrator"),
}


def role_title(role: str) -> str:
    return QCoreApplication.translate("IdentityDialog", ROLE_TITLES[role]) if role in ROLE_TITLES else role


def _suggested_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (some containers): the person types one
        return ""


class IdentityDialog(QDialog):
    """Asks for a name and a role and keeps them; every label and review is saved under that name."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("identity-dialog")
        name, role = identity.current_person()
        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.name = QLineEdit(name or _suggested_name(), self)
        self.name.setObjectName("identity-name")
        self.name.setMaxLength(200)
        self.role = QComboBox(self)
        self.role.setObjectName("identity-role")
        for key in identity.ROLES:
            self.role.addItem("", key)
        self.role.setCurrentIndex(identity.ROLES.index(role) if role else 0)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.name.textChanged.connect(self._enable_ok)
        self.name_label, self.role_label = QLabel(self), QLabel(self)
        self.role_note = QLabel(self)  # roles on a shared workspace: docs/adr/0008-people-and-roles.md
        self.role_note.setObjectName("identity-role-note")
        self.role_note.setWordWrap(True)
        self.role_note.setStyleSheet("color: palette(mid);")
        self.name_label.setBuddy(self.name)
        self.role_label.setBuddy(self.role)
        self.form = QFormLayout(self)
        self.form.addRow(self.intro)
        self.form.addRow(self.name_label, self.name)
        self.form.addRow(self.role_label, self.role)
        self.form.addRow("", self.role_note)
        self.form.addRow(self.buttons)
        self.setMinimumWidth(420)
        if identity.vouched() is not None:
            self.name.setReadOnly(True)  # the login's person: a typed name would not change who saves
            self.name.setEnabled(False)  # and looks it
        self.retranslate()
        self._enable_ok()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Who Is Working?"))
        self.intro.setText(
            self.tr(
                "Every label, correction and review is saved under your name, so that the history and the "
                "statistics say who did what. You can change it later in the File menu."
            )
        )
        self.name_label.setText(self.tr("&Name:"))
        self.role_label.setText(self.tr("&Role:"))
        self.role_note.setText(self._role_note())
        for row, key in enumerate(identity.ROLES):
            self.role.setItemText(row, role_title(key))

    def _role_note(self) -> str:
        if identity.vouched() is not None:
            return self.tr(
                "You are connected to a team database with your own login, so the database says who you "
                "are and checks what your role allows. You may work in a lower role than the one you "
                "were given, never a higher one."
            )
        return self.tr(
            "Once the workspace has an administrator, your role is the one the administrator gave you on its list "
            "of people (with the command “annotator people role”); this choice counts only until then. In a "
            "workspace file (SQLite) roles are a workflow aid: anyone who can write the file can do anything."
        )

    def _enable_ok(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(self.name.text().strip()))

    def accept(self) -> None:
        if identity.vouched() is not None:
            identity.remember_role(self.role.currentData())  # the name is the login's; the one kept stays
        else:
            identity.remember(self.name.text(), self.role.currentData())
        super().accept()


def ask_if_unknown(parent: QWidget | None = None) -> bool:
    """At start: ask unless a name is already kept; False when the person declined to say."""
    if identity.current_person()[0]:
        return True
    return IdentityDialog(parent).exec() == QDialog.DialogCode.Accepted
