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
    opened = Signal(int)  # a trajectory opened in the annotation view: the review queue selects it when it shows

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._annotating: int | None = None
        self.last_opened: int | None = None  # the trajectory opened last in the annotation view
        self.offered: tuple[str, str] | None = None  # the last endpoint offered: for views made after the offer
        self.endpoint_offered.connect(self._remember_offer)

    @property
    def annotating(self) -> int | None:
        """The trajectory open in the annotation view while it is on screen."""
        return self._annotating

    @annotating.setter
    def annotating(self, trajectory_id: int | None) -> None:
        self._annotating = trajectory_id
        # Another trajectory on screen there is an opening too ([ and ] open them inside the view); the same one
        # shown again (going back to the view) is not.
        if trajectory_id is not None and trajectory_id != self.last_opened:
            self.open(trajectory_id)

    def _remember_offer(self, base_url: str, model: str) -> None:
        self.offered = (base_url, model)

    def open(self, trajectory_id: int) -> None:
        """Say that a trajectory was opened for annotation (the window says so for every view that opens one)."""
        self.last_opened = trajectory_id
        self.opened.emit(trajectory_id)

    def announce(self, changes: Changes) -> None:
        self.changed.emit(changes)

    def save_pending(self) -> None:
        """Connected views save synchronously: when this returns, their edits are queued ahead of any write."""
        self.save_requested.emit()
