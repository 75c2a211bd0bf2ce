"""The row under the review view's preview: the decision buttons of the queue in front and the note that says
which trajectory is being fixed."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from annotator.ui.i18n import Retranslating, fill

translate = QCoreApplication.translate  # in the view's context: its texts, moved here with its buttons


class DecisionBar(Retranslating, QWidget):
    def __init__(
        self,
        parent: QWidget,
        accept: Callable[[], None],
        fix: Callable[[], None],
        reject: Callable[[], None],
        open_work: Callable[[], None],
    ) -> None:
        super().__init__(parent)
        self.fixing: int | None = None
        self.fixing_note = QLabel(self)
        self.fixing_note.setObjectName("fixing-note")
        self.fixing_note.setWordWrap(True)
        self.accept_button, self.fix_button = QPushButton(self), QPushButton(self)
        self.reject_button, self.open_button = QPushButton(self), QPushButton(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.fixing_note, 1)
        for button, command in (
            (self.accept_button, accept),
            (self.fix_button, fix),
            (self.reject_button, reject),
            (self.open_button, open_work),
        ):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays in the queue
            button.clicked.connect(command)
            layout.addWidget(button)
        self.retranslate()

    def show_tab(self, deciding: bool) -> None:
        """The waiting queue's decisions, or "Open for Editing" for the person's own work."""
        for button in (self.accept_button, self.fix_button, self.reject_button):
            button.setVisible(deciding)
        self.open_button.setVisible(not deciding)

    def set_chosen(self, chosen: bool) -> None:
        """The decisions act on the chosen trajectory: without one they are greyed, not only refused in words."""
        for button in (self.accept_button, self.fix_button, self.reject_button, self.open_button):
            button.setEnabled(chosen)

    def show_fixing(self, trajectory_id: int | None) -> None:
        self.fixing = trajectory_id
        text = translate(
            "ReviewView", "Fixing #%1: edit it in the annotation view, then Accept (your edits are revisions)."
        )
        self.fixing_note.setText(fill(text, trajectory_id) if trajectory_id is not None else "")

    def retranslate(self) -> None:
        self.accept_button.setText(translate("ReviewView", "Accept"))
        self.accept_button.setToolTip(translate("ReviewView", "Accept the trajectory (Ctrl+Shift+A)"))
        self.fix_button.setText(translate("ReviewView", "Fix and Accept…"))
        self.fix_button.setToolTip(
            translate("ReviewView", "Open it in the annotation view to edit it, then accept (Ctrl+Shift+E)")
        )
        self.reject_button.setText(translate("ReviewView", "Reject…"))
        self.reject_button.setToolTip(
            translate("ReviewView", "Send it back to the annotator with a comment (Ctrl+Shift+X)")
        )
        self.open_button.setText(translate("ReviewView", "Open for Editing"))
        self.open_button.setToolTip(translate("ReviewView", "Open it in the annotation view (Enter)"))
        self.show_fixing(self.fixing)
