"""Where the annotation view's parts sit: the header on top, the canvas and the step panel side by side in a
splitter, the step strip below."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from annotator.ui.annotate.view import AnnotationView


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
    return splitter
