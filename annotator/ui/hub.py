"""What the views share without knowing one another (napari's events, Anki's operation hooks).

Every write is announced with what it changed (``annotator.services.changes.Changes``), and each view decides
for itself whether it shows something that changed: the browser refreshes its rows, the annotation view
reloads the trajectory it shows when a reviewer decided on it. The window creates one hub and gives it to the
views; a view made alone (in a test) makes its own.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from annotator.services.changes import Changes


class Hub(QObject):
    changed = Signal(object)  # Changes
    save_requested = Signal()  # write every pending edit now: a decision is about to act on the labels
    endpoint_offered = Signal(str, str)  # base URL, model: a built-in endpoint any view may use

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.annotating: int | None = None  # the trajectory open in the annotation view while it is on screen

    def announce(self, changes: Changes) -> None:
        self.changed.emit(changes)

    def save_pending(self) -> None:
        """Connected views save synchronously: when this returns, their edits are queued ahead of any write."""
        self.save_requested.emit()
