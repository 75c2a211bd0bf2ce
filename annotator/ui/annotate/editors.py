"""The three Mobile-R1 labelling stages of one step: think, action, tool call (paper section 3.2).

Think and action are plain text: the label is edited above, the original (what the agent wrote) is shown
read-only below it, and a word-level diff marks what the label added (green) and what it dropped from the
original (red, struck out). The tool call has its own editor (``tool_call_editor``). The editors only
report edits; the view decides when they are saved.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTabWidget, QVBoxLayout, QWidget

from annotator.domain.drafts import Draft
from annotator.domain.trajectory import LabelledStep
from annotator.ui.annotate import textdiff
from annotator.ui.annotate.tool_call_editor import ToolCallEditor
from annotator.ui.annotate.undo_keys import UndoKeysToWindow, give_undo_keys_to_window
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill

CONTEXT = "StageEditors"
STAGES: tuple[str, ...] = ("think", "action_text", "tool_call")
TEXT_STAGES: tuple[str, ...] = ("think", "action_text")
STAGE_TITLES = {
    "think": QT_TRANSLATE_NOOP("StageEditors", "&Think"),
    "action_text": QT_TRANSLATE_NOOP("StageEditors", "&Action"),
    "tool_call": QT_TRANSLATE_NOOP("StageEditors", "T&ool call"),
}
STAGE_HINTS = {
    "think": QT_TRANSLATE_NOOP(
        "StageEditors",
        "Stage 1 · Logical thinking: the current state or screen, then the next action, then its goal. "
        "Rewrite thinking that is wrong or redundant.",
    ),
    "action_text": QT_TRANSLATE_NOOP(
        "StageEditors",
        "Stage 2 · Clear action: one explicit low-level instruction, as in AndroidControl.",
    ),
}
PLACEHOLDERS = {
    "think": QT_TRANSLATE_NOOP(
        "StageEditors",
        "Not labelled yet. E.g. Currently on the phone home screen, the next step is to click the Taobao app "
        "to enter Taobao. (Ctrl+K keeps the original.)",
    ),
    "action_text": QT_TRANSLATE_NOOP(
        "StageEditors", "Not labelled yet. E.g. Click the search box at the top. (Ctrl+K keeps the original.)"
    ),
}


class StageTextEditor(Retranslating, QWidget):
    """The label of one text stage above its original, with the differences marked."""

    edited = Signal(str)  # the text as the user left it

    def __init__(self, stage: str, undo_keys: UndoKeysToWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stage = stage
        self._filling = False  # True while code, not the user, sets the text
        self._labelled = False
        self._draft: tuple[str, str] | None = None  # (model, text) of the step's draft
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.hint.setObjectName("stage-hint")
        self.edit = QPlainTextEdit(self)
        self.edit.setObjectName(f"label-{stage}")
        self.edit.setTabChangesFocus(True)  # Tab moves on; a label has no use for tab characters
        self.original_caption = QLabel(self)
        self.original = QPlainTextEdit(self)
        self.original.setObjectName(f"original-{stage}")
        self.original.setReadOnly(True)
        self.original.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.original.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        larger = QFont(self.edit.font())
        larger.setPointSizeF(larger.pointSizeF() * 1.15)
        for box, lines in ((self.edit, 3), (self.original, 2)):  # small minimums: the history pane fits under
            box.setFont(larger)
            box.setMinimumHeight(box.fontMetrics().lineSpacing() * lines + 12)
        self.original.setStyleSheet("QPlainTextEdit { background: palette(window); }")
        layout = QVBoxLayout(self)
        layout.addWidget(self.hint)
        layout.addWidget(self.edit, 3)
        layout.addWidget(self.original_caption)
        layout.addWidget(self.original, 2)
        give_undo_keys_to_window(undo_keys, self.edit)
        self.edit.textChanged.connect(self._typed)
        self.setFocusProxy(self.edit)
        self.retranslate()

    def show_text(self, original: str | None, label: str | None) -> None:
        """Show a step's texts; the label's text is left alone (cursor and all) when it is already there."""
        self._filling = True
        try:
            if self.original.toPlainText() != (original or ""):
                self.original.setPlainText(original or "")
            if self.edit.toPlainText() != (label or ""):
                self.edit.setPlainText(label or "")
        finally:
            self._filling = False
        self._labelled = label is not None
        self._mark_differences()

    def text(self) -> str:
        return self.edit.toPlainText()

    def show_draft(self, text: str | None, model: str) -> None:
        self._draft = (model, text) if text else None
        self._placeholder()

    def _placeholder(self) -> None:
        if self._draft is None:
            self.edit.setPlaceholderText(QCoreApplication.translate(CONTEXT, PLACEHOLDERS[self.stage]))
        else:
            model, text = self._draft
            caption = fill(self.tr("Draft by %1 (T takes it; Space takes it and accepts the step):"), model)
            self.edit.setPlaceholderText(f"{caption}\n{text}")
        # Qt repaints an empty editor when its placeholder appears or goes, not when only its text changes: the
        # previous step's draft would stay on screen
        self.edit.viewport().update()

    def set_read_only(self, read_only: bool) -> None:
        self.edit.setReadOnly(read_only)

    def _typed(self) -> None:
        if self._filling:
            return
        self._labelled = bool(self.edit.toPlainText().strip())
        self._mark_differences()
        self.edited.emit(self.edit.toPlainText())

    def _mark_differences(self) -> None:
        changes = textdiff.highlight(self.original, self.edit, self._labelled)
        if not self.original.toPlainText():
            summary = ""
        elif not self._labelled:
            summary = self.tr("not labelled yet")
        elif changes:
            summary = self.tr("%n change(s) marked", "", changes)
        else:
            summary = self.tr("the label keeps it as it is")
        caption = self.tr("Original (as collected)")
        self.original_caption.setText(f"{caption} — {summary}" if summary else caption)

    def retranslate(self) -> None:
        self.hint.setText(QCoreApplication.translate(CONTEXT, STAGE_HINTS[self.stage]))
        self._placeholder()
        self.original.setPlaceholderText(
            self.tr("Nothing was collected for this stage (a teleoperated or an inserted step).")
        )
        self._mark_differences()


class StageEditors(Retranslating, QTabWidget):
    """The three stage editors as tabs; a tab's title says whether its stage is labelled."""

    text_edited = Signal(str, str)  # stage ("think" | "action_text"), text
    tool_call_edited = Signal(object, bool)  # a valid tool call or None, save at once?

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stage-editors")
        self.undo_keys = UndoKeysToWindow(self)
        self.think = StageTextEditor("think", self.undo_keys, self)
        self.action_text = StageTextEditor("action_text", self.undo_keys, self)
        self.tool_call = ToolCallEditor(self)
        give_undo_keys_to_window(self.undo_keys, *self.tool_call.text_inputs())
        self.stages: tuple[bool, bool, bool] = (False, False, False)
        self.needs_look: set[str] = set()  # stages marked for a second look (a stale action text)
        self.offer = QLabel(parent)  # an action text to take with one key; the panel shows it above the tabs
        self.offer.setObjectName("offered-action-text")
        self.offer.setWordWrap(True)
        self.offer.setStyleSheet("background: #fff4d6; color: #5c4300; padding: 4px; border-radius: 3px;")
        self.offer.hide()
        self._offered: str | None = None
        for stage in STAGES:
            self.addTab(self.editor(stage), "")
        self.think.edited.connect(lambda text: self.text_edited.emit("think", text))
        self.action_text.edited.connect(lambda text: self.text_edited.emit("action_text", text))
        self.tool_call.edited.connect(self.tool_call_edited)
        self.retranslate()

    def editor(self, stage: str) -> QWidget:
        return {"think": self.think, "action_text": self.action_text, "tool_call": self.tool_call}[stage]

    def text_editor(self, stage: str) -> StageTextEditor:
        return {"think": self.think, "action_text": self.action_text}[stage]

    def show_stage(self, stage: str) -> None:
        """Bring a stage's editor forward and put the cursor in it."""
        widget = self.editor(stage)
        self.setCurrentWidget(widget)
        target = widget.json_edit if isinstance(widget, ToolCallEditor) else widget
        target.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def show_field(self, step: LabelledStep, stage: str) -> None:
        """Show one stage of a step (the view calls it for the stages it has no unsaved edit of)."""
        if stage == "tool_call":
            screen = step.screen
            self.tool_call.show_call(step.original.tool_call, step.label.tool_call, screen)
        else:
            editor = self.think if stage == "think" else self.action_text
            editor.show_text(getattr(step.original, stage), getattr(step.label, stage))

    def show_changed(self, step: LabelledStep, changes: dict[str, Any]) -> None:
        """Show the stages an edit changed that their editors do not hold yet (Space, Ctrl+K, a merge: not typing)."""
        for stage in STAGES:
            if stage in changes and self.value(stage) != changes[stage]:
                self.show_field(step, stage)

    def show_progress(self, stages: tuple[bool, bool, bool]) -> None:
        self.stages = stages
        for row, (stage, done) in enumerate(zip(STAGES, stages, strict=True)):
            title = QCoreApplication.translate(CONTEXT, STAGE_TITLES[stage])
            look = stage in self.needs_look
            self.setTabText(row, f"{row + 1} {title} {'✓' if done else '·'}{' ⚠' if look else ''}")
            tip = self.tr("Labelled") if done else self.tr("Not labelled yet")
            self.setTabToolTip(row, tip + (" · " + self.tr("needs a look: the point moved") if look else ""))

    def show_draft(self, draft: Draft | None) -> None:
        """A model's draft, dimmed where a stage is empty (as its placeholder) until it is taken."""
        self.think.show_draft(draft.think if draft else None, draft.model if draft else "")
        self.action_text.show_draft(draft.action_text if draft else None, draft.model if draft else "")
        self.tool_call.show_draft(draft.tool_call if draft else None, draft.model if draft else "")

    def show_offer(self, offered: str | None) -> None:
        """A moved point's action text to take; the action stage is marked as needing a look meanwhile."""
        self._offered = offered
        self.offer.setVisible(offered is not None)
        self._offer_text()
        self.needs_look = {"action_text"} if offered is not None else set()
        self.show_progress(self.stages)

    def value(self, stage: str) -> Any:
        """What the stage's editor holds now, as it would be saved (None: not labelled)."""
        if stage == "tool_call":
            return self.tool_call.valid_call()
        text = self.text_editor(stage).text()
        return text if text.strip() else None

    def set_read_only(self, read_only: bool) -> None:
        self.think.set_read_only(read_only)
        self.action_text.set_read_only(read_only)
        self.tool_call.set_read_only(read_only)

    def progress_text(self) -> str:
        """How many stages are done, and what the tabs' marks mean (they were never said)."""
        done = sum(self.stages)
        legend = self.tr("tabs: ✓ labelled, · not yet, ⚠ needs a look")
        return fill(self.tr("%1 of 3 stages labelled"), done) + " (" + legend + ")"

    def _offer_text(self) -> None:
        if self._offered is not None:
            message = self.tr("The point is on another element now: the action text may be stale. R takes “%1”.")
            self.offer.setText(fill(message, self._offered))

    def retranslate(self) -> None:
        self.show_progress(self.stages)
        self._offer_text()
