"""Privacy regions in the annotation view: boxes on a step's screenshot that an export blurs or blacks out.

A tool, like labelme's rectangle mode: while it is on, a drag on the canvas marks a region (Ctrl+click marks an
element's bounds) and a click selects one; Delete removes the selected region, the canvas's context menu removes
or clears. A region is stored in device pixels, widened to whole pixels (a pixel it touches is covered) and kept
on the screen. The step's regions are one label field, ``privacy_regions``: every change goes through the view's
``edit`` like any label, so it is saved at once with a revision and Ctrl+Z takes it back.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Signal
from PySide6.QtWidgets import QMenu

from annotator.ui.actions import ACTIONS, plain, translate
from annotator.ui.annotate.overlays import AnyBox, Box
from annotator.ui.i18n import fill

if TYPE_CHECKING:
    from annotator.domain.trajectory import LabelledStep
    from annotator.ui.annotate.view import AnnotationView

FIELD = "privacy_regions"
MENU_ACTIONS = {spec.id: spec for spec in ACTIONS if spec.id.startswith("annotate.privacy_")}


def whole_pixels(x1: float, y1: float, x2: float, y2: float, width: int, height: int) -> Box | None:
    """A region widened to the whole pixels it touches and cut to the screen; None when nothing is left.

    >>> whole_pixels(10.4, 20.6, 99.2, 40.0, 1080, 2400)
    (10.0, 20.0, 100.0, 40.0)
    >>> whole_pixels(-5, 2390.5, 30, 2600, 1080, 2400)
    (0.0, 2390.0, 30.0, 2400.0)
    """
    left, top = max(0, math.floor(min(x1, x2))), max(0, math.floor(min(y1, y2)))
    right, bottom = min(width, math.ceil(max(x1, x2))), min(height, math.ceil(max(y1, y2)))
    if right <= left or bottom <= top:
        return None
    return (float(left), float(top), float(right), float(bottom))


class PrivacyRegions(QObject):
    """The privacy tool of one annotation view and the commands on the current step's regions (the target
    "annotate.privacy" of the actions table)."""

    tool_changed = Signal(bool)  # the tool went on or off (the checkable action follows it)

    def __init__(self, view: AnnotationView) -> None:
        super().__init__(view)
        self.view = view
        view.canvas.region_drawn.connect(self._drawn)
        view.canvas.region_menu_requested.connect(self._menu)
        self.menu: QMenu | None = None  # the context menu last shown

    # the tool -------------------------------------------------------------------------------------------------

    @property
    def active(self) -> bool:
        return self.view.canvas.privacy_tool()

    def toggle(self) -> None:
        if not self.view.isVisible():  # a key pressed in another view: the action's check mark goes back
            self.tool_changed.emit(self.active)
            return
        self.set_active(not self.active)

    def set_active(self, on: bool) -> None:
        self.view.canvas.set_privacy_tool(on)
        self.view.retranslate()  # the hint under the canvas names the tool's gestures
        self.tool_changed.emit(on)
        if on:
            self.view.status_message.emit(self.tr("Privacy regions: drag over personal data that no export may show."))

    def hint(self) -> str:
        return self.tr(
            "Privacy regions: drag to mark · Ctrl+click: an element · Click: select · Delete: remove · "
            "P: back to labelling"
        )

    # the step's regions ---------------------------------------------------------------------------------------

    def _step(self) -> LabelledStep | None:
        return self.view.steps.get(self.view.step_id) if self.view.step_id is not None else None

    def regions(self) -> tuple[AnyBox, ...]:
        step = self._step()
        return tuple(step.label.privacy_regions) if step is not None else ()

    def _drawn(self, x1: float, y1: float, x2: float, y2: float) -> None:
        step = self._step()
        if step is None or not self.view.editable():
            return
        region = whole_pixels(x1, y1, x2, y2, step.screen.width, step.screen.height)
        if region is None:
            return
        regions = (*self.regions(), region)
        self.view.edit({FIELD: regions}, now=True)
        self.view.canvas.select_region(len(regions) - 1)  # Delete takes a slip back at once
        message = self.tr("Marked privacy region %1 of step %2: exports hide it.")
        self.view.status_message.emit(fill(message, len(regions), step.position))

    def delete_selected(self) -> None:
        if not self.view.isVisible():
            return  # Delete pressed in another view
        index = self.view.canvas.selected_region()
        if index is None:
            message = self.tr("Select a privacy region first: click it with the privacy tool (P), or right-click it.")
            self.view.status_message.emit(message)
            return
        self.delete(index)

    def delete(self, index: int) -> None:
        step, regions = self._step(), self.regions()
        if step is None or not 0 <= index < len(regions) or not self.view.editable():
            return
        self.view.edit({FIELD: regions[:index] + regions[index + 1 :]}, now=True)
        message = self.tr("Deleted privacy region %1 of step %2 (Ctrl+Z brings it back).")
        self.view.status_message.emit(fill(message, index + 1, step.position))

    def clear(self) -> None:
        step, regions = self._step(), self.regions()
        if step is None or not self.view.editable():
            return
        if not regions:
            self.view.status_message.emit(fill(self.tr("Step %1 has no privacy regions."), step.position))
            return
        self.view.edit({FIELD: ()}, now=True)
        message = self.tr("Cleared %n privacy region(s) of step %1 (Ctrl+Z brings them back).", "", len(regions))
        self.view.status_message.emit(fill(message, step.position))

    # the context menu -----------------------------------------------------------------------------------------

    def _menu(self, index: int, where: QPoint) -> None:
        menu = QMenu(self.view)
        menu.setObjectName("privacy-menu")
        tool = menu.addAction(self._title("annotate.privacy_tool"), lambda: self.set_active(not self.active))
        tool.setCheckable(True)
        tool.setChecked(self.active)
        if index >= 0:
            menu.addAction(self._title("annotate.privacy_delete"), lambda: self.delete(index))
        if self.regions():
            menu.addAction(self._title("annotate.privacy_clear"), self.clear)
        self.menu = menu
        menu.popup(where)

    @staticmethod
    def _title(action_id: str) -> str:
        return plain(translate(MENU_ACTIONS[action_id].title))
