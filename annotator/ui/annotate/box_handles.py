"""Handles on the labelled target box, as labelme has them: a corner dragged resizes the box (the opposite corner
stays), so a box a little off is fixed in one move instead of drawn again."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QTransform

from annotator.domain.geometry import Box

REACH = 9.0  # viewport pixels around a corner that grab it
SIZE = 7.0  # the drawn handle's side, viewport pixels
FILL, RIM = QColor("#ffffff"), QColor("#d93025")


def view_corners(box: Box | tuple[float, float, float, float], to_view: QTransform) -> list[QPointF]:
    """The box's corners in viewport pixels: top-left, top-right, bottom-right, bottom-left."""
    x1, y1, x2, y2 = box
    return [to_view.map(QPointF(x, y)) for x, y in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))]


def grabbed(box: Box | tuple[float, float, float, float] | None, to_view: QTransform, at: QPointF) -> int | None:
    """Which corner (0-3, as `view_corners`) lies within reach of `at`, None when none does."""
    if box is None:
        return None
    for index, corner in enumerate(view_corners(box, to_view)):
        if abs(corner.x() - at.x()) <= REACH and abs(corner.y() - at.y()) <= REACH:
            return index
    return None


def opposite(box: Box | tuple[float, float, float, float], to_view: QTransform, corner: int) -> QPointF:
    """The viewport position of the corner across from `corner`: the anchor a resize keeps."""
    return view_corners(box, to_view)[(corner + 2) % 4]


def cursor_for(corner: int | None) -> Qt.CursorShape:
    if corner is None:
        return Qt.CursorShape.CrossCursor
    return Qt.CursorShape.SizeFDiagCursor if corner in (0, 2) else Qt.CursorShape.SizeBDiagCursor


def paint_handles(painter: QPainter, box: Box | tuple[float, float, float, float], to_view: QTransform) -> None:
    painter.setPen(QPen(RIM, 1.5))
    painter.setBrush(FILL)
    for corner in view_corners(box, to_view):
        painter.drawRect(QRectF(corner.x() - SIZE / 2, corner.y() - SIZE / 2, SIZE, SIZE))
