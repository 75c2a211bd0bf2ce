"""The live phone screen: the newest screenshot scaled to fit, and touch gestures turned into actions.

Like labelme's canvas it only paints and emits: a press and release in place is a click, a press held
LONG_PRESS_MS or longer without moving is a long press, a drag is a swipe. Every coordinate it emits is in
device pixels of the screenshot shown (the screenshot is the phone's full resolution), so what is recorded
never depends on the window's size.
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap, QResizeEvent
from PySide6.QtWidgets import QApplication, QSizePolicy, QWidget

from annotator.domain import actions as act

LONG_PRESS_MS = 600
MARGIN = 8  # widget pixels around the screenshot
BACKGROUND = QColor(30, 31, 34)
TOUCH = QColor(255, 82, 82)


class PhoneScreen(QWidget):
    """Shows a screenshot; emits `gesture(act.Action)` for a click, a long press or a swipe on it."""

    gesture = Signal(object)  # act.Click | act.LongPress | act.Swipe, in device pixels

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("phone-screen")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(False)
        self.image: QImage | None = None
        self.accepting = False
        self.placeholder = ""
        self.pending: act.Action | None = None  # sent, not yet answered by a new screenshot
        self._scaled: QPixmap | None = None
        self._press: QPointF | None = None  # where the button went down (widget pixels)
        self._pointer = QPointF()
        self._held = QElapsedTimer()
        self._long_press_shown = QTimer(self)  # repaints when a hold becomes a long press, so the person sees it
        self._long_press_shown.setSingleShot(True)
        self._long_press_shown.setInterval(LONG_PRESS_MS)
        self._long_press_shown.timeout.connect(self.update)
        self._update_cursor()

    # what it shows -----------------------------------------------------------------------------------------

    def set_image(self, image: QImage | None) -> None:
        """A new screenshot; it also answers the action that was pending."""
        self.image = image if image is not None and not image.isNull() else None
        self.pending = None
        self._scaled = None
        self.update()

    def set_accepting(self, accepting: bool) -> None:
        """Whether gestures are taken now (a screen is shown and nobody is waiting for the phone)."""
        self.accepting = accepting
        if not accepting:
            self._cancel_press()
        self._update_cursor()
        self.update()

    def set_placeholder(self, text: str) -> None:
        self.placeholder = text
        self.update()

    def set_pending(self, action: act.Action | None) -> None:
        self.pending = action
        self.update()

    # geometry ----------------------------------------------------------------------------------------------

    def image_rect(self) -> QRectF:
        """Where the screenshot is drawn: as large as fits, centred, aspect ratio kept."""
        if self.image is None:
            return QRectF()
        area = QRectF(self.rect()).adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)
        size = self.image.size()
        scale = min(area.width() / size.width(), area.height() / size.height())
        width, height = size.width() * scale, size.height() * scale
        return QRectF(area.center().x() - width / 2, area.center().y() - height / 2, width, height)

    def to_device(self, point: QPointF) -> tuple[int, int] | None:
        """The device pixel under a widget point; None outside the screenshot."""
        rect = self.image_rect()
        if self.image is None or not rect.contains(point):
            return None
        width, height = self.image.width(), self.image.height()
        x = int((point.x() - rect.left()) * width / rect.width())
        y = int((point.y() - rect.top()) * height / rect.height())
        return min(max(x, 0), width - 1), min(max(y, 0), height - 1)

    def to_widget(self, x: float, y: float) -> QPointF:
        """The widget point that shows device pixel (x, y) (its centre)."""
        rect = self.image_rect()
        if self.image is None:
            return QPointF()
        return QPointF(
            rect.left() + (x + 0.5) * rect.width() / self.image.width(),
            rect.top() + (y + 0.5) * rect.height() / self.image.height(),
        )

    # gestures ----------------------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self.accepting:
            return super().mousePressEvent(event)
        if self.to_device(event.position()) is None:
            return None
        self._press = self._pointer = event.position()
        self._held.start()
        self._long_press_shown.start()
        self.update()
        return None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press is not None:
            self._pointer = event.position()
            if self._moved(self._press, self._pointer):
                self._long_press_shown.stop()
            self.update()
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self._press is None:
            return super().mouseReleaseEvent(event)
        start, held_ms = self._press, self._held.elapsed()
        self._cancel_press()
        action = self._action(start, event.position(), held_ms)
        if action is not None:
            self.gesture.emit(action)
        return None

    def _action(self, start: QPointF, end: QPointF, held_ms: int) -> act.Action | None:
        begin = self.to_device(start)
        if begin is None:
            return None
        if self._moved(start, end):
            finish = self.to_device(self._clamped(end))
            return act.Swipe(coordinate=begin, coordinate2=finish) if finish and finish != begin else None
        if held_ms >= LONG_PRESS_MS:
            return act.LongPress(coordinate=begin, time=round(held_ms / 1000, 1))
        return act.Click(coordinate=begin)

    def _moved(self, start: QPointF, point: QPointF) -> bool:
        return (point - start).manhattanLength() >= QApplication.startDragDistance()

    def _clamped(self, point: QPointF) -> QPointF:
        """A drag that ends beyond the screenshot ends at its edge (as a finger leaving the glass)."""
        rect = self.image_rect().adjusted(0, 0, -0.01, -0.01)
        return QPointF(min(max(point.x(), rect.left()), rect.right()), min(max(point.y(), rect.top()), rect.bottom()))

    def _cancel_press(self) -> None:
        self._press = None
        self._long_press_shown.stop()
        self.update()

    def _update_cursor(self) -> None:
        shape = Qt.CursorShape.CrossCursor if self.accepting else Qt.CursorShape.ArrowCursor
        self.setCursor(shape)

    # painting ----------------------------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._scaled = None
        super().resizeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(340, 680)

    def minimumSizeHint(self) -> QSize:
        return QSize(180, 320)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        if self.image is None:
            painter.setPen(QColor(200, 200, 200))
            area = self.rect().adjusted(24, 24, -24, -24)
            painter.drawText(area, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.placeholder)
            return
        rect = self.image_rect()
        painter.drawPixmap(rect.topLeft(), self._pixmap(rect))
        if not self.accepting:
            painter.fillRect(rect, QColor(0, 0, 0, 60))  # dimmed: the phone is busy or nothing is recording
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self._press is not None:
            self._paint_touch(painter, self._press, self._pointer, self._held.elapsed() >= LONG_PRESS_MS)
        elif self.pending is not None:
            self._paint_pending(painter, self.pending)

    def _pixmap(self, rect: QRectF) -> QPixmap:
        """The screenshot scaled once per size (a 1080x2400 image scaled on every paint would stutter)."""
        size = rect.size().toSize()
        if self._scaled is None or self._scaled.size() != size:
            assert self.image is not None
            scaled = self.image.scaled(
                size, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
            self._scaled = QPixmap.fromImage(scaled)
        return self._scaled

    def _paint_touch(self, painter: QPainter, start: QPointF, pointer: QPointF, long: bool) -> None:
        painter.setPen(QPen(TOUCH, 3))
        if self._moved(start, pointer):
            painter.drawLine(start, pointer)
            painter.drawEllipse(pointer, 6, 6)
        painter.setBrush(QColor(255, 82, 82, 90))
        radius = 18 if long else 11
        painter.drawEllipse(start, radius, radius)

    def _paint_pending(self, painter: QPainter, action: act.Action) -> None:
        """Where the last action touched, until the phone shows what it did."""
        points = [getattr(action, key) for key in ("coordinate", "coordinate2") if getattr(action, key, None)]
        if not points:
            return
        widget_points = [self.to_widget(*point) for point in points]
        painter.setPen(QPen(TOUCH, 3))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if len(widget_points) == 2:
            painter.drawLine(widget_points[0], widget_points[1])
        painter.drawEllipse(widget_points[0], 12, 12)
