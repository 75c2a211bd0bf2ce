"""The canvas's labelling gestures as label edits: a click sets the tool call's point, a drag the target box,
Ctrl+click an element's box and centre; B takes the suggested box (dashed blue), Shift+B says the step has none.
The privacy tool's gestures are ``privacy``'s; both edit through the
view's ``edit``, so every change is saved at once with a revision."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from annotator.device.hierarchy import UiNode
from annotator.ui.i18n import fill

if TYPE_CHECKING:
    from annotator.ui.annotate.view import AnnotationView


class LabelGestures(QObject):
    def __init__(self, view: AnnotationView) -> None:
        super().__init__(view)
        self.view = view
        view.canvas.point_chosen.connect(self._point_chosen)
        view.canvas.box_drawn.connect(self._box_drawn)
        view.canvas.element_chosen.connect(self._element_chosen)

    def _point_chosen(self, x: float, y: float) -> None:
        view = self.view
        if view.step_id is None or not view.editable():
            return
        before = self._call_before(view.step_id)
        call = view.editors.tool_call.set_point(x, y)
        view.editors.setCurrentWidget(view.editors.tool_call)
        if call is not None:
            view.edit({"tool_call": call}, now=True)
            view.acceptance.point_moved(view.step_id, before, call)

    def _call_before(self, step_id: int) -> dict[str, Any] | None:
        """The call whose point is about to move: the labelled one, else the collected one."""
        step = self.view.steps[step_id]
        return step.label.tool_call if step.label.tool_call is not None else step.original.tool_call

    def _box_drawn(self, x1: float, y1: float, x2: float, y2: float) -> None:
        box = (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
        self.view.edit({"target_box": tuple(float(v) for v in box)}, now=True)

    def _element_chosen(self, node: UiNode) -> None:
        view = self.view
        if view.step_id is None or not view.editable():
            return
        x1, y1, x2, y2 = node.bounds
        before = self._call_before(view.step_id)
        call = view.editors.tool_call.set_point((x1 + x2) // 2, (y1 + y2) // 2)
        view.editors.setCurrentWidget(view.editors.tool_call)
        changes: dict[str, Any] = {"target_box": (float(x1), float(y1), float(x2), float(y2))}
        if call is not None:
            changes["tool_call"] = call
        view.edit(changes, now=True)
        if call is not None:
            view.acceptance.point_moved(view.step_id, before, call)

    # the actions table's target "annotate.boxes" ----------------------------------------------------------------

    def accept_suggested_box(self) -> None:
        view = self.view
        if view.step_id is None or not view.editable():
            return
        step = view.steps[view.step_id]
        box = step.suggestion(view.canvas.elements())
        if box is None:
            view.status_message.emit(self.tr("No box to take: draw one, or Ctrl+click an element."))
            return
        view.edit({"target_box": tuple(box)}, now=True)
        view.status_message.emit(fill(self.tr("Step %1: took the suggested target box."), step.position))

    def clear_target_box(self) -> None:
        view = self.view
        if view.step_id is None or not view.editable():
            return
        view.edit({"target_box": ()}, now=True)
        message = self.tr("Step %1 has no target box: none is suggested or exported for it.")
        view.status_message.emit(fill(message, view.steps[view.step_id].position))
