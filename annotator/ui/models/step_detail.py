"""One evaluated step: its screenshot with the predicted action (red) and the labelled one (green, with its target
box) drawn on it, a legend that says both in words and why the answer was wrong, and the model's reply.

The screen is a QGraphicsScene in device pixels (the coordinates of the stored tool calls and boxes), shown
fitted to the room there is; markers ignore the view's scale, so they keep their size on a phone screen shown
a fifth of its height. What is drawn is kept by name in `marks`, which the tests read.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QStyleOptionGraphicsItem,
    QVBoxLayout,
    QWidget,
)

from annotator.services.evaluations import StepDrilldown, why_failed
from annotator.storage.workspace import Workspace
from annotator.ui.annotate.overlays import Overlays, overlays_for
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.images import decode_image
from annotator.ui.models.tables import REASONS, value_name
from annotator.ui.review.preview import describe_tool_call

PREDICTED, LABELLED = QColor("#e53935"), QColor("#2e9e44")
HALO = QColor(0, 0, 0, 170)
LARGEST_SIDE = 1600  # decoded at most this large: the pane shows it a few hundred pixels high


@dataclass(frozen=True)
class LoadedStep:
    drilldown: StepDrilldown
    image: QImage


def load_step(workspace: Workspace, evaluation_id: int, step_id: int) -> LoadedStep:
    """The step's drill-down and its decoded screenshot (on a worker: QImage, unlike QPixmap, may be made there)."""
    from annotator.services.evaluations import step_drilldown

    drilldown = step_drilldown(workspace, evaluation_id, step_id)
    try:
        image = decode_image(drilldown.screenshot)
    except ValueError:
        raise OSError(f"the screenshot of step {step_id} cannot be decoded") from None
    if max(image.width(), image.height()) > LARGEST_SIDE:
        image = image.scaled(
            LARGEST_SIDE, LARGEST_SIDE, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
    return LoadedStep(drilldown, image)


class PointMark(QGraphicsItem):
    """A ring (predicted) or a dot in a ring (labelled) of a fixed size on screen, with a dark halo."""

    def __init__(self, colour: QColor, filled: bool) -> None:
        super().__init__()
        self.colour, self.filled = colour, filled
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(3)

    def boundingRect(self) -> QRectF:
        return QRectF(-16, -16, 32, 32)

    def paint(self, painter: QPainter, _option: QStyleOptionGraphicsItem, _widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for pen in (QPen(HALO, 6), QPen(self.colour, 3)):
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), 12, 12)
        if self.filled:
            painter.setPen(QPen(HALO, 2))
            painter.setBrush(self.colour)
            painter.drawEllipse(QPointF(0, 0), 5, 5)
        else:  # a cross: the predicted point reads apart from the labelled dot where they overlap
            painter.setPen(QPen(self.colour, 2))
            painter.drawLine(QPointF(-6, 0), QPointF(6, 0))
            painter.drawLine(QPointF(0, -6), QPointF(0, 6))


class EvaluatedScreen(QGraphicsView):
    """The screenshot, fitted to the view, with the two actions drawn on it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("models-step-screen")
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setBackgroundBrush(QColor("#3a3d41"))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumSize(160, 240)
        self.marks: dict[str, QGraphicsItem] = {}

    def show_step(self, loaded: LoadedStep | None) -> None:
        scene = self.scene()
        scene.clear()
        self.marks = {}
        if loaded is None:
            return
        drilldown, screen = loaded.drilldown, loaded.drilldown.screen
        picture = scene.addPixmap(QPixmap.fromImage(loaded.image))
        picture.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        picture.setScale(screen.width / max(1, loaded.image.width()))  # the scene is in device pixels
        scene.setSceneRect(QRectF(0, 0, screen.width, screen.height))
        labelled = overlays_for(drilldown.labelled, drilldown.target_box.as_list() if drilldown.target_box else None)
        self._draw("labelled", labelled, LABELLED, filled=True, badge_row=1)
        self._draw("predicted", overlays_for(drilldown.predicted, None), PREDICTED, filled=False, badge_row=0)
        self._fit()

    def _draw(self, name: str, shapes: Overlays, colour: QColor, *, filled: bool, badge_row: int) -> None:
        scene = self.scene()
        if shapes.box is not None:
            x1, y1, x2, y2 = shapes.box
            box = QGraphicsRectItem(QRectF(x1, y1, x2 - x1, y2 - y1))
            pen = QPen(colour, 3)
            pen.setCosmetic(True)  # three screen pixels at any scale
            box.setPen(pen)
            box.setBrush(QBrush(QColor(colour.red(), colour.green(), colour.blue(), 40)))
            box.setZValue(1)
            scene.addItem(box)
            self.marks[f"{name}.box"] = box
        if shapes.point is not None and shapes.end is not None:
            line = QGraphicsLineItem(*shapes.point, *shapes.end)
            pen = QPen(colour, 3)
            pen.setCosmetic(True)
            line.setPen(pen)
            line.setZValue(2)
            scene.addItem(line)
            self.marks[f"{name}.swipe"] = line
            self._add_point(f"{name}.end", shapes.end, colour, filled)
        if shapes.point is not None:
            self._add_point(f"{name}.point", shapes.point, colour, filled)
        if shapes.caption is not None:  # an action without a place: a badge in the top-left corner
            self._add_badge(f"{name}.caption", shapes.caption, colour, badge_row)

    def _add_point(self, name: str, point: tuple[float, float], colour: QColor, filled: bool) -> None:
        mark = PointMark(colour, filled)
        mark.setPos(QPointF(*point))
        self.scene().addItem(mark)
        self.marks[name] = mark

    def _add_badge(self, name: str, caption: str, colour: QColor, row: int) -> None:
        label = QGraphicsSimpleTextItem(caption)
        label.setBrush(QColor("white"))
        back = QGraphicsRectItem(label.boundingRect().adjusted(-6, -3, 6, 3))
        back.setBrush(colour)
        back.setPen(QPen(HALO, 1))
        back.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        label.setParentItem(back)
        back.setPos(QPointF(0, 0))
        back.setZValue(4)
        self.scene().addItem(back)
        back.setData(0, row)
        self.marks[name] = back
        self._place_badges()

    def _place_badges(self) -> None:
        """Badges stay in the top-left corner of the screen whatever its scale: placed in scene units."""
        scale = self.transform().m11() or 1.0
        for mark in self.marks.values():
            if isinstance(mark, QGraphicsRectItem) and mark.data(0) is not None:
                mark.setPos(QPointF(8 / scale, (8 + 26 * int(mark.data(0))) / scale))

    def _fit(self) -> None:
        if not self.scene().sceneRect().isEmpty():
            self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
            self._place_badges()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()


class EvaluatedStep(Retranslating, QWidget):
    """The drill-down pane: title, screen, legend, reply, and a button that opens the trajectory to fix it."""

    open_requested = Signal(int)  # a trajectory id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("models-step-detail")
        self.loaded: LoadedStep | None = None
        self.placeholder = ""
        self.title = QLabel(self)
        self.title.setObjectName("models-step-title")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.evaluated_screen = EvaluatedScreen(self)
        self.legend = QLabel(self)
        self.legend.setObjectName("models-step-legend")
        self.legend.setWordWrap(True)
        self.legend.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reply_heading = QLabel(self)
        self.reply_heading.setStyleSheet("font-weight: bold")
        self.reply = QPlainTextEdit(self)
        self.reply.setObjectName("models-step-reply")
        self.reply.setReadOnly(True)
        self.open_button = QPushButton(self)
        self.open_button.setObjectName("models-open-trajectory")
        self.open_button.clicked.connect(self._open)
        side = QVBoxLayout()
        side.addWidget(self.legend)
        side.addWidget(self.reply_heading)
        side.addWidget(self.reply, 1)
        side.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.body = QWidget(self)  # hidden while no step is shown: an empty grey screen says nothing
        body = QHBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.evaluated_screen, 2)
        body.addLayout(side, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.body, 1)
        layout.addStretch(0)
        self.retranslate()
        self.clear()

    def clear(self, placeholder: str = "") -> None:
        self.loaded, self.placeholder = None, placeholder
        self.evaluated_screen.show_step(None)
        self._show_texts()

    def show_loading(self) -> None:
        self.clear(self.tr("Loading the step…"))

    def show_step(self, loaded: LoadedStep) -> None:
        self.loaded = loaded
        self.evaluated_screen.show_step(loaded)
        self._show_texts()

    def step_id(self) -> int | None:
        return self.loaded.drilldown.step_id if self.loaded else None

    def _open(self) -> None:
        if self.loaded is not None:
            self.open_requested.emit(self.loaded.drilldown.trajectory_id)

    def _show_texts(self) -> None:
        loaded = self.loaded
        self.open_button.setEnabled(loaded is not None)
        self.body.setVisible(loaded is not None)
        if loaded is None:
            self.title.setText(self.placeholder or self.tr("Choose a step to see it on its screenshot."))
            self.legend.clear()
            self.reply.clear()
            return
        step = loaded.drilldown
        self.title.setText(
            fill(
                self.tr("<b>Trajectory #%1 · step %2</b> · %3 — %4"),
                step.trajectory_id,
                step.position + 1,
                html.escape(step.app),
                html.escape(step.instruction),
            )
        )
        self.legend.setText(self._legend(step))
        record = step.record
        if record.error is not None:
            self.reply.setPlainText(fill(self.tr("The request failed: %1"), record.error))
        else:
            self.reply.setPlainText(record.reply or "")

    def _legend(self, step: StepDrilldown) -> str:
        predicted = describe_tool_call(step.predicted) or self.tr("no usable action")
        labelled = describe_tool_call(step.labelled) or self.tr("none")
        if step.action_text:
            labelled = f"{step.action_text} — {labelled}"
        lines = [
            _swatch(PREDICTED, fill(self.tr("Predicted: %1"), html.escape(predicted))),
            _swatch(LABELLED, fill(self.tr("Labelled: %1"), html.escape(labelled))),
        ]
        if step.target_box is not None:
            lines.append(_swatch(LABELLED, self.tr("Target box of the labelled action"), square=True))
        reason = why_failed(step.record)
        verdict = value_name(REASONS, reason) if reason else self.tr("right")
        lines.append(fill(self.tr("Verdict: <b>%1</b>"), html.escape(verdict)) + " · " + self._scores(step))
        return "<br>".join(lines)

    def _scores(self, step: StepDrilldown) -> str:
        record = step.record

        def mark(value: bool | None) -> str:
            return self.tr("n/a") if value is None else self.tr("right") if value else self.tr("wrong")

        return fill(
            self.tr("format %1, type %2, arguments %3, point within 14%: %4"),
            mark(record.format_ok),
            mark(record.type_match),
            mark(record.exact_match),
            mark(record.grounded),
        )

    def retranslate(self) -> None:
        self.reply_heading.setText(self.tr("The model's reply"))
        self.open_button.setText(self.tr("Open the Trajectory in Annotate"))
        self.open_button.setToolTip(self.tr("Check or correct this step's label in the Annotate view"))
        self._show_texts()


def _swatch(colour: QColor, text: str, square: bool = False) -> str:
    """A line of the legend led by a patch of the colour it is drawn in (a box: a pale patch, as drawn)."""
    patch = colour.lighter(170).name() if square else colour.name()
    return f'<span style="background-color:{patch}">&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;{text}'
