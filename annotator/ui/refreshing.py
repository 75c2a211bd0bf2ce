"""What the Models and Runs views share: they read again when shown after a while (a run or an evaluation may have
started or ended meanwhile), and F5 refreshes the view that has the focus, before the window's F5 (the trajectory
list's) acts."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QKeyCombination, Qt
from PySide6.QtGui import QKeyEvent, QShowEvent
from PySide6.QtWidgets import QWidget

STALE_AFTER_S = 5.0
REFRESH_KEY = QKeyCombination(Qt.KeyboardModifier.NoModifier, Qt.Key.Key_F5)


class RefreshingView(QWidget):
    """A view with `workspace`, `loaded_at` (monotonic seconds of its last read, or None), `_loading` and
    `refresh()`."""

    workspace: object | None
    loaded_at: float | None
    _loading: bool

    def refresh(self) -> None:
        raise NotImplementedError

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        stale = self.loaded_at is None or time.monotonic() - self.loaded_at > STALE_AFTER_S
        if self.workspace is not None and stale and not self._loading:
            self.refresh()

    def event(self, event: QEvent) -> bool:
        is_override = event.type() == QEvent.Type.ShortcutOverride
        if is_override and isinstance(event, QKeyEvent) and event.keyCombination() == REFRESH_KEY:
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.keyCombination() == REFRESH_KEY:
            self.refresh()
            return
        super().keyPressEvent(event)
