"""The page that holds one view in the main window: it scrolls only when the window is smaller than the view's
minimum, never because of the view's preferred height.

A QScrollArea that resizes its widget asks a widget whose layout wraps words (a QLabel with word wrap anywhere
inside it) for its height-for-width, which Qt computes from the preferred sizes: the Annotate view then wanted
about 620 px and scrolled its filmstrip out of sight in a window 640 px high, though it fits in 330. Between the
scroll area and the view sits this plain widget without a layout, which reports the view's minimum and fills
whatever room it gets.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QWidget


class _Holder(QWidget):
    def __init__(self, view: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        view.setParent(self)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)  # no height-for-width

    def minimumSizeHint(self) -> QSize:
        return self.view.minimumSizeHint().expandedTo(self.view.minimumSize())

    def sizeHint(self) -> QSize:
        return self.view.sizeHint().expandedTo(self.minimumSizeHint())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.view.setGeometry(self.rect())

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # the view's minimum changed: the scroll area sizes the page again
        return super().event(event)


def view_page(view: QWidget, parent: QWidget) -> QScrollArea:
    """A scroll area around `view` for the window's stack of views."""
    page = QScrollArea(parent)
    page.setWidgetResizable(True)
    page.setFrameShape(QFrame.Shape.NoFrame)
    page.setWidget(_Holder(view, page))
    return page
