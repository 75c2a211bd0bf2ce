"""One answer of the judge, to audit it: the score and the reason, and the screens the judge was shown, those its
image cap left out greyed, with a large view of the chosen screen and what the step before it did."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from annotator.ui.i18n import Retranslating, fill
from annotator.ui.judge.answers import Answer, Drilldown, SeenScreen
from annotator.ui.review.preview import describe_tool_call, read_thumbnail
from annotator.ui.studies.steps import ScreenLabel
from annotator.ui.workers import Jobs

THUMBNAIL_HEIGHT = 120
LARGE_HEIGHT = 1000  # decoded at most this tall; the label scales it to fit
SCREENS_QUEUE = "judge-screens"  # one decode at a time


def greyed(image: QImage) -> QPixmap:
    """A screen the judge was not sent: grey, under a light veil, so that it reads as absent."""
    pixmap = QPixmap.fromImage(image.convertToFormat(QImage.Format.Format_Grayscale8))
    painter = QPainter(pixmap)
    painter.fillRect(pixmap.rect(), QColor(255, 255, 255, 150))
    painter.end()
    return pixmap


class AnswerDetail(Retranslating, QWidget):
    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("judge-answer")
        self.jobs = jobs
        self.locate: Callable[[str], Path] | None = None  # a screenshot's file by its sha256 (the blob store)
        self.drilldown: Drilldown | None = None
        self.answer: Answer | None = None
        self.hidden_text = ""  # why the answer's score is not shown
        self._generation = 0
        self.title = QLabel(self)
        self.title.setObjectName("judge-answer-title")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason = QTextBrowser(self)
        self.reason.setObjectName("judge-answer-reason")
        self.reason.setMinimumHeight(60)
        self.screens = QListWidget(self)
        self.screens.setObjectName("judge-screens")
        self.screens.setViewMode(QListView.ViewMode.IconMode)
        self.screens.setFlow(QListView.Flow.LeftToRight)
        self.screens.setWrapping(False)  # one row, in the order the judge read them
        self.screens.setMovement(QListView.Movement.Static)
        self.screens.setIconSize(QSize(THUMBNAIL_HEIGHT * 9 // 20, THUMBNAIL_HEIGHT))
        self.screens.setGridSize(QSize(THUMBNAIL_HEIGHT * 9 // 20 + 40, THUMBNAIL_HEIGHT + 40))
        self.screens.setWordWrap(True)
        self.screens.setFixedHeight(THUMBNAIL_HEIGHT + 64)  # the row, its captions and a scroll bar
        self.screens.currentRowChanged.connect(self._show_large)
        self.large = ScreenLabel(self)
        self.large.setObjectName("judge-screen")
        self.caption = QLabel(self)
        self.caption.setObjectName("judge-screen-caption")
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.title)
        left_layout.addWidget(self.reason, 1)
        left_layout.addWidget(self.screens)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.large, 1)
        right_layout.addWidget(self.caption)
        self.split = QSplitter(Qt.Orientation.Horizontal, self)  # the chosen screen as tall as the whole part
        self.split.addWidget(left)
        self.split.addWidget(right)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        self.split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.split)
        self.retranslate()

    # what the view asks ----------------------------------------------------------------------------------------

    def clear(self, placeholder: str = "") -> None:
        self._generation += 1
        self.answer, self.drilldown, self.hidden_text = None, None, ""
        self.title.setText(placeholder)
        self.reason.clear()
        self.screens.clear()
        self.large.show_image(None, None, "")
        self.caption.clear()

    def show_answer(self, answer: Answer, hidden_text: str = "") -> None:
        """The score and reason at once; the screens follow with `show_screens`."""
        self.clear()
        self.answer, self.hidden_text = answer, hidden_text
        self._show_texts()

    def show_screens(self, drilldown: Drilldown) -> None:
        if self.answer is None or drilldown.answer.score.trajectory_id != self.answer.score.trajectory_id:
            return  # another answer was chosen meanwhile
        self.drilldown = drilldown
        self.screens.clear()
        generation = self._generation
        for screen in drilldown.screens:
            item = QListWidgetItem(self._screen_name(screen))
            item.setToolTip(self._screen_tip(screen))
            if not screen.sent:
                item.setForeground(QColor("#8a8a8a"))
            self.screens.addItem(item)
            if self.locate is not None:
                self._load_thumbnail(generation, self.screens.count() - 1, screen)
        self._show_texts()
        if drilldown.screens:
            self.screens.setCurrentRow(0)
        else:
            self.large.show_image(None, None, self.tr("The judge was shown no screenshot."))

    def screen_names(self) -> list[str]:
        return [self.screens.item(row).text() for row in range(self.screens.count())]

    # texts -----------------------------------------------------------------------------------------------------

    def _show_texts(self) -> None:
        answer, drilldown = self.answer, self.drilldown
        if answer is None:
            return
        score = answer.score
        if answer.hidden:
            verdict = self.tr("score hidden")
        elif score.reward is None:
            verdict = self.tr("no usable score")
        else:
            verdict = fill(self.tr("score %1 of 4"), score.reward)
        head = fill(
            self.tr("<b>#%1</b> · %2 · %3 — <b>%4</b> from judge %5 (%6)"),
            score.trajectory_id,
            html.escape(score.app),
            html.escape(score.instruction),
            verdict,
            score.config_id,
            html.escape(score.judge),
        )
        if drilldown is not None:
            sent = sum(screen.sent for screen in drilldown.screens)
            dropped = len(drilldown.screens) - sent
            shown = self.tr("%n screenshot(s) sent", "", sent)
            if dropped:
                cap = drilldown.policy.max_images
                shown += " · " + fill(self.tr("%1 left out by the cap of %2 (greyed)"), dropped, cap)
            head += "<br>" + shown
        self.title.setText(head)
        if answer.hidden:
            self.reason.setPlainText(self.hidden_text)
        elif score.reward is None:
            self.reason.setPlainText(fill(self.tr("No usable score: %1"), score.error or "?"))
        else:
            self.reason.setPlainText(score.reason or self.tr("(The judge gave no reason.)"))

    def _screen_name(self, screen: SeenScreen) -> str:
        if screen.number == 0:
            name = self.tr("Initial screen")
        elif self.drilldown is not None and screen.number == self.drilldown.steps:
            name = fill(self.tr("After step %1 (the last)"), screen.number)
        else:
            name = fill(self.tr("After step %1"), screen.number)
        return name if screen.sent else name + "\n" + self.tr("not sent")

    def _screen_tip(self, screen: SeenScreen) -> str:
        if not screen.sent:
            return self.tr("Left out by the judge's image cap: the first and the last screens are kept")
        return fill(self.tr("Sent at %1×%2 pixels"), screen.size.width, screen.size.height)

    def _step_text(self, screen: SeenScreen) -> str:
        step = screen.step
        if step is None:
            return self.tr("Before the first step")
        parts = [(step.action or "").strip(), describe_tool_call(step.tool_call)]
        return fill(self.tr("Step %1: %2"), screen.number, " — ".join(part for part in parts if part) or "?")

    # screens ---------------------------------------------------------------------------------------------------

    def _load_thumbnail(self, generation: int, row: int, screen: SeenScreen) -> None:
        assert self.locate is not None
        path = self.locate(screen.sha256)
        self.jobs.submit(
            self.tr("Loading a screenshot"),
            lambda: read_thumbnail(path, THUMBNAIL_HEIGHT) if generation == self._generation else None,
            on_result=lambda image: self._thumbnail_arrived(generation, row, screen, image),
            queue=SCREENS_QUEUE,
        )

    def _thumbnail_arrived(self, generation: int, row: int, screen: SeenScreen, image: QImage | None) -> None:
        item = self.screens.item(row)
        if image is None or generation != self._generation or item is None:
            return
        item.setIcon(QIcon(QPixmap.fromImage(image) if screen.sent else greyed(image)))

    def _show_large(self, row: int) -> None:
        drilldown, generation = self.drilldown, self._generation
        if drilldown is None or not 0 <= row < len(drilldown.screens) or self.locate is None:
            return
        screen = drilldown.screens[row]
        self.caption.setText(
            f"<b>{html.escape(self._screen_name(screen).replace(chr(10), ' · '))}</b> · "
            f"{html.escape(self._screen_tip(screen))}<br>{html.escape(self._step_text(screen))}"
        )
        path = self.locate(screen.sha256)
        self.large.show_image(None, None, self.tr("Loading the screenshot…"))
        self.jobs.submit(
            self.tr("Loading a screenshot"),
            lambda: read_thumbnail(path, LARGE_HEIGHT),
            on_result=lambda image: self._large_arrived(generation, row, screen, image),
            on_error=lambda error: self.large.show_image(None, None, str(error)),
            queue=SCREENS_QUEUE,
        )

    def _large_arrived(self, generation: int, row: int, screen: SeenScreen, image: QImage) -> None:
        if generation == self._generation and row == self.screens.currentRow():
            self.large.show_image(image if screen.sent else greyed(image).toImage(), None)

    def retranslate(self) -> None:
        if self.answer is not None:
            self._show_texts()
        if self.drilldown is not None:
            for row, screen in enumerate(self.drilldown.screens):
                item = self.screens.item(row)
                item.setText(self._screen_name(screen))
                item.setToolTip(self._screen_tip(screen))
