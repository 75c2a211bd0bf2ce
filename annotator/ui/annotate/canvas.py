"""The screenshot canvas: zoom and pan a step's screen, point at it, draw a box, pick an element, mark privacy regions.

As in labelme the canvas decides nothing: it turns the mouse into signals in device pixels (the
coordinates every label is stored in) and paints the shapes it is given (``overlays.Overlays``). Painting,
and decoding screenshots into a small cache, live in ``canvas_paint``; hit-testing in
``annotator.device.hierarchy.element_at`` and ``overlays.region_at``.
With the privacy tool on, a drag marks a privacy region instead of the target box, Ctrl+click marks an
element's bounds, and a click selects the region under it (a right click does in either tool).

The scene is the screen in device pixels; there are no scene items, the screenshot is painted in
``drawBackground`` and the shapes in ``drawForeground``, in viewport pixels so that lines and markers keep
their size at every zoom. When the screen is shown smaller than its pixels, it is drawn from a copy scaled
with area averaging (text stays readable, unlike bilinear sampling of a 2400-pixel-high screenshot).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QCursor,
    QFocusEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QWheelEvent,
)
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView, QWidget

from annotator.device.hierarchy import UiNode, element_at
from annotator.domain.action_text import element_name
from annotator.ui.annotate import box_handles as handles
from annotator.ui.annotate import canvas_paint as paint
from annotator.ui.annotate.canvas_labels import click_points
from annotator.ui.annotate.canvas_zoom import ZOOM_STEP, ZoomingView
from annotator.ui.annotate.overlays import AnyBox, Box, Overlays, region_at
from annotator.ui.i18n import Retranslating, fill

MIN_BOX = 8.0  # device pixels: a smaller drag is a slip, not a target box
CACHED_SCREENS = 8  # decoded screenshots kept: stepping back and forth does not decode again
BACKGROUND = QColor("#3c3f41")  # neutral grey: neither a light nor a dark screenshot melts into it


class StepCanvas(Retranslating, ZoomingView):
    point_chosen = Signal(float, float)  # a click (no modifier), in device pixels
    box_drawn = Signal(float, float, float, float)  # a drag: x1, y1, x2, y2 device pixels, x1 < x2, y1 < y2
    element_chosen = Signal(object)  # Ctrl+click: the UiNode under the pointer
    element_hovered = Signal(object)  # UiNode or None as the pointer moves
    region_drawn = Signal(float, float, float, float)  # privacy tool: a drag (normalised, on the screen) or an element
    region_menu_requested = Signal(int, QPoint)  # right click: the privacy region under it (-1: none), global position
    space_tapped = Signal()  # space pressed and let go without panning: the view's "accept the step"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("step-canvas")
        self.setScene(QGraphicsScene(self))
        self.setBackgroundBrush(BACKGROUND)
        self.setFrameShape(QGraphicsView.Shape.NoFrame)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)  # zoom anchors itself (_set_zoom)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)  # shapes sit in view pixels
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # verdict keys 1/2/3 work while the canvas has focus
        self.viewport().setMouseTracking(True)
        self.viewport().setCursor(Qt.CursorShape.CrossCursor)
        self._screen: paint.Screen | None = None
        self._problem = ""  # why the screenshot cannot be shown
        self._cache = paint.DecodedScreens(CACHED_SCREENS)
        self._elements: list[UiNode] = []
        self._labelled = Overlays()
        self._original: Overlays | None = None
        self._hovered: UiNode | None = None
        self._press: QPointF | None = None  # viewport position of a left press not yet released
        self._dragged: QRectF | None = None  # the box being drawn, device pixels
        self._pan_from: QPointF | None = None
        self._space = False  # space held: a left drag pans
        self._space_panned = False  # space held has panned: letting it go is no tap
        self._regions: tuple[Box, ...] = ()  # the step's privacy regions, device pixels
        self._suggested: tuple[float, ...] | None = None  # a target box offered from the elements, device pixels
        self._selected: int | None = None  # the selected privacy region
        self._privacy = False  # the privacy tool is on

    # showing a step --------------------------------------------------------------------------------------------

    def show_step(self, image_path: Path | str, width: int, height: int, elements: Sequence[UiNode] = ()) -> None:
        """A new screenshot (with its device size and hierarchy); the zoom mode (fit or a factor) is kept."""
        self._screen, self._problem = self._cache.get(Path(image_path))
        if width <= 0 or height <= 0:  # unknown size: the image's own pixels
            image = self._screen.image if self._screen else None
            width, height = (image.width(), image.height()) if image else (1080, 2400)  # room for the message
        self._size = QSize(width, height)
        self._labelled, self._original = Overlays(), None  # the previous step's shapes never show on this one
        self._regions, self._selected = (), None
        self._press = self._dragged = None
        self.setSceneRect(QRectF(0, 0, width, height))
        if self._fit:
            self._apply_fit()
        self.set_elements(elements)

    def set_elements(self, elements: Sequence[UiNode]) -> None:
        """The screen's hierarchy (it may arrive after the image: it is read in a worker)."""
        self._elements = list(elements)
        self._set_hovered(None)
        if self.viewport().underMouse():
            self._hover_at(self.viewport().mapFromGlobal(QCursor.pos()).toPointF())
        self.viewport().update()

    def set_overlays(self, labelled: Overlays, original: Overlays | None = None) -> None:
        """The labelled shapes (strong) and the collected ones (faint, dashed) to compare them with."""
        self._labelled, self._original = labelled, original
        self.viewport().update()

    def labelled(self) -> Overlays:
        """The label's shapes as drawn."""
        return self._labelled

    def suggested_box(self) -> tuple[float, ...] | None:
        return self._suggested

    def set_suggested_box(self, box: Sequence[float] | AnyBox | None) -> None:
        """The target box offered for the step (from its elements), or None."""
        self._suggested = tuple(float(v) for v in box) if box is not None else None
        self.viewport().update()

    def set_privacy_regions(self, regions: Sequence[AnyBox]) -> None:
        """The step's privacy regions; the selection stays while they stay the same."""
        shown = tuple((float(x1), float(y1), float(x2), float(y2)) for x1, y1, x2, y2 in regions)
        if shown != self._regions:
            self._regions, self._selected = shown, None
        self.viewport().update()

    def privacy_regions(self) -> tuple[Box, ...]:
        return self._regions

    def selected_region(self) -> int | None:
        return self._selected

    def select_region(self, index: int | None) -> None:
        self._selected = index if index is not None and 0 <= index < len(self._regions) else None
        self.viewport().update()

    def set_privacy_tool(self, on: bool) -> None:
        """Drags mark privacy regions (on) or the target box (off); a drag under way is dropped."""
        self._privacy = on
        self._press = self._dragged = None
        self.viewport().update()

    def privacy_tool(self) -> bool:
        return self._privacy

    def elements(self) -> list[UiNode]:
        return list(self._elements)

    def hovered(self) -> UiNode | None:
        return self._hovered

    def element_text(self, node: UiNode) -> str:
        """What a person calls the element: its text or description, else the first text inside it (a list row's
        title, as on Android, is a TextView inside the clickable row)."""
        return element_name(self._elements, node)

    def problem(self) -> str:
        """Why the screenshot is not shown ("" when it is)."""
        return self._problem

    # coordinates -----------------------------------------------------------------------------------------------

    def _on_screen(self, point: QPointF) -> bool:
        return 0 <= point.x() < self._size.width() and 0 <= point.y() < self._size.height()

    # mouse and keys --------------------------------------------------------------------------------------------

    def wheelEvent(self, event: QWheelEvent) -> None:
        notches = event.angleDelta().y() / 120
        if notches:
            self._set_zoom(self.zoom() * ZOOM_STEP**notches, event.position())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        button = event.button()
        if button == Qt.MouseButton.MiddleButton or (button == Qt.MouseButton.LeftButton and self._space):
            self._pan_from = event.position()
            self._space_panned = self._space
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
        elif button == Qt.MouseButton.LeftButton and self._screen is not None:  # no aiming at an unseen screen
            self._press, self._dragged = event.position(), None
            corner = (
                None if self._privacy else handles.grabbed(self._labelled.box, self.viewportTransform(), self._press)
            )
            if corner is not None and self._labelled.box is not None:  # a resize: the drag starts across from it
                self._press = handles.opposite(self._labelled.box, self.viewportTransform(), corner)
                self._dragged = QRectF(QPointF(*self._labelled.box[:2]), QPointF(*self._labelled.box[2:]))
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        position = event.position()
        if self._pan_from is not None:
            delta = position - self._pan_from
            self._pan_from = position
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(delta.y()))
        elif self._press is not None and (
            self._dragged is not None or (position - self._press).manhattanLength() >= QApplication.startDragDistance()
        ):
            corners = QRectF(self.to_device(self._press), self.to_device(position)).normalized()
            self._dragged = corners.intersected(QRectF(0, 0, self._size.width(), self._size.height()))
            self.viewport().update()
        elif self._press is None and not self._space and not self._privacy:
            self.viewport().setCursor(
                handles.cursor_for(handles.grabbed(self._labelled.box, self.viewportTransform(), position))
            )
        self._hover_at(position)
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None and event.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.LeftButton):
            self._pan_from = None
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor if self._space else Qt.CursorShape.CrossCursor)
        elif event.button() == Qt.MouseButton.LeftButton and self._press is not None:
            press, box = self._press, self._dragged
            self._press = self._dragged = None
            if box is not None:
                self.viewport().update()
                if box.width() >= MIN_BOX and box.height() >= MIN_BOX:
                    drawn = self.region_drawn if self._privacy else self.box_drawn
                    drawn.emit(box.left(), box.top(), box.right(), box.bottom())
            else:
                self._clicked(self.to_device(press), event.modifiers())
        event.accept()

    def _clicked(self, point: QPointF, modifiers: Qt.KeyboardModifier) -> None:
        on_screen = self._on_screen(point)
        control = bool(modifiers & Qt.KeyboardModifier.ControlModifier)
        if self._privacy and not control:  # a click selects the region under it, elsewhere none
            self.select_region(region_at(self._regions, point.x(), point.y()) if on_screen else None)
            return
        if not on_screen:
            return  # the grey around the screenshot is no place on the phone
        if control:
            node = element_at(self._elements, point.x(), point.y())
            if node is not None and self._privacy:
                self.region_drawn.emit(*(float(v) for v in node.bounds))
            elif node is not None:
                self.element_chosen.emit(node)
            return
        self.point_chosen.emit(point.x(), point.y())

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        point = self.to_device(QPointF(event.pos()))
        index = region_at(self._regions, point.x(), point.y()) if self._on_screen(point) else None
        if index is not None:
            self.select_region(index)
        self.region_menu_requested.emit(-1 if index is None else index, event.globalPos())
        event.accept()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        # A double-click on the screenshot would also be a click that moves the label's point, so fitting is
        # a double-click on the grey around it, or a middle-button double-click anywhere (or Ctrl+0).
        point = self.to_device(event.position())
        if event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and not self._on_screen(point)
        ):
            self.zoom_fit()
        elif event.button() == Qt.MouseButton.LeftButton and self._screen is not None:
            self._press, self._dragged = event.position(), None  # the second click is a click like the first
        event.accept()

    def leaveEvent(self, event: QEvent) -> None:
        self._set_hovered(None)
        super().leaveEvent(event)

    def event(self, event: QEvent) -> bool:
        space = isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Space and not event.modifiers()
        if event.type() == QEvent.Type.ShortcutOverride and space:
            event.accept()  # space is ours while the canvas has focus: hold it and drag to pan
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.modifiers():
            if not event.isAutoRepeat():
                self._space, self._space_panned = True, False
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)  # arrows scroll; digits and the rest go on to the window's shortcuts

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            tapped = self._space and not self._space_panned
            self._space = False
            if self._pan_from is None:
                self.viewport().setCursor(Qt.CursorShape.CrossCursor)
            event.accept()
            if tapped:
                self.space_tapped.emit()
            return
        super().keyReleaseEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self._space = False  # the release of a space held while focus left never reaches us
        super().focusOutEvent(event)

    # hovering --------------------------------------------------------------------------------------------------

    def _hover_at(self, position: QPointF) -> None:
        point = self.to_device(position)
        inside = self._on_screen(point) and self._pan_from is None
        self._set_hovered(element_at(self._elements, point.x(), point.y()) if inside else None)

    def _set_hovered(self, node: UiNode | None) -> None:
        if node is self._hovered:
            return
        self._hovered = node
        self.element_hovered.emit(node)
        self.viewport().update()

    # painting --------------------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        self.viewport().update()  # the canvas's words are translated as it paints

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        painter.fillRect(rect, BACKGROUND)
        screen_rect = QRectF(0, 0, self._size.width(), self._size.height())
        if self._screen is not None:
            self._screen.draw(painter, screen_rect)
        elif not self._size.isEmpty():
            painter.fillRect(screen_rect, QColor("#202124"))

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        to_view = painter.worldTransform()
        painter.save()
        painter.resetTransform()  # shapes are drawn in viewport pixels: the same size at every zoom
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        viewport = QRectF(self.viewport().rect())
        screen = to_view.mapRect(QRectF(0, 0, self._size.width(), self._size.height()))
        if self._size.isEmpty():
            paint.message(painter, viewport, self.tr("No step to show"))
        elif self._screen is None:
            paint.message(painter, screen, fill(self.tr("The screenshot cannot be read: %1"), self._problem))
        hold, hold_for = self.tr("hold"), self.tr("hold %1 s")
        points = click_points(to_view, self._labelled, self._original)  # no label covers them
        if self._original is not None and not self._original.empty and self._original != self._labelled:
            words = paint.Words(hold, hold_for, self.tr("as collected: %1"))
            paint.paint_shapes(painter, self._original, to_view, paint.ORIGINAL, words, screen, points)
            paint.legend(painter, viewport, screen, self.tr("label"), self.tr("as collected"))
        for number, (x1, y1, x2, y2) in enumerate(self._regions, start=1):
            region = to_view.mapRect(QRectF(x1, y1, x2 - x1, y2 - y1))
            private = fill(self.tr("private %1"), number)
            paint.privacy_region(painter, region, private, number - 1 == self._selected, viewport)
        if self._suggested is not None:
            x1, y1, x2, y2 = self._suggested
            hint = self.tr("suggested box: B takes it, Shift+B: no box")
            paint.suggested_box(painter, to_view.mapRect(QRectF(x1, y1, x2 - x1, y2 - y1)), hint, viewport, points)
        labelled = paint.Words(hold, hold_for, "%1")
        paint.paint_shapes(painter, self._labelled, to_view, paint.LABELLED, labelled, screen, points)
        if self._labelled.box is not None and not self._privacy and self._dragged is None:
            handles.paint_handles(painter, self._labelled.box, to_view)
        if self._hovered is not None:
            described = self.element_text(self._hovered)
            paint.paint_element(painter, self._hovered, described, to_view, viewport, points)
        if self._dragged is not None:
            colour = paint.PRIVACY if self._privacy else paint.DRAG
            paint.halo_rect(painter, to_view.mapRect(self._dragged), colour, dashed=True)
        painter.restore()
