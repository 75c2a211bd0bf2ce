"""A large view of one step for the reviewer: its screenshot with the labelled click point, swipe or target box
drawn as the annotation canvas draws them (annotator.ui.annotate.canvas_paint), and the collected ones dashed
beneath when the label changed them. Read-only: nothing here edits a label."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent, QTransform
from PySide6.QtWidgets import QSizePolicy, QWidget

from annotator.domain.trajectory import LabelledStep
from annotator.ui.annotate import canvas_paint as paint
from annotator.ui.annotate.overlays import Overlays, overlays_for
from annotator.ui.i18n import Retranslating

BACKGROUND = QColor("#3a3d41")
MARGIN = 6


def step_overlays(step: LabelledStep) -> tuple[Overlays, Overlays | None]:
    """(what the label says, what was collected when the label changed it, else None). The box is the one the
    export gives the step: drawn or accepted by a person, else the suggestion its point lies in."""
    label, original = step.label, step.original
    box, _provenance = step.target()
    labelled = overlays_for(label.tool_call if label.tool_call is not None else original.tool_call, box)
    collected = overlays_for(original.tool_call, None)
    changed = label.tool_call is not None and collected != overlays_for(label.tool_call, None)
    return labelled, collected if changed and not collected.empty else None


class StepScreen(Retranslating, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("review-step-screen")
        self.setMinimumSize(180, 260)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.image: QImage | None = None
        self.step: LabelledStep | None = None
        self.text = ""  # shown when there is no image: loading, unreadable, no step
        self.retranslate()

    def sizeHint(self) -> QSize:
        return QSize(300, 600)

    def show_step(self, step: LabelledStep | None, image: QImage | None, text: str = "") -> None:
        self.step, self.image, self.text = step, image, text
        self.update()

    def screen_rect(self) -> QRectF:
        """Where the screenshot is drawn: as large as fits, centred."""
        if self.image is None:
            return QRectF()
        room = QRectF(self.rect()).adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)
        size = self.image.size().scaled(room.size().toSize(), Qt.AspectRatioMode.KeepAspectRatio)
        left = room.left() + (room.width() - size.width()) / 2
        top = room.top() + (room.height() - size.height()) / 2
        return QRectF(left, top, size.width(), size.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        if self.image is None or self.step is None:
            paint.message(painter, QRectF(self.rect()), self.text)
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        screen = self.screen_rect()
        painter.drawImage(screen, self.image)
        device = self.step.screen  # the tool call's pixels
        to_view = QTransform.fromTranslate(screen.left(), screen.top()).scale(
            screen.width() / max(device.width, 1), screen.height() / max(device.height, 1)
        )
        labelled, collected = step_overlays(self.step)
        points = [to_view.map(QPointF(*shape.point)) for shape in (labelled, collected) if shape and shape.point]
        hold, hold_for = self.tr("hold"), self.tr("hold %1 s")
        if collected is not None:
            words = paint.Words(hold, hold_for, self.tr("as collected: %1"))
            paint.paint_shapes(painter, collected, to_view, paint.ORIGINAL, words, screen, points)
            paint.legend(painter, QRectF(self.rect()), screen, self.tr("label"), self.tr("as collected"))
        words = paint.Words(hold, hold_for, "%1")
        paint.paint_shapes(painter, labelled, to_view, paint.LABELLED, words, screen, points)

    def retranslate(self) -> None:
        self.update()
