"""The canvas's words on the screenshot (captions, element names, the suggested box's hint): translucent labels
that keep clear of the click points, and beside the screen rather than on it where there is room.

A label drawn over the screen hid what the annotator checks (the point, the element under it, the status bar
of a "type" step); the screen now shows through every label, and a label that would cover a click point moves
the least it must to clear it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QTransform

if TYPE_CHECKING:
    from annotator.ui.annotate.canvas_paint import ShapeStyle
    from annotator.ui.annotate.overlays import Overlays

BADGE_BACK = QColor(24, 24, 24, 150)  # translucent: the screen shows through a label
SHADOW = QColor(0, 0, 0, 170)
CLEAR = 22.0  # how far a label keeps from a click point: the long-press ring (radius 18) stays in sight
BESIDE_MIN = 120.0  # the room beside the screen a caption needs to go there rather than over the screen


def click_points(to_view: QTransform, *shapes: Overlays | None) -> list[QPointF]:
    """Where the shapes touch the screen, on the viewport: the places no label may cover."""
    return [to_view.map(QPointF(*s.point)) for s in shapes if s is not None and s.point is not None]


def caption(painter: QPainter, text: str, style: ShapeStyle, screen: QRectF, avoid: Sequence[QPointF]) -> None:
    """What a step without a place does (type "蓝牙", Back): beside the screen, right of it, when there is room
    (the legend has the left), else along the top of the part of the screen on view."""
    viewport = QRectF(painter.viewport())
    top = max(screen.top(), viewport.top()) + 14 + 32 * style.caption_row
    beside = QRectF(screen.right() + 8, viewport.top(), viewport.right() - screen.right() - 12, viewport.height())
    wanted = QFontMetricsF(_font(painter, style, centred=False)).horizontalAdvance(text) + 28
    if beside.width() >= min(wanted, BESIDE_MIN):
        badge(painter, text, QPointF(beside.left(), top + 12), style, beside, avoid=avoid)
        return
    middle = screen.intersected(viewport).center().x()
    badge(painter, text, QPointF(middle, top), style, viewport, centred=True, avoid=avoid)


def badge(
    painter: QPainter,
    text: str,
    anchor: QPointF,
    style: ShapeStyle,
    within: QRectF,
    centred: bool = False,
    flip_to: QPointF | None = None,
    avoid: Sequence[QPointF] = (),
) -> QRectF:
    """Text on a translucent dark label: starting at `anchor` (or centred on it), kept inside `within`; when it
    does not fit right of `anchor`, it ends at `flip_to` instead (beside a marker rather than over it). A label
    that would cover a point of `avoid` (a click point) moves the least it must to clear it. Returns its box."""
    font = _font(painter, style, centred)
    metrics = QFontMetricsF(font)
    room = max(within.width() - 16, 40.0)
    shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room - 12)
    size = QRectF(0, 0, metrics.horizontalAdvance(shown) + 12, metrics.height() + 6)
    left = anchor.x() - size.width() / 2 if centred else anchor.x()
    if flip_to is not None and left + size.width() > within.right() - 4:
        left = flip_to.x() - size.width()
    left = min(max(left, within.left() + 4), max(within.right() - size.width() - 4, within.left() + 4))
    box = _dodge(size.translated(left, anchor.y() - (0 if centred else size.height() / 2)), avoid, within)
    painter.save()  # the next label starts from the canvas's font, not from this one's
    painter.setFont(font)
    painter.setPen(_outline(style))
    painter.setBrush(BADGE_BACK)
    painter.drawRoundedRect(box, 4, 4)
    painter.setPen(SHADOW)  # a shadow under the letters: they read over a light screen through the label
    painter.drawText(box.translated(1, 1), Qt.AlignmentFlag.AlignCenter, shown)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, shown)
    painter.restore()
    return box


def _dodge(box: QRectF, avoid: Sequence[QPointF], within: QRectF) -> QRectF:
    """`box`, or the nearest of its moves above, below, left or right of each point it covers that covers none
    and stays inside `within` (`box` itself when there is none)."""

    def covers(rect: QRectF) -> bool:
        return any(rect.adjusted(-CLEAR, -CLEAR, CLEAR, CLEAR).contains(point) for point in avoid)

    if not covers(box):
        return box
    moves = []
    for point in avoid:
        moves += [
            box.translated(0, point.y() - CLEAR - box.bottom() - 1),  # above it
            box.translated(0, point.y() + CLEAR - box.top() + 1),  # below it
            box.translated(point.x() - CLEAR - box.right() - 1, 0),  # left of it
            box.translated(point.x() + CLEAR - box.left() + 1, 0),  # right of it
        ]
    clear = [move for move in moves if within.contains(move) and not covers(move)]
    if not clear:
        return box
    return min(clear, key=lambda move: QLineF(move.center(), box.center()).length())


def _font(painter: QPainter, style: ShapeStyle, centred: bool) -> QFont:
    """A label's font: bold for the label, plain for the original, a point larger for a centred caption."""
    font = QFont(painter.font())
    font.setPointSizeF(max(font.pointSizeF(), 9.0) + (1.0 if centred else 0.0))
    font.setBold(not style.dashed)
    return font


def _outline(style: ShapeStyle) -> QPen:
    pen = QPen(style.colour, 1.5, Qt.PenStyle.DashLine if style.dashed else Qt.PenStyle.SolidLine)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return pen
