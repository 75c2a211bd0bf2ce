"""The right-hand panel of the annotation view: the step's verdict, its stage progress, editors and history."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from annotator.domain.trajectory import LabelledStep, Verdict
from annotator.ui.annotate.editors import StageEditors
from annotator.ui.annotate.history import HistoryPane
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill

CONTEXT = "StepPanel"
# Verdicts are stored in English; this view's own labels for them (labels.py has none).
VERDICTS = {
    Verdict.CORRECT: QT_TRANSLATE_NOOP("StepPanel", "Correct"),
    Verdict.WRONG: QT_TRANSLATE_NOOP("StepPanel", "Wrong"),
    Verdict.REDUNDANT: QT_TRANSLATE_NOOP("StepPanel", "Redundant"),
}
VERDICT_COLOURS = {Verdict.CORRECT: "#1e7b34", Verdict.WRONG: "#b3261e", Verdict.REDUNDANT: "#8a5a00"}


class StepPanel(Retranslating, QWidget):
    verdict_chosen = Signal(str)
    keep_original_requested = Signal()
    insert_requested = Signal()
    remove_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("step-panel")
        self.step: LabelledStep | None = None
        self.count = 0
        self.title = QLabel(self)
        self.title.setObjectName("step-title")
        self.title.setStyleSheet("font-weight: bold;")
        self.tags = QLabel(self)
        self.tags.setObjectName("step-tags")
        self.tags.setWordWrap(True)
        self.verdict_buttons: dict[str, QPushButton] = {}
        self.verdict_group = QButtonGroup(self)
        verdict_row = QHBoxLayout()
        for value in VERDICTS:
            button = QPushButton(self)
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays on the canvas or in the editor
            button.setStyleSheet(f"QPushButton:checked {{ color: white; background: {VERDICT_COLOURS[value]}; }}")
            button.clicked.connect(lambda _checked=False, verdict=str(value): self.verdict_chosen.emit(verdict))
            self.verdict_group.addButton(button)
            self.verdict_buttons[str(value)] = button
            verdict_row.addWidget(button)
        self.progress = QLabel(self)
        self.progress.setObjectName("stage-progress")
        self.unsaved = QLabel(self)  # an edit refused because someone else changed the step: not saved yet
        self.unsaved.setObjectName("unsaved-edit")
        self.unsaved.setWordWrap(True)
        self.unsaved.setStyleSheet("color: #8c1d18; font-weight: bold;")
        self.unsaved.hide()
        self.keep_original = QPushButton(self)
        self.insert_step = QPushButton(self)
        self.remove_step = QPushButton(self)
        command_row = QHBoxLayout()
        for button, signal in (
            (self.keep_original, self.keep_original_requested),
            (self.insert_step, self.insert_requested),
            (self.remove_step, self.remove_requested),
        ):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(signal)
            command_row.addWidget(button)
        self.editors = StageEditors(self)
        self.history = HistoryPane(self)
        self.history.hide()
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.editors)
        self.splitter.addWidget(self.history)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        heading = QHBoxLayout()
        heading.addWidget(self.title)
        heading.addWidget(self.tags, 1)
        layout.addLayout(heading)
        layout.addLayout(verdict_row)
        layout.addWidget(self.progress)
        layout.addWidget(self.unsaved)
        layout.addLayout(command_row)
        layout.addWidget(self.editors.offer)
        layout.addWidget(self.splitter, 1)
        self.retranslate()

    def scrolling(self, parent: QWidget) -> QScrollArea:
        """The panel in a scroll area: on a short screen it scrolls instead of forcing the window taller."""
        area = QScrollArea(parent)
        area.setWidget(self)
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setMinimumWidth(420)
        return area

    def heightForWidth(self, _width: int) -> int:
        # Its wrapped labels would make the scroll area around it take the preferred height (and scroll
        # always); without one, it fills the height it is given and scrolls only below its minimum.
        return -1

    def show_step(self, step: LabelledStep | None, count: int) -> None:
        """The step's title, tags, verdict and progress (the editors are filled by the view, field by field)."""
        self.step, self.count = step, count
        for button in (*self.verdict_buttons.values(), self.keep_original, self.insert_step, self.remove_step):
            button.setEnabled(step is not None)
        self.insert_step.setEnabled(step is not None and step.origin == "collected")
        self.show_verdict(step.label.verdict if step else None)
        self.editors.show_progress(step.stages if step else (False, False, False))
        self._show_texts()

    def show_unsaved(self, unsaved: bool) -> None:
        """Say that this step holds an edit that is not saved (it waits for a merge with someone else's change)."""
        self.unsaved.setVisible(unsaved)

    def show_history(self, visible: bool) -> None:
        """Show or hide the history under the editors; shown, it gets two fifths of the height."""
        self.history.setVisible(visible)
        if visible:
            height = self.splitter.height()
            self.splitter.setSizes([height * 3 // 5, height * 2 // 5])

    def show_verdict(self, verdict: str | None) -> None:
        self.verdict_group.setExclusive(False)  # so that "no verdict yet" can show all three unchecked
        for value, button in self.verdict_buttons.items():
            button.setChecked(value == verdict)
        self.verdict_group.setExclusive(True)

    def _show_texts(self) -> None:
        step = self.step
        self.progress.setText(self.editors.progress_text() if step else "")
        removed = step is not None and step.removed
        self.remove_step.setText(self.tr("Restore Step") if removed else self.tr("Remove Step"))
        if step is None:
            self.title.setText(self.tr("No step"))
            self.tags.setText("")
            return
        self.title.setText(fill(self.tr("Step %1 of %2"), step.position, self.count))
        tags = [fill(self.tr("screen %1×%2"), step.screen.width, step.screen.height)]
        if step.origin == "inserted":
            tags.append(self.tr("inserted: corrects the step before it"))
        if step.removed:
            tags.append(self.tr("left out of the labelled trajectory (Ctrl+Shift+Delete restores it)"))
        self.tags.setText(" · ".join(tags))
        self.tags.setStyleSheet("color: #8c1d18;" if step.removed else "")

    def retranslate(self) -> None:
        for number, (value, button) in enumerate(self.verdict_buttons.items(), start=1):
            button.setText(f"{number} · {QCoreApplication.translate(CONTEXT, VERDICTS[Verdict(value)])}")
            button.setToolTip(fill(self.tr("Mark the step %1 (key %2)"), button.text().split(" · ")[1], number))
        self.unsaved.setText(self.tr("Not saved: someone else changed this step meanwhile. Edit it again to merge."))
        self.keep_original.setText(self.tr("Keep Original"))
        self.keep_original.setToolTip(self.tr("Copy what was collected into the empty stages (Ctrl+K)"))
        self.insert_step.setText(self.tr("Insert Corrected Step"))
        self.insert_step.setToolTip(self.tr("After a wrong step, add the step that should have been taken (Ctrl+I)"))
        self.remove_step.setToolTip(
            self.tr("Leave a redundant step out of the labelled trajectory, or take it back (Ctrl+Shift+Delete)")
        )
        self._show_texts()
