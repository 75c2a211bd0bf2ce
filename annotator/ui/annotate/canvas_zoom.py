"""The canvas's zoom: a factor (view pixels per device pixel) or "fit", which follows the view's size; zooming
keeps the device pixel under the pointer (or the view's centre) in place, as labelme and image viewers do."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QSize, Signal
from PySide6.QtGui import QResizeEvent, QTransform
from PySide6.QtWidgets import QGraphicsView, QWidget

ZOOM_STEP = 1.25  # one wheel notch or one zoom command
MIN_ZOOM, MAX_ZOOM = 0.05, 16.0
FIT_MARGIN = 6  # viewport pixels around a fitted screen (and no scroll bars flickering on and off)


class ZoomingView(QGraphicsView):
    zoom_changed = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._size = QSize(0, 0)  # what is shown, in device pixels
        self._fit = True

    def zoom(self) -> float:
        """View pixels per device pixel."""
        return self.transform().m11()

    def zoom_in(self) -> None:
        self._set_zoom(self.zoom() * ZOOM_STEP, None)

    def zoom_out(self) -> None:
        self._set_zoom(self.zoom() / ZOOM_STEP, None)

    def zoom_fit(self) -> None:
        self._fit = True
        self._apply_fit()

    def is_fit(self) -> bool:
        return self._fit

    def to_device(self, position: QPointF) -> QPointF:
        """A viewport position in device pixels (sub-pixel: the transform is inverted, not rounded)."""
        inverse, _ok = self.viewportTransform().inverted()
        return inverse.map(position)

    def _apply_fit(self) -> None:
        if self._size.isEmpty():
            return
        room = self.viewport().size()
        factor = min(
            (room.width() - 2 * FIT_MARGIN) / self._size.width(), (room.height() - 2 * FIT_MARGIN) / self._size.height()
        )
        self._scale_to(max(factor, MIN_ZOOM))
        self.centerOn(self._size.width() / 2, self._size.height() / 2)

    def _set_zoom(self, factor: float, anchor: QPointF | None) -> None:
        """Zoom keeping the device pixel under `anchor` (viewport pixels; the centre when None) in place."""
        self._fit = False
        anchor = anchor if anchor is not None else QPointF(self.viewport().rect().center())
        fixed = self.to_device(anchor)
        self._scale_to(min(max(factor, MIN_ZOOM), MAX_ZOOM))
        moved = self.viewportTransform().map(fixed) - anchor
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + round(moved.x()))
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + round(moved.y()))

    def _scale_to(self, factor: float) -> None:
        changed = abs(factor - self.zoom()) > 1e-9
        self.setTransform(QTransform.fromScale(factor, factor))
        if changed:
            self.zoom_changed.emit(factor)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._fit:
            self._apply_fit()
