"""Blind rating of a study, one item at a time, in the rater's own order.

The page shows what the judge saw (instruction, steps, screenshots) and the rubric, never a score but the
rater's own. Keys 0-4 score the item and go on to the next; Alt+Left / Alt+Right move without scoring.
Every score is written at once through annotator.services.blind_rating.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from annotator.judge.messages import JudgedTrajectory
from annotator.services import blind_rating
from annotator.services.blind_rating import BlindEntry
from annotator.storage.workspace import Workspace
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill
from annotator.ui.studies.steps import BlindSteps
from annotator.ui.workers import Jobs

CONTEXT = "RatingPage"
RATING_QUEUE = "study-ratings"  # scores are written in the order they were given
LEVEL_HINTS = (
    QT_TRANSLATE_NOOP("RatingPage", "0: failed; nothing meaningful was done"),
    QT_TRANSLATE_NOOP("RatingPage", "1: a few actions; went off track early"),
    QT_TRANSLATE_NOOP("RatingPage", "2: partly done; the goal was not reached"),
    QT_TRANSLATE_NOOP("RatingPage", "3: mostly done, or done with detours"),
    QT_TRANSLATE_NOOP("RatingPage", "4: done, clearly and without detours"),
)


class RatingPage(Retranslating, QWidget):
    finished = Signal()  # every item has a score now
    saved = Signal()  # a score or a note is stored
    status_message = Signal(str)

    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("study-rating")
        self.jobs = jobs
        self.workspace: Workspace | None = None
        self.study, self.rater = "", ""
        self.entries: list[BlindEntry] = []
        self.index = 0
        self.trajectory: JudgedTrajectory | None = None
        self._generation = 0
        self.header = QLabel(self)
        self.header.setObjectName("study-rating-header")
        self.rubric_button = QPushButton(self)
        self.rubric_button.setCheckable(True)
        self.rubric = QTextBrowser(self)
        self.rubric.setObjectName("study-rubric")
        self.rubric.setVisible(False)
        self.rubric.setMaximumHeight(220)
        self.rubric_button.toggled.connect(self.rubric.setVisible)
        self.instruction = QLabel(self)
        self.instruction.setObjectName("study-instruction")
        self.instruction.setWordWrap(True)
        self.instruction.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        large = QFont(self.instruction.font())
        large.setPointSizeF(large.pointSizeF() * 1.3)
        large.setBold(True)
        self.instruction.setFont(large)
        self.steps = BlindSteps(jobs, self)
        self.score_label = QLabel(self)
        self.scores = QButtonGroup(self)
        self.score_buttons = [QPushButton(str(level), self) for level in range(5)]
        for level, button in enumerate(self.score_buttons):
            button.setCheckable(True)
            button.setMinimumWidth(44)
            button.setObjectName(f"study-score-{level}")
            self.scores.addButton(button, level)
        self.scores.idClicked.connect(self.score)
        self.note = QLineEdit(self)
        self.note.setObjectName("study-note")
        self.note.editingFinished.connect(self._save_note)
        self.previous_button, self.next_button = QPushButton(self), QPushButton(self)
        self.previous_button.clicked.connect(lambda: self.step_by(-1))
        self.next_button.clicked.connect(lambda: self.step_by(+1))
        QShortcut(QKeySequence("Alt+Left"), self, lambda: self.step_by(-1))
        QShortcut(QKeySequence("Alt+Right"), self, lambda: self.step_by(+1))
        # The scores act from anywhere in the window while this page shows (after Ctrl+7 or a change of person the
        # focus may be outside it); the note, a text field, keeps its digits as text.
        for level in range(5):
            for sequence in (str(level), f"Num+{level}"):
                key = QShortcut(QKeySequence(sequence), self, lambda level=level: self._score_key(level))
                key.setContext(Qt.ShortcutContext.WindowShortcut)
        self.keys_hint = QLabel(self)
        self.keys_hint.setObjectName("study-keys")
        self._lay_out()
        self.retranslate()

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.rubric_button)
        bottom = QHBoxLayout()
        bottom.addWidget(self.score_label)
        for button in self.score_buttons:
            bottom.addWidget(button)
        bottom.addWidget(self.note, 1)
        bottom.addWidget(self.previous_button)
        bottom.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.rubric)
        layout.addWidget(self.instruction)
        layout.addWidget(self.steps, 1)
        layout.addLayout(bottom)
        layout.addWidget(self.keys_hint)

    # what the view asks ----------------------------------------------------------------------------------------

    def start(self, workspace: Workspace, study: str, rater: str, rubric: str, entries: list[BlindEntry]) -> None:
        """Rate `study` as `rater`, from the first item without a score."""
        self.workspace, self.study, self.rater, self.entries = workspace, study, rater, entries
        self.steps.screenshot_path = workspace.blobs.screenshot_path
        self.rubric.setPlainText(rubric)
        unrated = [i for i, entry in enumerate(entries) if entry.score is None]
        self.show_item(unrated[0] if unrated else 0)

    def rated(self) -> int:
        return sum(entry.score is not None for entry in self.entries)

    def show_item(self, index: int) -> None:
        if not self.entries or self.workspace is None:
            return
        self.index = max(0, min(index, len(self.entries) - 1))
        entry, workspace, study, rater = self.entries[self.index], self.workspace, self.study, self.rater
        self._generation += 1
        generation = self._generation
        self.trajectory = None
        self.steps.show_trajectory(None)
        self.note.setText(entry.note or "")
        self._show_score(entry.score)
        self._show_header()
        self.instruction.setText(self.tr("Loading…"))
        self.jobs.submit(
            self.tr("Loading a study item"),
            lambda: blind_rating.blind_trajectory(workspace.database, study, rater, entry.item_id),
            on_result=lambda trajectory: self._arrived(generation, trajectory),
        )

    def step_by(self, offset: int) -> None:
        self.show_item(self.index + offset)

    def score(self, level: int) -> None:
        """Give the item on screen `level`, save it, and go on to the next item."""
        if not self.entries or self.workspace is None:
            return
        entry, db, note = self.entries[self.index], self.workspace.database, self.note.text()
        study, rater = self.study, self.rater
        self.entries[self.index] = replace(entry, score=level, note=note.strip() or None)
        self._show_score(level)
        self.jobs.submit(
            self.tr("Saving a score"),
            lambda: blind_rating.rate(db, study, rater, entry.item_id, level, note),
            on_result=lambda _stored: self.saved.emit(),
            on_error=lambda _error: self._save_failed(entry),
            queue=RATING_QUEUE,
        )
        if self.rated() == len(self.entries):
            self.jobs.submit(
                self.tr("Saving a score"), lambda: None, on_result=lambda _r: self.finished.emit(), queue=RATING_QUEUE
            )
        elif self.index < len(self.entries) - 1:
            self.step_by(+1)
        else:
            self.show_item(next(i for i, e in enumerate(self.entries) if e.score is None))

    # the item --------------------------------------------------------------------------------------------------

    def _arrived(self, generation: int, trajectory: JudgedTrajectory) -> None:
        if generation != self._generation:
            return
        self.trajectory = trajectory
        self.instruction.setText(trajectory.instruction)
        self.steps.show_trajectory(trajectory)

    def _save_note(self) -> None:
        if not self.entries or self.workspace is None:
            return
        entry = self.entries[self.index]
        note = self.note.text().strip() or None
        if entry.score is None or note == entry.note:
            return  # a note is saved with its score
        self.entries[self.index] = replace(entry, note=note)
        db, study, rater, level = self.workspace.database, self.study, self.rater, entry.score
        self.jobs.submit(
            self.tr("Saving a note"),
            lambda: blind_rating.rate(db, study, rater, entry.item_id, level, note or ""),
            queue=RATING_QUEUE,
        )

    def _save_failed(self, entry: BlindEntry) -> None:
        index = next((i for i, e in enumerate(self.entries) if e.item_id == entry.item_id), None)
        if index is not None:
            self.entries[index] = entry  # as stored: without the score that failed
        self.status_message.emit(fill(self.tr("The score of item %1 was not saved; give it again."), entry.number))
        self._show_header()

    def _show_score(self, level: int | None) -> None:
        self.scores.setExclusive(False)
        for button_level, button in enumerate(self.score_buttons):
            button.setChecked(button_level == level)
        self.scores.setExclusive(True)

    def _show_header(self) -> None:
        if not self.entries:
            self.header.setText("")
            return
        self.header.setText(
            fill(
                self.tr("<b>%1</b> · item %2 of %3 · %4 rated, as %5"),
                self.study,
                self.index + 1,
                len(self.entries),
                self.rated(),
                self.rater,
            )
        )
        self.previous_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < len(self.entries) - 1)

    # keys ------------------------------------------------------------------------------------------------------

    def _score_key(self, level: int) -> None:
        if self.entries:
            self.score(level)

    # language --------------------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        self.rubric_button.setText(self.tr("Rubric"))
        self.rubric_button.setToolTip(self.tr("The scale the judge and every rater use"))
        self.score_label.setText(self.tr("Your score:"))
        for level, button in enumerate(self.score_buttons):
            button.setToolTip(QCoreApplication.translate(CONTEXT, LEVEL_HINTS[level]))
        self.note.setPlaceholderText(self.tr("Note (optional): why this score"))
        self.previous_button.setText(self.tr("Previous"))
        self.next_button.setText(self.tr("Next"))
        self.keys_hint.setText(
            self.tr("Keys 0-4 score this trajectory and open the next; Alt+Left and Alt+Right move without scoring.")
        )
        self._show_header()
