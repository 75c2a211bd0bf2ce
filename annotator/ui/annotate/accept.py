"""The annotator's everyday path in few keys (issue 16): Space accepts a step and opens the next one that needs
work, R takes the action text offered after a moved point, A / D go to the previous / next step.

Accepting marks the step correct and fills each stage that is still empty: from the model's draft when the step
has one (``drafts``), else from what was collected (as Keep the Original does), taking an offered action text
first. A moved click leaves the
action text naming the old element ("点击“分享”" after the point went to 评论): the text naming the new one is
offered, and the action stage is marked as needing a look until it is taken or typed over.
Tool-call JSON that is not valid is not saved; leaving the step keeps it as typed, to be shown again on return.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from annotator.domain.action_text import moved_point_text
from annotator.domain.review_ready import step_gaps
from annotator.domain.trajectory import STAGES, LabelledStep, Verdict
from annotator.ui import settings as keys
from annotator.ui.i18n import fill

if TYPE_CHECKING:
    from annotator.ui.annotate.view import AnnotationView

TYPED_CALLS = "annotate/typed_calls"  # JSON {data folder: {step id: JSON typed}}: kept across sessions


class StepAcceptance(QObject):
    def __init__(self, view: AnnotationView) -> None:
        super().__init__(view)
        self.view = view
        self.text_offers: dict[int, str] = {}  # step id -> the action text offered for its moved point
        self.typed_calls: dict[int, str] = {}  # step id -> tool-call JSON typed there that is not valid

    # a step comes and goes ----------------------------------------------------------------------------------

    def showing(self, step: LabelledStep) -> None:
        """The step's offer, and its JSON typed earlier that was not valid, back in the editors."""
        editors = self.view.editors
        editors.show_offer(self.text_offers.get(step.id or 0))
        typed = self.typed_calls.get(step.id or 0)
        if typed is not None:
            editors.tool_call.show_typed(typed)

    def leaving(self, step_id: int) -> None:
        """Keep the tool call typed on the step being left when it is not valid, and say so."""
        typed = self.view.editors.tool_call.typed_but_invalid()
        if typed is None:
            self.typed_calls.pop(step_id, None)
            return
        self.typed_calls[step_id] = typed
        step = self.view.steps.get(step_id)
        message = self.tr("Step %1's tool call is not valid, so it is not saved; it is kept as you typed it there.")
        self.view.status_message.emit(fill(message, step.position if step else "?"))

    def keep_typing(self, data_dir: str) -> None:
        """Closing or leaving the workspace: what was typed and not valid is kept for the next session."""
        if self.view.step_id is not None:
            self.leaving(self.view.step_id)
        kept = keys.json_object(TYPED_CALLS)
        kept[data_dir] = {str(step_id): text for step_id, text in self.typed_calls.items()}
        keys.settings().setValue(TYPED_CALLS, json.dumps({k: v for k, v in kept.items() if v}, ensure_ascii=False))

    def recall_typing(self, data_dir: str) -> None:
        self.typed_calls = {
            int(step_id): text for step_id, text in keys.json_object(TYPED_CALLS).get(data_dir, {}).items()
        }

    def call_edited(self, step_id: int) -> None:
        self.typed_calls.pop(step_id, None)  # a valid (or emptied) call replaces what was kept

    # a moved point ------------------------------------------------------------------------------------------

    def point_moved(self, step_id: int, before: dict[str, Any] | None, after: dict[str, Any] | None) -> None:
        view = self.view
        step = view.steps[step_id]
        text = step.label.action_text if step.label.action_text is not None else step.original.action_text
        offered = moved_point_text(view.canvas.elements(), text, before, after)
        if offered is None or offered == text:
            self.text_offers.pop(step_id, None)
        else:
            self.text_offers[step_id] = offered
            view.status_message.emit(fill(self.tr("The action text may be stale: R takes “%1”."), offered))
        if step_id == view.step_id:
            view.editors.show_offer(self.text_offers.get(step_id))

    def text_typed(self, step_id: int) -> None:
        """The annotator wrote the action text themselves: nothing to offer any more."""
        if self.text_offers.pop(step_id, None) is not None and step_id == self.view.step_id:
            self.view.editors.show_offer(None)

    def take_text(self) -> None:
        view, step_id = self.view, self.view.step_id
        if step_id is None or not view.editable():
            return
        offered = self.text_offers.pop(step_id, None)
        if offered is None:
            view.status_message.emit(self.tr("No action text is offered for this step."))
            return
        view.edit({"action_text": offered}, now=True)
        view.editors.show_offer(None)
        view.status_message.emit(fill(self.tr("Step %1: took the action text."), view.steps[step_id].position))

    # accepting ----------------------------------------------------------------------------------------------

    def accept_step(self) -> None:
        """Mark the step correct, keep what was collected in its empty stages and take the suggested target box
        its point lies in, and open the next step to do."""
        view, step_id = self.view, self.view.step_id
        if step_id is None or not view.editable():
            return
        if view.privacy.active:  # marking regions: a tap of space is a slip, not a verdict
            view.status_message.emit(self.tr("The privacy tool is on: P ends it, then Space accepts the step."))
            return
        step = view.steps[step_id]
        draft = step.draft
        if draft is not None and not step.removed:  # the model's draft fills the empty stages, as taken from it
            view.drafts.write(step, draft, skip=("action_text",) if step_id in self.text_offers else ())
            step = view.steps[step_id]
        changes = self.accepted_changes(step) if not step.removed else {}
        suggested = step.suggestion(view.canvas.elements()) if not step.removed else None
        if suggested is not None:  # the point lies in it (B takes it alone; Shift+B says there is none)
            changes["target_box"] = tuple(suggested)
        if changes:
            view.edit(changes, now=True)
            view.editors.show_offer(None)
        missing = [gap for gap in step_gaps(view.steps[step_id]) if gap in STAGES]
        if missing:  # nothing was collected for it (a teleoperated step): the annotator writes it
            view.show_stage(missing[0])
            names = {"think": self.tr("think"), "action_text": self.tr("action"), "tool_call": self.tr("tool call")}
            message = self.tr("Step %1 is marked correct; nothing was collected for its %2: write it here.")
            view.status_message.emit(fill(message, step.position, ", ".join(names[gap] for gap in missing)))
            return
        following = self.next_needing_work(step_id)
        if following is not None:
            view.go_to_step(following)
            view.status_message.emit(fill(self.tr("Step %1 accepted."), step.position))
            return
        message = self.tr("Every step is done: Ctrl+Shift+Return marks the task completed and submits it.")
        view.status_message.emit(message)

    def accepted_changes(self, step: LabelledStep) -> dict[str, Any]:
        offered = self.text_offers.pop(step.id or 0, None)
        changes: dict[str, Any] = {"action_text": offered} if offered is not None else {}
        for stage in STAGES:
            kept = getattr(step.original, stage)
            if stage not in changes and getattr(step.label, stage) is None and kept is not None:
                changes[stage] = kept
        if step.label.verdict != Verdict.CORRECT:
            changes["verdict"] = str(Verdict.CORRECT)
        return changes

    def next_needing_work(self, after: int) -> int | None:
        """The first step after `after` (then from the start) that lacks a stage or a verdict."""
        order = self.view.order
        place = order.index(after)
        for step_id in order[place + 1 :] + order[:place]:
            if step_gaps(self.view.steps[step_id]):
                return step_id
        return None
