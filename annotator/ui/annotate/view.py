"""The annotation view: one trajectory, step by step, through the three Mobile-R1 labelling stages.

The view keeps the loaded LabelledTrajectory and switches steps from it without a query. Its copy of each step
is the newest the annotator knows: an edit changes it at once (so the strip, the overlays and the editors
agree while the save is on its way) and a saved record replaces it, except for fields that have a newer
unsaved edit. Loading, element dumps and every write run on jobs (see ``autosave``); only the newest load
result is shown.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import QMessageBox, QWidget

from annotator.device.hierarchy import UiNode
from annotator.domain.trajectory import (
    LABEL_FIELDS,
    LabelledStep,
    LabelledTrajectory,
    review_status_after_edit,
)
from annotator.services.annotation import LabelError, StaleLabelError, read_for_editing, with_label
from annotator.services.changes import Changes
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.annotate import unmerged
from annotator.ui.annotate.accept import StepAcceptance
from annotator.ui.annotate.autosave import LabelSaver
from annotator.ui.annotate.canvas import StepCanvas
from annotator.ui.annotate.commands import AnnotationCommands
from annotator.ui.annotate.drafts import StepDrafts
from annotator.ui.annotate.editors import STAGES
from annotator.ui.annotate.elements import ScreenElements
from annotator.ui.annotate.gestures import LabelGestures
from annotator.ui.annotate.header import OneLineLabel, TrajectoryHeader
from annotator.ui.annotate.layout import lay_out
from annotator.ui.annotate.merge_dialog import StaleMerges
from annotator.ui.annotate.overlays import overlays_for
from annotator.ui.annotate.privacy import PrivacyRegions
from annotator.ui.annotate.step_panel import StepPanel
from annotator.ui.annotate.strip import StepStrip
from annotator.ui.hub import Hub
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.workers import Jobs


class AnnotationView(Retranslating, QWidget):
    status_message = Signal(str)

    def __init__(self, jobs: Jobs, parent: QWidget | None = None, *, hub: Hub | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("annotation-view")
        self.jobs = jobs
        self.hub = hub or Hub(self)
        self.hub.save_requested.connect(self.save_state)
        self.hub.changed.connect(self._changed)
        self.workspace: Workspace | None = None
        self.record: LabelledTrajectory | None = None
        self.order: list[int] = []  # step ids in labelled order
        self.steps: dict[int, LabelledStep] = {}  # the newest known state of each step
        self.step_id: int | None = None
        self._shown: dict[str, Any] = {}  # per stage: the stored value its editor was last filled with
        self.elements = ScreenElements(jobs, self._elements_arrived)
        self._open_generation = 0  # the newest open request; older results are dropped
        self._sized = False  # the splitter gets its first sizes when the view is first shown
        self.question: QMessageBox | None = None  # the question asked last (leaving text waiting for a merge)
        self.saver = LabelSaver(jobs, self)
        self.saver.step_saved.connect(self.apply_saved_step)
        self.saver.save_failed.connect(self._save_failed)
        self.saver.reloaded.connect(self.show_reloaded)
        self.saver.held_changed.connect(lambda trajectory_id: unmerged.keep_for(self, trajectory_id))
        self.merges = StaleMerges(self)  # saves refused because someone else changed the step meanwhile
        self.header = TrajectoryHeader(self)
        self.canvas = StepCanvas(self)
        self.canvas_hint = OneLineLabel(self)  # the mouse gestures, where the annotator looks
        self.canvas_hint.setObjectName("canvas-hint")
        self.canvas_hint.setContentsMargins(8, 0, 8, 0)
        self.strip = StepStrip(self)
        self.panel = StepPanel(self)
        self.editors = self.panel.editors
        self.commands = AnnotationCommands(self)  # the actions table's target "annotate.commands"
        self.acceptance = StepAcceptance(self)  # Space, R; the actions table's target "annotate.accept"
        self.drafts = StepDrafts(self)  # model drafts; the actions table's target "annotate.drafts"
        self.gestures = LabelGestures(self)  # the canvas's clicks and drags as label edits
        self.privacy = PrivacyRegions(self)  # the privacy tool; the actions table's target "annotate.privacy"
        self.splitter = lay_out(self)
        self._connect()
        self.setFocusProxy(self.canvas)
        self.retranslate()
        self.show_reloaded(None)

    def _connect(self) -> None:
        self.strip.step_chosen.connect(self._go_to)
        self.canvas.space_tapped.connect(self.acceptance.accept_step)  # the canvas holds space for panning
        self.header.outcome_chosen.connect(self.commands.set_outcome)
        self.header.submit_requested.connect(self.commands.submit_for_review)
        self.header.draft_requested.connect(self.drafts.draft_trajectory)
        self.panel.verdict_chosen.connect(self.commands.set_verdict)
        self.panel.keep_original_requested.connect(self.commands.keep_original)
        self.panel.insert_requested.connect(self.commands.insert_corrected_step)
        self.panel.remove_requested.connect(self.commands.remove_step)
        self.panel.history.restore_requested.connect(self.commands.restore_revision)
        self.editors.text_edited.connect(self._text_edited)
        self.editors.tool_call_edited.connect(self._tool_call_edited)

    # the workspace and trajectories ---------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        if workspace is self.workspace:
            return
        self.save_state()
        self.saver.stop()
        self.workspace = workspace
        self.header.writable = workspace is None or not workspace.read_only
        self.header.workspace_open = workspace is not None
        self.acceptance.recall_typing(str(workspace.data_dir) if workspace else "")
        self.strip.set_screenshots(workspace.blobs.screenshot_path if workspace else None)
        self._open_generation += 1  # a load still running belongs to the old workspace
        self.show_reloaded(None)

    def save_state(self) -> None:
        """Write every pending edit now and wait until it is saved (closing, switching workspace)."""
        if self.workspace is not None:
            self.acceptance.keep_typing(str(self.workspace.data_dir))
        if not self.saver.wait():
            self.status_message.emit(self.tr("Some edits are still being saved."))

    def open_trajectory(self, trajectory_id: int) -> None:
        workspace = self.workspace
        if workspace is None:
            self.status_message.emit(self.tr("Open a workspace first."))
            return
        opening = lambda: self._open(workspace, trajectory_id)  # noqa: E731
        if trajectory_id == self.current_trajectory() or not unmerged.asked_first(self, opening):
            opening()

    def _open(self, workspace: Workspace, trajectory_id: int) -> None:
        self.saver.flush()
        self._open_generation += 1
        generation = self._open_generation
        self.saver.submit(
            fill(self.tr("Opening trajectory %1"), trajectory_id),
            lambda: read_for_editing(workspace.database, trajectory_id),
            lambda loaded: self._opened(generation, *loaded),
        )

    def current_trajectory(self) -> int | None:
        return self.record.id if self.record else None

    def _changed(self, changes: Changes) -> None:
        """A decision elsewhere on the trajectory shown (a reviewer's accept or reject): its header says so."""
        shown = self.current_trajectory()
        if changes.review and changes.touches(shown) and shown is not None and self.saver.trajectory_id == shown:
            self.open_trajectory(shown)

    def announce(self, changes: Changes) -> None:
        """Tell the other views what this view wrote (it shows its own writes already)."""
        self.hub.changed.disconnect(self._changed)
        try:
            self.hub.announce(changes)
        finally:
            self.hub.changed.connect(self._changed)

    def current_step_id(self) -> int | None:
        return self.step_id

    def is_showing(self, trajectory_id: int) -> bool:
        """True once that trajectory is loaded and one of its steps is on screen."""
        return self.record is not None and self.record.id == trajectory_id and self.step_id is not None

    def _opened(self, generation: int, versions: dict[int | None, int], record: LabelledTrajectory) -> None:
        if generation != self._open_generation:
            return  # the annotator has asked for another trajectory since
        self.saver.read(record.id or 0, versions)  # the next saves are based on what is shown now
        if self.saver.trajectory_id != record.id:
            self.saver.stop()
            self.elements.clear()
            self.step_id = None
            self._start_saver(record.id or 0)
        self.show_reloaded(record)
        unmerged.restore(self)  # text kept from before, waiting for its merge
        self.commands.opening(record.id or 0)
        if self.isVisible():
            self.hub.annotating = record.id
        name, _role = identity.current_person()
        if not name:
            self.status_message.emit(self.who_first())
        self.canvas.setFocus(Qt.FocusReason.OtherFocusReason)

    def _start_saver(self, trajectory_id: int) -> bool:
        name, role = identity.current_person()
        if not name or self.workspace is None:
            return False
        self.saver.start(self.workspace, trajectory_id, name, role)
        return True

    def show_reloaded(self, record: LabelledTrajectory | None, focus_step: int | None = None) -> None:
        """Show a (re)loaded trajectory; fields with unsaved edits keep the annotator's version."""
        order_changed = record is None or [s.id for s in record.steps] != self.order
        self.record = record
        self.order = [step.id or 0 for step in record.steps] if record else []
        self.steps = {step.id or 0: self._merged(step) for step in record.steps} if record else {}
        self.header.show_record(record)
        for part in (self.splitter, self.strip):  # without a trajectory the header says what to do, alone
            part.setVisible(record is not None)
        if order_changed:
            self.strip.set_steps([self.steps[i] for i in self.order])
        else:
            for step_id in self.order:
                self.strip.update_step(self.steps[step_id])
        target = focus_step if focus_step in self.steps else self.step_id
        if target not in self.steps:
            target = next((i for i in self.order if self.steps[i].label.verdict is None), None)
            target = target if target is not None else (self.order[0] if self.order else None)
        self._show_step(target, fresh=target != self.step_id)
        self.commands.refresh_history()

    # steps ---------------------------------------------------------------------------------------------------

    def previous_step(self) -> None:
        self._move(-1)

    def next_step(self) -> None:
        self._move(+1)

    def _move(self, offset: int) -> None:
        if self.step_id is None:
            return
        place = self.order.index(self.step_id) + offset
        if 0 <= place < len(self.order):
            self._go_to(self.order[place])

    def show_current_step(self, *, fresh: bool = False) -> None:
        """Show again what changed in the step on screen (a value written from elsewhere in the view); `fresh`
        refills every editor, also those with unsaved text."""
        self._show_step(self.step_id, fresh=fresh)

    def go_to_step(self, step_id: int) -> None:
        self._go_to(step_id)

    def _go_to(self, step_id: int) -> None:
        if step_id == self.step_id or step_id not in self.steps:
            return
        self.saver.flush()  # the previous step's typing is saved before its editors are refilled
        self._show_step(step_id, fresh=True)

    def _show_step(self, step_id: int | None, fresh: bool) -> None:
        """Put a step on screen; `fresh` refills everything, else only what changed in the store."""
        if fresh and self.step_id is not None and self.step_id != step_id:
            self.acceptance.leaving(self.step_id)
        self.step_id = step_id
        step = self.steps.get(step_id) if step_id is not None else None
        self.panel.show_step(step, len(self.order))
        if step is None or step_id is None:
            return
        if fresh:
            blobs = self.workspace.blobs if self.workspace else None
            screenshot = str(blobs.screenshot_path(step.screenshot_sha256)) if blobs else ""
            elements = self.elements.of(step, blobs)
            self.canvas.show_step(screenshot, step.screen.width, step.screen.height, elements)
            self.strip.select_step(step_id)
            self._shown.clear()
        self._show_overlays(step)
        for stage in STAGES:
            value = getattr(step.label, stage)
            if fresh or (self._shown.get(stage) != value and not self.saver.unsaved(step_id, stage)):
                self.editors.show_field(step, stage)
                self._shown[stage] = value
        if fresh:
            self.drafts.showing(step)
            self.acceptance.showing(step)
        self.panel.show_unsaved(self.saver.held(step_id))
        read_only = self.workspace is not None and self.workspace.read_only
        self.editors.set_read_only(read_only or not identity.current_person()[0])

    def _show_overlays(self, step: LabelledStep) -> None:
        labelled = overlays_for(step.label.tool_call, step.label.target_box)
        original = overlays_for(step.original.tool_call, None)
        self.canvas.set_overlays(labelled, original)
        self.canvas.set_suggested_box(step.suggestion(self.canvas.elements()))
        self.canvas.set_privacy_regions(step.label.privacy_regions)

    def _elements_arrived(self, step_id: int, elements: list[UiNode]) -> None:
        if step_id == self.step_id:
            self.canvas.set_elements(elements)
            self._show_overlays(self.steps[step_id])  # a moved point's element is known now

    # commands (rows of the actions table) ----------------------------------------------------------------------

    def show_stage(self, stage: str) -> None:
        self.editors.show_stage(stage)

    # edits ----------------------------------------------------------------------------------------------------

    def _merged(self, saved: LabelledStep) -> LabelledStep:
        """A saved step, with the fields the annotator has changed since kept as they are in the view."""
        step_id = saved.id or 0
        known = self.steps.get(step_id)
        if known is None:
            return saved
        newer = {f: getattr(known.label, f) for f in LABEL_FIELDS if self.saver.unsaved(step_id, f)}
        return with_label(saved, newer) if newer else saved

    def edit(self, changes: dict[str, Any], *, now: bool) -> None:
        """Change the current step in the view at once and save it (now, or when typing pauses)."""
        step_id = self.step_id
        if step_id is None or not self.editable():
            return
        step = with_label(self.steps[step_id], changes)
        self.steps[step_id] = step
        self.editors.show_changed(step, changes)  # what was typed stays; a value given another way is shown
        self._shown.update({k: v for k, v in changes.items() if k in STAGES})
        if now:
            self.saver.change_now(step_id, changes)
        else:
            for field, value in changes.items():
                self.saver.type_text(step_id, field, value)
        self.strip.update_step(step)
        self.panel.show_step(step, len(self.order))
        self._show_overlays(step)

    def apply_saved_step(self, trajectory_id: int, saved: LabelledStep) -> None:
        if self.record is None or trajectory_id != self.record.id or saved.id not in self.steps:
            return
        step = self._merged(saved)
        self.steps[saved.id] = step
        started = review_status_after_edit(self.record.review_status)
        # the first saved edit also moves the trajectory from "unlabelled" to "labelling": a review state
        self.announce(Changes.of([trajectory_id], labels=True, review=started != self.record.review_status))
        self.strip.update_step(step)
        if started != self.record.review_status:  # the header says "labelling" from the first saved edit on
            self.record = replace(self.record, review_status=started)
            self.header.show_record(self.record)
        if saved.id == self.step_id:
            self._show_step(saved.id, fresh=False)
        self.commands.refresh_history()

    def _save_failed(self, step_id: int, message: str, error: BaseException) -> None:
        if isinstance(error, StaleLabelError):
            self.merges.refused(error)  # both versions shown to merge; the edit stays in its editor meanwhile
            return
        if isinstance(error, LabelError) and self.record is not None:
            self.open_trajectory(self.record.id or 0)  # a refused value: show what is stored again
            return
        kept = self.tr("Not saved: %1. Your edit is kept and saved again with your next change.")
        self.status_message.emit(fill(kept, message))

    def _text_edited(self, stage: str, text: str) -> None:
        if stage == "action_text" and self.step_id is not None:
            self.acceptance.text_typed(self.step_id)
        self.edit({stage: text if text.strip() else None}, now=False)

    def _tool_call_edited(self, call: dict[str, Any] | None, immediate: bool) -> None:
        if self.step_id is not None:
            self.acceptance.call_edited(self.step_id)
        self.edit({"tool_call": call}, now=immediate)

    def editable(self) -> bool:
        """Whether edits may be made now; says why not when they may not."""
        if self.record is None:
            self.status_message.emit(self.tr("Open a trajectory first."))
            return False
        if self.workspace is not None and self.workspace.read_only:
            self.status_message.emit(self.tr("The workspace is open read-only: labels cannot be changed here."))
            return False
        name, role = identity.current_person()
        if not name:
            self.status_message.emit(self.who_first())
            return False
        editor = self.saver.editor
        if editor is None or (editor.person, editor.role) != (name, role):
            self._start_saver(self.record.id or 0)  # someone else sits down: their edits go under their name
            self.editors.set_read_only(False)  # a name given since the step was shown unlocks the editors
        return True

    def who_first(self) -> str:
        return self.tr("Say who you are first (File › Who Is Working…): every label is saved under a name.")

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.hub.annotating = None  # decisions act on the review queue's choice while another view shows

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.hub.annotating = self.current_trajectory()
        if not self._sized:  # the canvas gets the larger share, whatever the panel's texts ask for
            self._sized = True
            width = self.width()
            self.splitter.setSizes([width * 4 // 7, width * 3 // 7])

    # language ---------------------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        gestures = self.tr(
            "Click: the point · Drag: the target box · Ctrl+click: an element (box and centre) · Wheel: zoom"
        )
        self.canvas_hint.setText(self.privacy.hint() if self.privacy.active else gestures)
