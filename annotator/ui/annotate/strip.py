"""The step strip: one thumbnail per step, in labelled order, with its verdict and labelling progress.

Thumbnails are decoded off the GUI thread (``thumbnails.ThumbnailLoader``) and only when a tile is first painted, so
opening a 25-step trajectory never decodes 25 full screenshots on the GUI thread; they are cached by path
(an inserted step shares its screenshot with the step it corrects). Tiles are painted by ``StepDelegate``;
verdict marks are drawn shapes, not glyphs, so they look the same whatever fonts a machine has.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QRectF,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPalette, QPen, QPixmap, QWheelEvent
from PySide6.QtWidgets import QAbstractItemView, QListView, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from annotator.domain.trajectory import LabelledStep
from annotator.ui.annotate.thumbnails import ThumbnailLoader
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill

CONTEXT = "StepStrip"
STEP_ROLE = Qt.ItemDataRole.UserRole  # the LabelledStep
STEP_ID_ROLE = Qt.ItemDataRole.UserRole + 1
VERDICT_ROLE = Qt.ItemDataRole.UserRole + 2  # "correct" | "wrong" | "redundant" | None
VERDICT_WORDS = {
    "correct": QT_TRANSLATE_NOOP("StepStrip", "correct"),
    "wrong": QT_TRANSLATE_NOOP("StepStrip", "wrong"),
    "redundant": QT_TRANSLATE_NOOP("StepStrip", "redundant"),
}
Parent = QModelIndex | QPersistentModelIndex


class StepListModel(QAbstractListModel):
    def __init__(self, loader: ThumbnailLoader, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.loader = loader
        self.steps: list[LabelledStep] = []
        self.locate: Callable[[str], Path] | None = None  # a screenshot's file, by its sha256
        loader.ready.connect(self._thumbnail_ready)

    def rowCount(self, parent: Parent = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.steps)

    def data(self, index: Parent, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.steps):
            return None
        step = self.steps[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return str(step.position)
        if role == Qt.ItemDataRole.DecorationRole:
            return self.loader.thumbnail(self.locate(step.screenshot_sha256)) if self.locate else None
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            return describe_step(step)
        return {STEP_ROLE: step, STEP_ID_ROLE: step.id, VERDICT_ROLE: step.label.verdict}.get(role)

    def set_steps(self, steps: Sequence[LabelledStep]) -> None:
        self.beginResetModel()
        self.steps = list(steps)
        self.endResetModel()

    def row_of(self, step_id: int | None) -> int | None:
        return next((row for row, step in enumerate(self.steps) if step.id == step_id), None)

    def update_step(self, step: LabelledStep) -> None:
        row = self.row_of(step.id)
        if row is not None:
            self.steps[row] = step
            self.dataChanged.emit(self.index(row), self.index(row))

    def _thumbnail_ready(self, path: str) -> None:
        for row, step in enumerate(self.steps):
            if self.locate and str(self.locate(step.screenshot_sha256)) == path:
                self.dataChanged.emit(self.index(row), self.index(row), [Qt.ItemDataRole.DecorationRole])


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def describe_step(step: LabelledStep) -> str:
    """The tile's tooltip: what its marks mean, in words."""
    verdict = step.label.verdict
    judged = _tr(VERDICT_WORDS[verdict]) if verdict in VERDICT_WORDS else None
    labelled = QCoreApplication.translate("StepStrip", "%1: labelled")
    unlabelled = QCoreApplication.translate("StepStrip", "%1: not labelled yet")
    stages = (
        QCoreApplication.translate("StepStrip", "Think"),
        QCoreApplication.translate("StepStrip", "Action"),
        QCoreApplication.translate("StepStrip", "Tool call"),
    )
    lines = [
        fill(QCoreApplication.translate("StepStrip", "Step %1"), step.position),
        fill(QCoreApplication.translate("StepStrip", "Verdict: %1"), judged)
        if judged
        else QCoreApplication.translate("StepStrip", "Not judged yet"),
        *(fill(labelled if done else unlabelled, name) for name, done in zip(stages, step.stages, strict=True)),
    ]
    if step.origin == "inserted":
        lines.append(QCoreApplication.translate("StepStrip", "Inserted: corrects the step before it"))
    if step.removed:
        lines.append(QCoreApplication.translate("StepStrip", "Removed: left out of the labelled trajectory"))
    return "\n".join(lines)


@dataclass(frozen=True)
class TileGeometry:
    thumbnail_height: int = 120
    width: int = 74

    def size(self) -> QSize:
        return QSize(self.width, self.thumbnail_height + 24)  # the thumbnail, then the row of stage dots


TILE = TileGeometry()
COMPACT_TILE = TileGeometry(thumbnail_height=52, width=40)  # a short window: the screenshot gets the room
VERDICT_COLOURS = {"correct": QColor("#2e7d32"), "wrong": QColor("#c62828"), "redundant": QColor("#757575")}
STAGE_DONE = QColor("#1a73e8")
INSERTED_COLOUR = QColor("#1565c0")
REMOVED_COLOUR = QColor("#b3261e")


class StepDelegate(QStyledItemDelegate):
    """Paints a tile: thumbnail, position number, verdict mark, inserted/removed band, three stage dots."""

    tile = TILE  # the strip's tile size (COMPACT_TILE in a short window)

    def sizeHint(self, option: QStyleOptionViewItem, index: Parent) -> QSize:
        return self.tile.size()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Parent) -> None:
        step: LabelledStep | None = index.data(STEP_ROLE)
        if step is None:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        tile = QRectF(option.rect).adjusted(1, 1, -1, -1)
        state = option.state
        if state & QStyle.StateFlag.State_Selected:
            painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Highlight), 3))
        elif state & QStyle.StateFlag.State_MouseOver:
            painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Mid), 1))
        else:
            painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(option.palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(tile, 4, 4)
        area = QRectF(tile.left() + 5, tile.top() + 5, tile.width() - 10, self.tile.thumbnail_height - 6)
        shown = self._thumbnail(painter, area, index.data(Qt.ItemDataRole.DecorationRole), step)
        _number_badge(painter, shown.topLeft(), step.position)
        if step.label.verdict in VERDICT_COLOURS:
            _verdict_mark(painter, QPointF(shown.right() - 8, shown.top() + 8), step.label.verdict)
        _marks(painter, shown, step)
        _stage_dots(painter, QPointF(tile.center().x(), tile.bottom() - 10), step.stages)
        painter.restore()

    def _thumbnail(self, painter: QPainter, area: QRectF, pixmap: QPixmap | None, step: LabelledStep) -> QRectF:
        """Draws the screenshot (dimmed when removed) and returns where it went."""
        ratio = step.screen.width / step.screen.height if step.screen.width > 0 and step.screen.height > 0 else 0.45
        width = min(area.width(), area.height() * ratio)
        shown = QRectF(0, 0, width, width / ratio)
        shown.moveCenter(area.center())
        painter.setOpacity(0.35 if step.removed else 1.0)
        if pixmap is not None and not pixmap.isNull():
            painter.drawPixmap(shown, pixmap, QRectF(pixmap.rect()))
        else:
            painter.fillRect(shown, QColor("#d5d7da"))
        painter.setOpacity(1.0)
        return shown


def _number_badge(painter: QPainter, corner: QPointF, position: int) -> None:
    font = painter.font()
    font.setBold(True)
    painter.setFont(font)
    text = str(position)
    width = max(painter.fontMetrics().horizontalAdvance(text) + 8, 18)
    box = QRectF(corner.x() - 3, corner.y() - 3, width, painter.fontMetrics().height() + 2)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(20, 20, 20, 215))
    painter.drawRoundedRect(box, 4, 4)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def _verdict_mark(painter: QPainter, centre: QPointF, verdict: str) -> None:
    """A coloured disc with a drawn check (correct), cross (wrong) or circular arrow (redundant)."""
    radius = 9.0
    painter.setPen(QPen(QColor("#ffffff"), 1.5))
    painter.setBrush(VERDICT_COLOURS[verdict])
    painter.drawEllipse(centre, radius, radius)
    pen = QPen(QColor("#ffffff"), 2.2)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    x, y, r = centre.x(), centre.y(), radius
    path = QPainterPath()
    if verdict == "correct":
        path.moveTo(x - 0.45 * r, y + 0.02 * r)
        path.lineTo(x - 0.12 * r, y + 0.36 * r)
        path.lineTo(x + 0.48 * r, y - 0.34 * r)
    elif verdict == "wrong":
        path.moveTo(x - 0.38 * r, y - 0.38 * r)
        path.lineTo(x + 0.38 * r, y + 0.38 * r)
        path.moveTo(x + 0.38 * r, y - 0.38 * r)
        path.lineTo(x - 0.38 * r, y + 0.38 * r)
    else:  # redundant: an arc of three quarters with its arrowhead, as ↻
        arc = QRectF(x - 0.48 * r, y - 0.48 * r, 0.96 * r, 0.96 * r)
        path.arcMoveTo(arc, 90)
        path.arcTo(arc, 90, -270)
        tip = path.currentPosition()
        path.moveTo(tip.x() - 0.34 * r, tip.y() - 0.18 * r)
        path.lineTo(tip)
        path.lineTo(tip.x() - 0.08 * r, tip.y() - 0.44 * r)
    painter.drawPath(path)


def _marks(painter: QPainter, shown: QRectF, step: LabelledStep) -> None:
    """A band naming an inserted or removed step; a removed one is also struck through."""
    words = []
    if step.origin == "inserted":
        words.append(QCoreApplication.translate("StepStrip", "inserted"))
    if step.removed:
        words.append(QCoreApplication.translate("StepStrip", "removed"))
        painter.setPen(QPen(REMOVED_COLOUR, 2.5))
        painter.drawLine(shown.topLeft(), shown.bottomRight())
    if not words:
        return
    font = painter.font()
    font.setBold(False)
    font.setPointSizeF(max(font.pointSizeF() - 1.5, 7.0))
    painter.setFont(font)
    height = painter.fontMetrics().height() + 2
    band = QRectF(shown.left(), shown.bottom() - height, shown.width(), height)
    painter.fillRect(band, REMOVED_COLOUR if step.removed else INSERTED_COLOUR)
    painter.setPen(QColor("#ffffff"))
    text = painter.fontMetrics().elidedText(" · ".join(words), Qt.TextElideMode.ElideRight, int(band.width()) - 2)
    painter.drawText(band, Qt.AlignmentFlag.AlignCenter, text)


def _stage_dots(painter: QPainter, centre: QPointF, stages: tuple[bool, bool, bool]) -> None:
    """Think, action, tool call: filled when labelled, hollow when not."""
    for offset, done in zip((-14.0, 0.0, 14.0), stages, strict=True):
        painter.setPen(QPen(STAGE_DONE if done else QColor("#9aa0a6"), 1.5))
        painter.setBrush(STAGE_DONE if done else Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(centre.x() + offset, centre.y()), 4.0, 4.0)


class StepStrip(Retranslating, QListView):
    step_chosen = Signal(int)  # step id: the annotator picked a tile

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("step-strip")
        self.loader = ThumbnailLoader(TILE.thumbnail_height * 2, self)  # twice: sharp on high-DPI screens
        self.steps_model = StepListModel(self.loader, self)
        self.setModel(self.steps_model)
        self.delegate = StepDelegate(self)
        self.setItemDelegate(self.delegate)
        self.setFlow(QListView.Flow.LeftToRight)
        self.setWrapping(False)
        self.setUniformItemSizes(True)
        self.setSpacing(2)
        self.setMovement(QListView.Movement.Static)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays on the canvas (verdict keys 1/2/3)
        self.setMouseTracking(True)
        self._compact: bool | None = None  # the tiles' size is set by the first set_compact
        self.set_compact(False)
        self._quiet = False  # set while the program (not the annotator) changes the current tile
        self.selectionModel().currentChanged.connect(self._current_changed)

    def set_compact(self, compact: bool) -> None:
        """Small tiles in a short window (the smallest is 760 x 560), so that the screenshot above is not tiny."""
        if compact == self._compact:
            return
        self._compact = compact
        tile = self.delegate.tile = COMPACT_TILE if compact else TILE
        extra = 2 * self.frameWidth() + self.horizontalScrollBar().sizeHint().height() + 2 * self.spacing()
        self.setFixedHeight(tile.size().height() + extra)
        self.scheduleDelayedItemsLayout()

    def set_screenshots(self, locate: Callable[[str], Path] | None) -> None:
        """Where the tiles' screenshots are (the workspace's blob store), by sha256; None: no workspace."""
        self.steps_model.locate = locate

    def set_steps(self, steps: Sequence[LabelledStep]) -> None:
        """A new sequence (another trajectory, or a step inserted or left out); the chosen step stays chosen."""
        current = self.currentIndex().data(STEP_ID_ROLE)
        self._quiet = True
        try:
            self.steps_model.set_steps(steps)
        finally:
            self._quiet = False
        if current is not None:
            self.select_step(current)

    def update_step(self, step: LabelledStep) -> None:
        self.steps_model.update_step(step)

    def select_step(self, step_id: int) -> None:
        row = self.steps_model.row_of(step_id)
        if row is None:
            return
        index = self.steps_model.index(row)
        self._quiet = True
        try:
            self.selectionModel().setCurrentIndex(index, self.selectionModel().SelectionFlag.ClearAndSelect)
        finally:
            self._quiet = False
        self.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def steps(self) -> list[LabelledStep]:
        return list(self.steps_model.steps)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not self._quiet and current.isValid():
            self.step_chosen.emit(current.data(STEP_ID_ROLE))

    def retranslate(self) -> None:
        self.viewport().update()  # the tiles' bands and tooltips are translated as they are painted and asked

    def wheelEvent(self, event: QWheelEvent) -> None:
        # A horizontal strip: the ordinary (vertical) wheel scrolls it sideways.
        delta = event.angleDelta()
        steps = delta.x() or delta.y()
        bar = self.horizontalScrollBar()
        bar.setValue(bar.value() - round(steps / 120 * self.delegate.tile.size().width()))
        event.accept()
