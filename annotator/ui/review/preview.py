"""A read-only summary of one trajectory, so that a reviewer can accept without opening the editor.

The instruction, the labelled outcome, the judge's score and reason (unless a study the reviewer rates is still
being rated), the newest review note, and each step of the labelled sequence as a row: a small screenshot, the
verdict, the think, the action and the tool call; beside them the chosen step large, with its labelled click
point or box drawn (step_screen.StepScreen). Screenshots are decoded at the size shown on a worker
(QImageReader.setScaledSize reads only what the image needs); a result for a trajectory or step that is no
longer shown is dropped.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QSize, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QImageReader, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.domain.trajectory import LabelledStep, LabelledTrajectory, ReviewStatus
from annotator.ui import labels
from annotator.ui.browser.model import local_time
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill
from annotator.ui.review.judge_line import JudgeLine, Judgement
from annotator.ui.review.step_screen import StepScreen
from annotator.ui.workers import Jobs

CONTEXT = "TrajectoryPreview"
THUMBNAIL_HEIGHT = 120
THUMBNAIL_QUEUE = "review-thumbnails"  # one decode at a time: the database jobs keep their threads
LARGE_HEIGHT = 1200  # the chosen step's screenshot, decoded at most this tall
PHONE_ASPECT = 1080 / 2400  # width / height of the screen beside the table before a trajectory is shown
COLUMNS = ("position", "screen", "verdict", "think", "action", "tool_call")
TITLES = (
    QT_TRANSLATE_NOOP("TrajectoryPreview", "#"),
    QT_TRANSLATE_NOOP("TrajectoryPreview", "Screen"),
    QT_TRANSLATE_NOOP("TrajectoryPreview", "Verdict"),
    QT_TRANSLATE_NOOP("TrajectoryPreview", "Think"),
    QT_TRANSLATE_NOOP("TrajectoryPreview", "Action"),
    QT_TRANSLATE_NOOP("TrajectoryPreview", "Tool call"),
)
FIXED_WIDTHS = {"position": 32, "screen": 66, "verdict": 80}
# The text columns share what is left, the think most: it is the longest and the first thing reviewed.
SHARES = {"think": 0.46, "action": 0.24, "tool_call": 0.30}
# Step verdicts are not in labels.py yet; this view's own labels, coloured as a reviewer scans them.
VERDICTS = {
    "correct": (QT_TRANSLATE_NOOP("TrajectoryPreview", "correct"), "#1e7b34"),
    "wrong": (QT_TRANSLATE_NOOP("TrajectoryPreview", "wrong"), "#b3261e"),
    "redundant": (QT_TRANSLATE_NOOP("TrajectoryPreview", "redundant"), "#b35c00"),
}
UNLABELLED_TEXT = QColor("#8a8a8a")
BANNER_STYLES = {
    "rejected": "background: #fde7e4; color: #8c1d18; border: 1px solid #e8a39b; border-radius: 4px; padding: 6px;",
    "accepted": "background: #e6f4ea; color: #1e5b2d; border: 1px solid #a8d5b5; border-radius: 4px; padding: 6px;",
    "note": "background: #eef2f8; color: #22324a; border: 1px solid #c4cfdf; border-radius: 4px; padding: 6px;",
}


def read_thumbnail(path: Path, height: int = THUMBNAIL_HEIGHT) -> QImage:
    """Decode a screenshot straight to thumbnail size (runs on a worker: QImage, unlike QPixmap, may)."""
    reader = QImageReader(str(path))
    size = reader.size()
    if size.isValid():
        reader.setScaledSize(size.scaled(QSize(height * 4, height), Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    if image.isNull():
        raise OSError(f"cannot read the screenshot {path.name}: {reader.errorString()}")
    return image


def describe_tool_call(tool_call: dict[str, Any] | None) -> str:
    """`click (975, 1016)`, `type "你好"`, `system_button Back`: the action, then its arguments, short."""
    if not tool_call:
        return ""
    arguments = dict(tool_call.get("arguments") or {})
    parts = [str(arguments.pop("action", tool_call.get("name", "?")))]
    for key, value in arguments.items():
        if key in ("coordinate", "coordinate2") and isinstance(value, list | tuple):
            point = "(" + ", ".join(str(v) for v in value) + ")"
            parts.append(point if key == "coordinate" else f"→ {point}")
        elif key in ("button", "status", "time") and isinstance(value, str | int | float):
            parts.append(str(value))
        else:
            shown = json.dumps(value, ensure_ascii=False)
            parts.append(shown if key == "text" else f"{key}={shown}")
    return " ".join(parts)


def translate(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source)


class StepTable(QTableWidget):
    """The steps; the text columns keep their shares of the width as the preview is resized."""

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def fit_columns(self) -> None:
        header = self.horizontalHeader()
        for key, width in FIXED_WIDTHS.items():
            header.resizeSection(COLUMNS.index(key), width)
        left = max(self.viewport().width() - sum(FIXED_WIDTHS.values()), 180)
        for key, share in SHARES.items():
            header.resizeSection(COLUMNS.index(key), int(left * share))


class TrajectoryPreview(Retranslating, QWidget):
    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trajectory-preview")
        self.jobs = jobs
        self.record: LabelledTrajectory | None = None
        self.locate: Callable[[str], Path] | None = None  # a screenshot's file by its sha256 (the blob store)
        self.placeholder = ""
        self._generation = 0  # the record shown; thumbnails of an older one are dropped
        self._screen_generation = 0  # the step shown large
        self.judged: Judgement | None = None
        self.instruction = QLabel(self)
        self.instruction.setObjectName("preview-instruction")
        self.instruction.setWordWrap(True)
        self.instruction.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.instruction.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)  # also a lone placeholder
        large = QFont(self.instruction.font())
        large.setPointSizeF(large.pointSizeF() * 1.35)
        large.setBold(True)
        self.instruction.setFont(large)
        self.details = QLabel(self)
        self.details.setObjectName("preview-details")
        self.details.setWordWrap(True)
        self.banner = QLabel(self)
        self.banner.setObjectName("preview-banner")
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.judge = JudgeLine(self)
        self.steps = StepTable(0, len(COLUMNS), self)
        self.steps.setObjectName("preview-steps")
        self.steps.itemSelectionChanged.connect(self._show_chosen_step)
        self.step_screen = StepScreen(self)
        self.split = QSplitter(Qt.Orientation.Horizontal, self)
        self.split.addWidget(self.steps)
        self.split.addWidget(self.step_screen)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        self.split.setChildrenCollapsible(False)
        self._refit = QTimer(self)  # rows follow the column widths once a resize settles
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self._fit_rows)
        self._set_up_table()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.instruction)
        layout.addWidget(self.details)
        layout.addWidget(self.judge)
        layout.addWidget(self.banner)
        layout.addWidget(self.split, 1)
        self.retranslate()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_screen()

    def fit_screen(self) -> None:
        """The step's screen as wide as a phone screenshot needs at the height it has (at most half the width); the
        table takes the rest."""
        total, height = self.split.width(), self.split.height()
        steps = self.record.steps if self.record else ()
        aspect = steps[0].screen.width / max(steps[0].screen.height, 1) if steps else PHONE_ASPECT
        wanted = min(int(height * aspect) + 16, total // 2)
        if total > 0 and height > 0:
            self.split.setSizes([total - wanted, wanted])

    def _set_up_table(self) -> None:
        table, header = self.steps, self.steps.horizontalHeader()
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setWordWrap(True)
        table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        table.verticalHeader().hide()
        header.setHighlightSections(False)
        table.fit_columns()
        header.sectionResized.connect(lambda *_args: self._refit.start())

    # what the view asks ----------------------------------------------------------------------------------------

    def show_record(
        self, record: LabelledTrajectory | None, placeholder: str = "", judged: Judgement | None = None
    ) -> None:
        """Show a trajectory (with the judge's answer, when read), or `placeholder` (why nothing is shown)."""
        self._generation += 1
        self.record, self.placeholder, self.judged = record, placeholder, judged
        self.steps.setRowCount(0)
        self._show_header()
        if record is None:
            self.step_screen.show_step(None, None)
            return
        self.steps.setRowCount(len(record.steps))
        for row, step in enumerate(record.steps):
            self._fill_row(row, step)
            if self.locate is not None:
                self._load_thumbnail(row, self.locate(step.screenshot_sha256))
        self._fit_rows()
        self.fit_screen()
        if record.steps:
            self.steps.selectRow(0)  # shown large beside the table

    def thumbnail(self, row: int) -> QPixmap | None:
        item = self.steps.item(row, COLUMNS.index("screen"))
        value = item.data(Qt.ItemDataRole.DecorationRole) if item else None
        return value if isinstance(value, QPixmap) else None

    def cell(self, row: int, key: str) -> str:
        item = self.steps.item(row, COLUMNS.index(key))
        return item.text() if item else ""

    # the header ------------------------------------------------------------------------------------------------

    def _show_header(self) -> None:
        record = self.record
        if record is None:
            self.instruction.setText(self.placeholder or self.tr("Choose a trajectory in the queue."))
            self.details.clear()
            self.judge.hide()
            self.banner.hide()
            self.split.setVisible(False)
            return
        self.split.setVisible(True)
        self.instruction.setText(record.instruction)
        self.judge.show_judgement(self.judged)
        collected = sum(1 for step in record.steps if step.origin == "collected")
        outcome = labels.label(labels.OUTCOME, record.label_outcome) if record.label_outcome else self.tr("not set")
        parts = [
            fill(self.tr("#%1"), record.id),
            record.app,
            self.tr("%n step(s)", "", collected),
            fill(self.tr("outcome: %1"), outcome),
        ]
        if record.collected_outcome:
            parts.append(fill(self.tr("collector said: %1"), labels.label(labels.OUTCOME, record.collected_outcome)))
        parts.append(fill(self.tr("review: %1"), labels.label(labels.REVIEW, record.review_status)))
        self.details.setText(" · ".join(parts))
        self._show_banner(record)

    def _show_banner(self, record: LabelledTrajectory) -> None:
        note = record.last_review
        decided = note is not None and note.status in (ReviewStatus.REJECTED, ReviewStatus.ACCEPTED)
        if note is None or note.status != record.review_status or not (decided or note.comment):
            self.banner.hide()  # only the decision in force, or a note the annotator left with their work
            return
        who = html.escape(note.reviewer or self.tr("someone"))
        when, comment = local_time(note.at), html.escape(note.comment or "").replace("\n", "<br>")
        if note.status == ReviewStatus.REJECTED:
            kind, text = "rejected", fill(self.tr("<b>Rejected by %1</b> on %2:<br>%3"), who, when, comment)
        elif note.status == ReviewStatus.ACCEPTED:
            kind, text = "accepted", fill(self.tr("<b>Accepted by %1</b> on %2. %3"), who, when, comment)
        else:
            kind, text = "note", fill(self.tr("<b>%1</b> on %2: %3"), who, when, comment)
        self.banner.setStyleSheet(BANNER_STYLES[kind])
        self.banner.setText(text)
        self.banner.show()

    # the steps -------------------------------------------------------------------------------------------------

    def _fill_row(self, row: int, step: LabelledStep) -> None:
        label, original = step.label, step.original
        position = f"{step.position}+" if step.origin == "inserted" else str(step.position)
        self._set(row, "position", position, step, tip=self._position_tip(step))
        self._set(row, "screen", "", step)
        self._set_verdict(row, step)
        for key, field in (("think", "think"), ("action", "action_text")):
            value = getattr(label, field)
            self._set(row, key, value if value is not None else getattr(original, field) or "", step, value is None)
        tool_call = describe_tool_call(label.tool_call if label.tool_call is not None else original.tool_call)
        if label.target_box:
            tool_call += "\n" + fill(self.tr("box %1"), json.dumps([round(v) for v in label.target_box]))
        if label.privacy_regions:  # masked by the export: the reviewer should know they are there
            tool_call += "\n" + fill(self.tr("privacy regions: %1"), str(len(label.privacy_regions)))
        self._set(row, "tool_call", tool_call, step, label.tool_call is None)

    def _set(
        self, row: int, key: str, text: str, step: LabelledStep, unlabelled: bool = False, tip: str = ""
    ) -> QTableWidgetItem:
        item = QTableWidgetItem(text)
        item.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        if unlabelled or step.removed:
            item.setForeground(QBrush(UNLABELLED_TEXT))  # grey: not what the trajectory will teach
        if unlabelled and text:
            font = item.font()
            font.setItalic(True)
            item.setFont(font)
            tip = self.tr("Not labelled: this is what was collected.")
        item.setToolTip(tip or text)
        self.steps.setItem(row, COLUMNS.index(key), item)
        return item

    def _set_verdict(self, row: int, step: LabelledStep) -> None:
        verdict = VERDICTS.get(step.label.verdict or "")
        lines = [translate(verdict[0]) if verdict else (step.label.verdict or self.tr("no verdict"))]
        if step.origin == "inserted":
            lines.append(self.tr("corrected step"))
        if step.removed:
            lines.append(self.tr("left out"))
        item = self._set(row, "verdict", "\n".join(lines), step, unlabelled=verdict is None)
        if verdict and not step.removed:
            item.setForeground(QBrush(QColor(verdict[1])))
            font = item.font()
            font.setBold(True)
            item.setFont(font)
        item.setToolTip("")

    def _position_tip(self, step: LabelledStep) -> str:
        if step.origin == "inserted":
            return fill(self.tr("Step %1: a corrected step, inserted by an annotator"), step.position)
        return fill(self.tr("Step %1, collected as step %2"), step.position, step.index + 1)

    def _fit_rows(self) -> None:
        """Rows as tall as their wrapped text, and never shorter than a thumbnail."""
        self.steps.resizeRowsToContents()
        for row in range(self.steps.rowCount()):
            if self.steps.rowHeight(row) < THUMBNAIL_HEIGHT + 8:
                self.steps.setRowHeight(row, THUMBNAIL_HEIGHT + 8)

    def _load_thumbnail(self, row: int, path: Path) -> None:
        generation = self._generation

        def read() -> QImage | None:
            # a thumbnail for a trajectory the reviewer has already left is not worth decoding
            return read_thumbnail(path) if generation == self._generation else None

        self.jobs.submit(
            self.tr("Loading a screenshot"),
            read,
            on_result=lambda image: self._thumbnail_arrived(generation, row, image),
            queue=THUMBNAIL_QUEUE,
        )

    def current_step(self) -> int | None:
        rows = self.steps.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def _show_chosen_step(self) -> None:
        """The chosen step large beside the table, with its labelled point or box."""
        row, record = self.current_step(), self.record
        if row is None or record is None or row >= len(record.steps) or self.locate is None:
            return
        self._screen_generation += 1
        generation, step = self._screen_generation, record.steps[row]
        path = self.locate(step.screenshot_sha256)
        self.step_screen.show_step(step, None, self.tr("Loading the screenshot…"))
        self.jobs.submit(
            self.tr("Loading a screenshot"),
            lambda: read_thumbnail(path, LARGE_HEIGHT) if generation == self._screen_generation else None,
            on_result=lambda image: self._large_arrived(generation, step, image),
            on_error=lambda error: self.step_screen.show_step(step, None, str(error)),
            queue=THUMBNAIL_QUEUE,
        )

    def _large_arrived(self, generation: int, step: LabelledStep, image: QImage | None) -> None:
        if image is not None and generation == self._screen_generation:
            self.step_screen.show_step(step, image)

    def _thumbnail_arrived(self, generation: int, row: int, image: QImage | None) -> None:
        item = self.steps.item(row, COLUMNS.index("screen"))
        if image is None or generation != self._generation or item is None:
            return
        item.setData(Qt.ItemDataRole.DecorationRole, QPixmap.fromImage(image))

    # language --------------------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        """Texts in the new language; the thumbnails stay (decoding them again would be wasted work)."""
        self.steps.setHorizontalHeaderLabels([translate(title) for title in TITLES])
        self._show_header()
        for row, step in enumerate(self.record.steps if self.record else []):
            thumbnail = self.thumbnail(row)
            self._fill_row(row, step)
            screen = self.steps.item(row, COLUMNS.index("screen"))
            if thumbnail is not None and screen is not None:
                screen.setData(Qt.ItemDataRole.DecorationRole, thumbnail)
        self._fit_rows()
