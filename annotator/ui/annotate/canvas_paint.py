"""Painting the canvas: the screenshot (decoded, the last few kept), and the shapes (points, rings, arrows, boxes,
captions, the hovered element, privacy regions).

Everything is drawn in viewport pixels (the caller passes the scene-to-viewport transform), so a marker has
the same size at every zoom. Each stroke has a dark halo under its colour and each fill a white rim, so the
shapes read on a white settings page as on a black video frame.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLineF, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QImageReader,
    QPainter,
    QPen,
    QPixmap,
    QPolygonF,
    QTransform,
)

from annotator.device.hierarchy import UiNode
from annotator.ui.annotate.canvas_labels import BADGE_BACK, badge, caption
from annotator.ui.annotate.overlays import POINT_ACTIONS, Overlays
from annotator.ui.i18n import fill

log = logging.getLogger(__name__)

HALO = QColor(0, 0, 0, 170)
RIM = QColor(255, 255, 255)
HOVER = QColor("#00b0ff")  # the element under the pointer: a colour no label shape uses
DRAG = QColor("#ffffff")
PRIVACY = QColor("#c39bff")  # privacy regions: a colour no other shape uses, over a dark hatched veil
PRIVACY_VEIL = QColor(14, 10, 26, 160)
DOT_RADIUS = 8.0
RING_RADIUS = 18.0
ARROW_HEAD = 16.0
PIXEL_ZOOM = 3.0  # from this zoom on, device pixels show as sharp squares, to aim at one


class Screen:
    """A decoded screenshot and, while it is shown smaller than its pixels, a copy scaled for that size."""

    def __init__(self, image: QImage) -> None:
        self.image = image
        self.pixmap = QPixmap.fromImage(image)
        self._reduced: QPixmap | None = None

    def draw(self, painter: QPainter, target: QRectF) -> None:
        """Draw the screenshot over `target` (scene coordinates) under the painter's transform."""
        on_view = painter.worldTransform().mapRect(target)
        ratio = painter.device().devicePixelRatioF()
        size = QSize(round(on_view.width() * ratio), round(on_view.height() * ratio))
        if size.width() < self.image.width() and not size.isEmpty():
            if self._reduced is None or self._reduced.size() != size:
                scaled = self.image.scaled(
                    size, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation
                )
                self._reduced = QPixmap.fromImage(scaled)
                self._reduced.setDevicePixelRatio(ratio)
            painter.save()
            painter.resetTransform()  # 1:1 onto whole viewport pixels: no second resampling
            painter.drawPixmap(QPointF(round(on_view.left()), round(on_view.top())), self._reduced)
            painter.restore()
            return
        zoom = on_view.width() / max(target.width(), 1.0)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, zoom < PIXEL_ZOOM)
        painter.drawPixmap(target, self.pixmap, QRectF(self.pixmap.rect()))


def read_screen(path: Path) -> tuple[QImage | None, str]:
    """The decoded image, or None and the reader's reason."""
    reader = QImageReader(str(path))
    reader.setAutoTransform(False)  # screenshots carry no orientation; the device pixels are the truth
    image = reader.read()
    if image.isNull():
        return None, reader.errorString()
    return image, ""


class DecodedScreens:
    """The last few decoded screenshots, so that stepping back and forth does not decode them again."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._screens: OrderedDict[str, Screen] = OrderedDict()

    def get(self, path: Path) -> tuple[Screen | None, str]:
        """The screen of `path`, or None and why it cannot be read (a failure is not kept: it is read again)."""
        key = str(path)
        cached = self._screens.get(key)
        if cached is not None:
            self._screens.move_to_end(key)
            return cached, ""
        image, problem = read_screen(path)
        if image is None:
            log.warning("cannot read the screenshot %s: %s", path, problem)
            return None, problem
        screen = Screen(image)
        self._screens[key] = screen
        while len(self._screens) > self.size:
            self._screens.popitem(last=False)
        return screen, ""


@dataclass(frozen=True)
class ShapeStyle:
    colour: QColor  # points, rings and arrows
    box: QColor
    width: float
    dashed: bool  # the collected shapes: dashed and unfilled, for comparison under the labelled ones
    box_fill: int  # alpha of the box's fill
    caption_row: int  # captions of the label and of the original sit one above the other


LABELLED = ShapeStyle(QColor("#ff1f5a"), QColor("#00e676"), 2.5, False, 30, 0)
ORIGINAL = ShapeStyle(QColor("#ffc400"), QColor("#ffc400"), 1.5, True, 0, 1)
SUGGESTED = ShapeStyle(QColor("#40c4ff"), QColor("#40c4ff"), 1.5, True, 18, 0)  # a box offered, not yet taken


@dataclass(frozen=True)
class Words:
    """The canvas's translated words the painter needs."""

    hold: str  # a long press without a time
    hold_for: str  # "hold %1 s"
    caption: str  # "%1" for the label, "as collected: %1" for the original


def paint_shapes(
    painter: QPainter,
    shapes: Overlays,
    to_view: QTransform,
    style: ShapeStyle,
    words: Words,
    screen: QRectF,
    avoid: Sequence[QPointF] = (),
) -> None:
    """All shapes of one Overlays; `screen` is the screenshot's rectangle on the viewport; their labels keep clear
    of the points in `avoid` (the other shapes' clicks) and of their own."""
    if shapes.box is not None:
        x1, y1, x2, y2 = shapes.box
        halo_rect(painter, to_view.mapRect(QRectF(x1, y1, x2 - x1, y2 - y1)), style.box, style.dashed, style.box_fill)
    start = to_view.map(QPointF(*shapes.point)) if shapes.point is not None else None
    points = [*avoid, start] if start is not None else list(avoid)
    if start is not None and shapes.end is not None:
        arrow(painter, start, to_view.map(QPointF(*shapes.end)), style)
    if start is not None:
        if shapes.kind == "long_press":
            ring(painter, start, style)
            held = fill(words.hold_for, f"{shapes.seconds:g}") if shapes.seconds is not None else words.hold
            right, left = (
                QPointF(start.x() + RING_RADIUS + 6, start.y()),
                QPointF(start.x() - RING_RADIUS - 6, start.y()),
            )
            badge(painter, fill(words.caption, held), right, style, screen, flip_to=left, avoid=points)
        dot(painter, start, DOT_RADIUS * (0.8 if shapes.kind == "swipe" else 1.0), style)
    if shapes.caption and shapes.kind not in POINT_ACTIONS:
        caption(painter, fill(words.caption, shapes.caption), style, screen, points)


def _pen(colour: QColor, width: float, dashed: bool = False) -> QPen:
    pen = QPen(colour, width, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return pen


def halo_rect(painter: QPainter, rect: QRectF, colour: QColor, dashed: bool, fill_alpha: int = 0) -> None:
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(HALO, 4.0))
    painter.drawRect(rect)
    inner = QColor(colour)
    inner.setAlpha(fill_alpha)
    painter.setBrush(QBrush(inner) if fill_alpha else Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(colour, 2.0, dashed))
    painter.drawRect(rect)


def dot(painter: QPainter, centre: QPointF, radius: float, style: ShapeStyle) -> None:
    """A click point: a filled disc with a white rim (a dashed hollow circle for the original) and its exact spot."""
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(HALO, 4.5))
    painter.drawEllipse(centre, radius, radius)
    if style.dashed:
        painter.setPen(_pen(style.colour, 2.0, dashed=True))
    else:
        painter.setPen(_pen(RIM, 2.0))
        painter.setBrush(style.colour)
    painter.drawEllipse(centre, radius, radius)
    painter.setPen(_pen(RIM, 1.0))  # the pixel itself, so the annotator can aim at it when zoomed in
    painter.setBrush(QColor("#000000"))
    painter.drawEllipse(centre, 2.0, 2.0)


def ring(painter: QPainter, centre: QPointF, style: ShapeStyle) -> None:
    """The long-press marker around its point."""
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for radius in (RING_RADIUS, RING_RADIUS - 5):
        painter.setPen(_pen(HALO, 6.0 if radius == RING_RADIUS else 4.0))
        painter.drawEllipse(centre, radius, radius)
    painter.setPen(_pen(style.colour, 3.0, style.dashed))
    painter.drawEllipse(centre, RING_RADIUS, RING_RADIUS)
    painter.setPen(_pen(RIM, 1.5, style.dashed))
    painter.drawEllipse(centre, RING_RADIUS - 5, RING_RADIUS - 5)


def arrow(painter: QPainter, start: QPointF, end: QPointF, style: ShapeStyle) -> None:
    """A swipe: a line from where the finger lands to where it lifts, with a head at the end."""
    line = QLineF(start, end)
    if line.length() < 1:
        return
    unit = (end - start) / line.length()
    base = end - unit * ARROW_HEAD
    side = QPointF(-unit.y(), unit.x()) * (ARROW_HEAD * 0.55)
    head = QPolygonF([end, base + side, base - side])
    shaft = QLineF(start, base)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(HALO, style.width + 3.5))
    painter.drawLine(shaft)
    painter.setPen(_pen(style.colour, style.width, style.dashed))
    painter.drawLine(shaft)
    painter.setPen(_pen(HALO, 1.5))
    painter.setBrush(QColor(0, 0, 0, 0) if style.dashed else style.colour)
    if style.dashed:
        painter.setPen(_pen(style.colour, 2.0))
    painter.drawPolygon(head)


def describe(node: UiNode, text: str) -> str:
    """What identifies an element to a person: its class, text (or its children's) and resource id."""
    parts = [node.class_name.rsplit(".", 1)[-1], text, node.resource_id.rsplit("/", 1)[-1]]
    return " · ".join(part for part in parts if part)


def paint_element(
    painter: QPainter,
    node: UiNode,
    text: str,
    to_view: QTransform,
    viewport: QRectF,
    avoid: Sequence[QPointF] = (),
) -> None:
    """The hovered element: a thin outline and its description above it (below it at the top edge), clear of the
    click points in `avoid`."""
    x1, y1, x2, y2 = node.bounds
    rect = QRectF(to_view.mapRect(QRectF(x1, y1, x2 - x1, y2 - y1)).toRect())  # on whole pixels: a crisp line
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(HALO, 4.0))
    painter.drawRect(rect)
    painter.setPen(_pen(HOVER, 2.0))
    painter.drawRect(rect)
    text = describe(node, text)
    if not text:
        return
    style = ShapeStyle(HOVER, HOVER, 1.0, False, 0, 0)
    height = QFontMetricsF(painter.font()).height() + 6
    above = rect.top() - height / 2 - 4
    y = (
        above
        if above - height / 2 > viewport.top()
        else min(rect.bottom() + height / 2 + 4, viewport.bottom() - height)
    )
    badge(painter, text, QPointF(rect.left(), y), style, viewport, avoid=avoid)


def message(painter: QPainter, rect: QRectF, text: str) -> None:
    """A sentence in the middle of `rect` (no step, an unreadable screenshot)."""
    painter.setPen(QColor("#e8eaed"))
    flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
    painter.drawText(rect.adjusted(16, 16, -16, -16), int(flags), text)


LEGEND_MIN_SCREEN = 420  # viewport pixels: a screenshot shown smaller keeps its navigation bar in view


def legend(painter: QPainter, viewport: QRectF, screen: QRectF, label: str, collected: str) -> None:
    """Which lines are the label and which the collected original: beside the screen when there is room,
    else in the viewport's bottom-left corner (over the navigation bar rather than the app's content)."""
    metrics = QFontMetricsF(painter.font())
    line_height = metrics.height() + 4
    width = 34 + max(metrics.horizontalAdvance(label), metrics.horizontalAdvance(collected)) + 10
    height = 2 * line_height + 8
    beside = screen.left() - viewport.left() >= width + 16
    if not beside and screen.height() < LEGEND_MIN_SCREEN:
        return  # it would hide much of a small screenshot; the collected shapes carry "as collected" themselves
    top = viewport.top() + 8 if beside else viewport.bottom() - height - 8
    box = QRectF(viewport.left() + 8, top, width, height)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(BADGE_BACK)
    painter.drawRoundedRect(box, 4, 4)
    for row, (text, style) in enumerate(((label, LABELLED), (collected, ORIGINAL))):
        y = box.top() + 4 + line_height * (row + 0.5)
        painter.setPen(_pen(style.colour, 2.5, style.dashed))
        painter.drawLine(QPointF(box.left() + 8, y), QPointF(box.left() + 28, y))
        painter.setPen(QColor("#ffffff"))
        text_box = QRectF(box.left() + 34, y - line_height / 2, width - 34, line_height)
        painter.drawText(text_box, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), text)


def privacy_region(painter: QPainter, rect: QRectF, text: str, selected: bool, viewport: QRectF) -> None:
    """A privacy region (viewport pixels): veiled dark and hatched, since an export hides what is under it, with a
    lock badge; the selected one has a thicker outline with a white dashed line inside it."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(PRIVACY_VEIL)
    painter.drawRect(rect)
    hatch = QColor(PRIVACY)
    hatch.setAlpha(120)
    painter.setBrush(QBrush(hatch, Qt.BrushStyle.BDiagPattern))
    painter.drawRect(rect)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(HALO, 6.0 if selected else 4.0))
    painter.drawRect(rect)
    painter.setPen(_pen(PRIVACY, 4.0 if selected else 2.0))
    painter.drawRect(rect)
    if selected:
        painter.setPen(_pen(RIM, 1.5, dashed=True))
        painter.drawRect(rect.adjusted(4, 4, -4, -4))
    _lock_badge(painter, rect, text, viewport)


def _lock_badge(painter: QPainter, region: QRectF, text: str, viewport: QRectF) -> None:
    """A padlock and `text` at the region's top-left corner: inside it when it fits there, else just above it."""
    font = QFont(painter.font())
    font.setPointSizeF(max(font.pointSizeF(), 9.0))
    font.setBold(True)
    painter.setFont(font)
    metrics = QFontMetricsF(font)
    size = QRectF(0, 0, 26 + metrics.horizontalAdvance(text), metrics.height() + 6)
    inside = region.width() >= size.width() + 8 and region.height() >= size.height() + 8
    left = region.left() + 4 if inside else region.left()
    top = region.top() + 4 if inside else region.top() - size.height() - 3
    left = min(max(left, viewport.left() + 2), max(viewport.right() - size.width() - 2, viewport.left() + 2))
    box = size.translated(left, max(top, viewport.top() + 2))
    painter.setPen(_pen(PRIVACY, 1.5))
    painter.setBrush(BADGE_BACK)
    painter.drawRoundedRect(box, 4, 4)
    middle = box.center().y()
    painter.setPen(_pen(RIM, 1.6))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawArc(QRectF(box.left() + 8.5, middle - 6.5, 6, 8), 0, 180 * 16)  # the shackle
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(RIM)
    painter.drawRoundedRect(QRectF(box.left() + 7, middle - 2, 9, 7), 1.5, 1.5)  # the body
    painter.setPen(QColor("#ffffff"))
    text_box = box.adjusted(21, 0, -4, 0)
    painter.drawText(text_box, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), text)


def suggested_box(painter: QPainter, rect: QRectF, text: str, within: QRectF, avoid: Sequence[QPointF] = ()) -> None:
    """A target box suggested from the screen's elements: dashed and faint, with what to press above it (clear of
    the click points in `avoid`)."""
    halo_rect(painter, rect, SUGGESTED.box, dashed=True, fill_alpha=SUGGESTED.box_fill)
    anchor = QPointF(rect.left(), max(rect.top() - 12, within.top() + 12))
    badge(painter, text, anchor, SUGGESTED, within, avoid=avoid)
