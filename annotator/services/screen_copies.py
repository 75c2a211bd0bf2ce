"""The resized copies of each new screenshot, made once when it is stored (collection, dataset and bundle
imports) so that a judge run and the first export read them instead of decoding it (docs/adr/0004, 0006):
the built-in judge policy's size and the default export size (Mobile-R1's halved screens), from one decode."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import default_export_space
from annotator.judge.screens import judge_size, workspace_screens
from annotator.storage.workspace import Workspace

Prepare = Callable[[bytes, ScreenSize], None]


def copy_sizes(screen: ScreenSize) -> list[ScreenSize]:
    return [judge_size(screen), default_export_space().image_size(screen)]


def copy_maker(workspace: Workspace) -> Prepare:
    """What makes the copies of one screenshot just stored (a failure is logged, not raised)."""
    screens = workspace_screens(workspace)
    return lambda png, screen: screens.prepare_sizes(png, screen, copy_sizes(screen))


class CopyQueue:
    """Copies made on every core while an import goes on; at most a few screenshots wait in memory (the import
    waits for a free place), and leaving the `with` block waits for all of them."""

    def __init__(self, workspace: Workspace) -> None:
        workers = os.cpu_count() or 1
        self.make = copy_maker(workspace)
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="screen-copies")
        self.places = threading.BoundedSemaphore(4 * workers)

    def add(self, png: bytes, screen: ScreenSize) -> None:
        self.places.acquire()
        future = self.pool.submit(self.make, png, screen)
        future.add_done_callback(lambda _: self.places.release())

    def add_stored(self, workspace: Workspace, screenshots: Iterable[tuple[str, ScreenSize]]) -> None:
        """The copies of screenshots already in the blob store (by sha256 and size): a bundle's."""
        for sha256, screen in screenshots:
            if workspace.blobs.exists(sha256):
                self.add(workspace.blobs.read_bytes(sha256), screen)

    def __enter__(self) -> CopyQueue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown(wait=True)
