"""The top of the annotation view: the instruction, the app, the review state, the outcome, the reviewer's word."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QPainter, QPaintEvent
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from annotator.domain.trajectory import LabelledTrajectory, Outcome, ReviewStatus
from annotator.ui import labels
from annotator.ui.browser.model import local_time
from annotator.ui.i18n import Retranslating, fill

BANNER_STYLE = "background: #fde7e4; color: #8c1d18; border: 1px solid #e8a39b; border-radius: 4px; padding: 6px;"


class OneLineLabel(QLabel):
    """A line that gives way to the buttons beside it: cut short with "…" (the whole of it in its tooltip), so that
    a narrow window does not wrap it into lines that take the screenshot's height."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width())
        painter.drawText(self.contentsRect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)


class TrajectoryHeader(Retranslating, QWidget):
    outcome_chosen = Signal(str)  # "success" | "failure"
    submit_requested = Signal()
    draft_requested = Signal()
    state_shown = Signal(bool, bool)  # a trajectory is shown, it can be changed: the window greys what cannot act

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record: LabelledTrajectory | None = None
        self.writable = True  # False in a read-only workspace: nothing here can change, and the banner says so
        self.workspace_open = False  # without one, the header says how to open one
        self.instruction = QLabel(self)
        self.instruction.setObjectName("instruction")
        self.instruction.setWordWrap(True)
        self.instruction.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        large = QFont(self.instruction.font())
        large.setPointSizeF(large.pointSizeF() * 1.5)
        large.setBold(True)
        self.instruction.setFont(large)
        self.details = OneLineLabel(self)
        self.details.setObjectName("trajectory-details")
        self.outcome_caption = QLabel(self)
        self.completed, self.not_completed = QPushButton(self), QPushButton(self)
        self.outcome_buttons = QButtonGroup(self)
        for button, outcome in ((self.completed, Outcome.SUCCESS), (self.not_completed, Outcome.FAILURE)):
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # clicking keeps the keyboard where it was
            button.clicked.connect(lambda _checked=False, value=str(outcome): self.outcome_chosen.emit(value))
            self.outcome_buttons.addButton(button)
        self.submit = QPushButton(self)
        self.submit.setObjectName("submit-for-review")
        self.submit.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.submit.clicked.connect(self.submit_requested)
        self.draft = QPushButton(self)
        self.draft.setObjectName("draft-with-model")
        self.draft.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.draft.clicked.connect(self.draft_requested)
        self.banner = QLabel(self)
        self.banner.setObjectName("rejected-banner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(BANNER_STYLE)
        self.banner.hide()
        row = QHBoxLayout()
        row.addWidget(self.details, 1)
        row.addWidget(self.outcome_caption)
        row.addWidget(self.completed)
        row.addWidget(self.not_completed)
        row.addSpacing(12)
        row.addWidget(self.draft)
        row.addWidget(self.submit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 4)
        layout.addWidget(self.instruction)
        layout.addLayout(row)
        layout.addWidget(self.banner)
        self.retranslate()

    def show_record(self, record: LabelledTrajectory | None) -> None:
        self.record = record
        enabled = record is not None
        for button in (self.completed, self.not_completed, self.submit, self.draft):
            button.setEnabled(enabled and self.writable)
        self.outcome_buttons.setExclusive(False)  # so that "not judged yet" can show both unchecked
        outcome = record.label_outcome if record is not None else None
        self.completed.setChecked(outcome == Outcome.SUCCESS)
        self.not_completed.setChecked(outcome == Outcome.FAILURE)
        self.outcome_buttons.setExclusive(True)
        self._show_texts()
        self.state_shown.emit(enabled, self.writable)

    def _show_texts(self) -> None:
        record = self.record
        if record is None and not self.workspace_open:
            self.instruction.setText(self.tr("No workspace open"))
            self.details.setText(self.tr("No workspace open: choose one with File › Open Workspace Folder…"))
            self.banner.hide()
            return
        if record is None:
            self.instruction.setText(self.tr("No trajectory open"))
            self.details.setText(self.tr("Open one from the trajectory list, or press Next Trajectory."))
            self.banner.hide()
            return
        if not self.writable:
            self.banner.setText(
                self.tr("This workspace is open read-only: its labels can be read and exported, not changed.")
            )
        self.instruction.setText(record.instruction)
        steps = sum(1 for step in record.steps if step.origin == "collected")
        parts = [
            f"#{record.id}",
            record.app,
            self.tr("%n step(s)", "", steps),
            fill(self.tr("review: %1"), labels.label(labels.REVIEW, record.review_status)),
        ]
        if record.collected_outcome:
            parts.append(fill(self.tr("collector said: %1"), labels.label(labels.OUTCOME, record.collected_outcome)))
        self.details.setText(" · ".join(parts))
        note = record.last_review if record.review_status == ReviewStatus.REJECTED else None
        if note is not None:
            when = local_time(note.at)
            who = note.reviewer or self.tr("a reviewer")
            comment = note.comment or self.tr("(no comment)")
            self.banner.setText(fill(self.tr("Rejected by %1 on %2: %3"), who, when, comment))
        self.banner.setVisible(note is not None or not self.writable)

    def retranslate(self) -> None:
        self.outcome_caption.setText(self.tr("Outcome:"))
        self.completed.setText(self.tr("Completed"))
        self.not_completed.setText(self.tr("Not completed"))
        self.completed.setToolTip(self.tr("The trajectory completes its task (Ctrl+Shift+Y)"))
        self.not_completed.setToolTip(self.tr("The trajectory does not complete its task (Ctrl+Shift+N)"))
        self.submit.setText(self.tr("Submit for Review"))
        self.submit.setToolTip(self.tr("Mark this trajectory as annotated so that a reviewer sees it (Ctrl+Return)"))
        self.draft.setText(self.tr("Draft with a Model…"))
        self.draft.setToolTip(self.tr("Ask a model for drafts of the unlabelled steps; T takes a step's draft"))
        self._show_texts()
