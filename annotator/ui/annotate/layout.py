"""Where the annotation view's parts sit: the header on top, the canvas and the step panel side by side in a
splitter, the step strip below; in a short window (the smallest is 760 x 560) the strip's tiles are small, so that
the screenshot and the editors keep the room."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from annotator.ui.annotate.view import AnnotationView

COMPACT_BELOW = 620  # the view's height under which the step strip's tiles are small


def lay_out(view: AnnotationView) -> QSplitter:
    """Lay the view's parts out; the splitter between the canvas and the panel is returned (it is sized later)."""
    left = QWidget(view)
    left_layout = QVBoxLayout(left)
    left_layout.setContentsMargins(0, 0, 0, 2)
    left_layout.addWidget(view.canvas, 1)
    left_layout.addWidget(view.canvas_hint)
    splitter = QSplitter(Qt.Orientation.Horizontal, view)
    splitter.addWidget(left)
    splitter.addWidget(view.panel.scrolling(view))
    splitter.setChildrenCollapsible(False)
    layout = QVBoxLayout(view)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(view.header)
    layout.addWidget(splitter, 1)
    layout.addWidget(view.strip)
    layout.addStretch(0)  # takes the room while no trajectory is open (the splitter takes it otherwise)
    view.installEventFilter(ShortWindow(view))
    return splitter


class ShortWindow(QObject):
    """Watches the view's height and makes the step strip compact while it is short."""

    def __init__(self, view: AnnotationView) -> None:
        super().__init__(view)
        self.view = view

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view and event.type() == QEvent.Type.Resize:
            self.view.strip.set_compact(self.view.height() < COMPACT_BELOW)
        return False
