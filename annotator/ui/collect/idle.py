"""The phone between sessions: screenshots and unrecorded actions, each a short job on the phone's own queue."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

from annotator.domain import actions as act
from annotator.services import live_collect
from annotator.services.live_collect import Phone
from annotator.ui.collect.session import decode
from annotator.ui.i18n import fill
from annotator.ui.workers import Jobs


class IdlePhone(QObject):
    """Only the newest request's screen is shown: `forget()` (a session starting) drops those still on the way."""

    screen_taken = Signal(QImage)
    failed = Signal(object, object)  # Phone, the exception

    def __init__(self, jobs: Jobs, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self._generation = 0

    def screenshot(self, phone: Phone) -> None:
        self._submit(phone, self.tr("Taking a screenshot"), lambda: decode(live_collect.screenshot(phone)))

    def perform(self, phone: Phone, action: act.Action) -> None:
        """Do `action` without recording it, then show the screen (to bring the phone to a task's start)."""
        title = fill(self.tr("Sending %1 to %2"), action.name, phone.serial)
        self._submit(phone, title, lambda: decode(live_collect.perform(phone, action)))

    def forget(self) -> None:
        self._generation += 1

    def _submit(self, phone: Phone, title: str, work: Callable[[], QImage]) -> None:
        self._generation += 1
        generation = self._generation
        self.jobs.submit(
            title,
            work,
            on_result=lambda image: self._arrived(generation, image),
            on_error=lambda error: self._failed(generation, phone, error),
            queue=phone.queue,
        )

    def _arrived(self, generation: int, image: QImage) -> None:
        if generation == self._generation:
            self.screen_taken.emit(image)

    def _failed(self, generation: int, phone: Phone, error: BaseException) -> None:
        if generation == self._generation:
            self.failed.emit(phone, error)
