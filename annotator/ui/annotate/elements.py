"""The UI elements of each step's screen (its uiautomator dump), read on a worker once per step and kept while
the trajectory is open: the canvas uses them for hover help and Ctrl+click boxes."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

from annotator.device.hierarchy import UiNode
from annotator.domain.trajectory import LabelledStep
from annotator.services.annotation import load_elements
from annotator.storage.blobs import BlobStore
from annotator.ui.workers import Jobs


class ScreenElements:
    def __init__(self, jobs: Jobs, shown: Callable[[int, list[UiNode]], None]) -> None:
        """`shown(step_id, elements)` is called on the GUI thread when the elements of the newest step asked for
        arrive."""
        self.jobs, self.shown = jobs, shown
        self.known: dict[int, list[UiNode]] = {}
        self._generation = 0  # the newest request; an older answer is kept but not shown

    def clear(self) -> None:
        self.known.clear()

    def of(self, step: LabelledStep, blobs: BlobStore | None) -> list[UiNode]:
        """What is known of the step's elements now ([] until read); reads them when they are not known."""
        if step.id is not None and step.id not in self.known and blobs is not None:
            self._generation += 1
            generation, step_id = self._generation, step.id
            self.jobs.submit(
                QCoreApplication.translate("AnnotationView", "Reading the screen's elements"),
                lambda: load_elements(blobs, step),
                on_result=lambda elements: self._arrived(generation, step_id, elements),
            )
        return self.known.get(step.id or 0, [])

    def _arrived(self, generation: int, step_id: int, elements: list[UiNode]) -> None:
        self.known[step_id] = elements
        if generation == self._generation:
            self.shown(step_id, elements)
