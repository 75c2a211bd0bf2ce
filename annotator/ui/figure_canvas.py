"""A matplotlib canvas for Qt whose idle redraws ride on a timer the canvas owns.

matplotlib's own ``draw_idle`` posts a one-shot timer that holds the canvas and outlives it, so a redraw can
reach a canvas that Qt has deleted meanwhile (a view closed while a redraw was pending), which PySide6 can take
down with a segmentation fault. A child timer is deleted with its canvas and never fires after it. Imported by
the views that draw charts when they first draw (matplotlib is slow to import).
"""

from __future__ import annotations

import shiboken6
from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QTimer


class IdleDrawCanvas(FigureCanvasQTAgg):
    def __init__(self, figure: Figure) -> None:
        self._idle: QTimer | None = None  # matplotlib may ask for a redraw while it sets the canvas up
        super().__init__(figure)
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.timeout.connect(self._draw_now)

    def draw_idle(self) -> None:
        """Redraw once control returns to the event loop; many requests before then make one draw."""
        if self._idle is not None and shiboken6.isValid(self._idle):
            self._idle.start(0)

    def _draw_now(self) -> None:
        if shiboken6.isValid(self) and self.width() > 0 and self.height() > 0:
            self.draw()
