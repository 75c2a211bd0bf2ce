"""What a rater sees of a trajectory: its steps (reasoning, action, tool call) and a large screenshot of the chosen
step with the tool call's point drawn on it. Built from a `JudgedTrajectory`, which holds no score."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from annotator.judge.messages import JudgedTrajectory
from annotator.ui.annotate.overlays import overlays_for
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating
from annotator.ui.review.preview import describe_tool_call, read_thumbnail
from annotator.ui.workers import Jobs

CONTEXT = "BlindSteps"
SCREEN_HEIGHT = 900  # decoded at most this tall; the label scales it down to fit
COLUMNS = (
    QT_TRANSLATE_NOOP("BlindSteps", "#"),
    QT_TRANSLATE_NOOP("BlindSteps", "Reasoning"),
    QT_TRANSLATE_NOOP("BlindSteps", "Action"),
    QT_TRANSLATE_NOOP("BlindSteps", "Tool call"),
)
POINT_COLOUR = QColor("#e8175d")


def translate(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source)


class ScreenLabel(QLabel):
    """A screenshot scaled to the space it has, with the step's point marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setMinimumSize(180, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setStyleSheet("background: #3a3d41; color: #d0d0d0;")
        self.image: QImage | None = None
        self.point: tuple[float, float] | None = None  # fraction of width and height

    def show_image(self, image: QImage | None, point: tuple[float, float] | None, placeholder: str = "") -> None:
        self.image, self.point = image, point
        if image is None:
            self.setPixmap(QPixmap())
            self.setText(placeholder)
        self._paint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._paint()

    def _paint(self) -> None:
        if self.image is None:
            return
        pixmap = QPixmap.fromImage(self.image).scaled(
            self.size(), Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
        if self.point is not None:
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(POINT_COLOUR, 3))
            centre = QPointF(self.point[0] * pixmap.width(), self.point[1] * pixmap.height())
            painter.drawEllipse(centre, 11, 11)
            painter.drawEllipse(centre, 2, 2)
            painter.end()
        self.setPixmap(pixmap)


class BlindSteps(Retranslating, QSplitter):
    """The steps on the left, the chosen step's screen on the right."""

    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.jobs = jobs
        self.trajectory: JudgedTrajectory | None = None
        self.screenshot_path = lambda sha256: Path(sha256)  # set by the view: the workspace BlobStore.screenshot_path
        self._generation = 0
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("study-steps")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._show_chosen)
        self.screen_label = ScreenLabel(self)
        self.screen_label.setObjectName("study-screen")
        self.addWidget(self.table)
        self.addWidget(self.screen_label)
        self.setStretchFactor(0, 3)
        self.setStretchFactor(1, 2)
        self.setChildrenCollapsible(False)
        self.retranslate()

    def show_trajectory(self, trajectory: JudgedTrajectory | None) -> None:
        self._generation += 1
        self.trajectory = trajectory
        steps = trajectory.steps if trajectory else ()
        self.table.setRowCount(len(steps))
        for row, step in enumerate(steps):
            cells = (str(row + 1), step.think or "", step.action or "", describe_tool_call(step.tool_call))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
                self.table.setItem(row, column, item)
        self.table.resizeRowsToContents()
        if steps:
            self.table.selectRow(0)
        else:
            self.screen_label.show_image(None, None, "")

    def current_step(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def _show_chosen(self) -> None:
        row, trajectory = self.current_step(), self.trajectory
        if row is None or trajectory is None:
            return
        step, generation = trajectory.steps[row], self._generation
        point = overlays_for(step.tool_call, None).point  # read leniently: a model wrote the tool call
        fraction = (point[0] / step.screen.width, point[1] / step.screen.height) if point else None
        path = self.screenshot_path(step.screenshot_sha256)
        self.screen_label.show_image(None, None, self.tr("Loading the screenshot…"))
        self.jobs.submit(
            self.tr("Loading a screenshot"),
            lambda: read_thumbnail(path, SCREEN_HEIGHT),
            on_result=lambda image: self._arrived(generation, row, image, fraction),
            on_error=lambda error: self.screen_label.show_image(None, None, str(error)),
            queue="study-screens",
        )

    def _arrived(self, generation: int, row: int, image: QImage, point: tuple[float, float] | None) -> None:
        if generation == self._generation and row == self.current_step():
            self.screen_label.show_image(image, point)

    def retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels([translate(title) for title in COLUMNS])
