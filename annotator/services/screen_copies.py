"""The resized copies of each new screenshot, made once when it is stored so that a judge run and the first export
read them instead of decoding it (docs/adr/0004, 0006): at collection the built-in judge policy's size and the
default export size (Mobile-R1's halved screens), from one decode; on a dataset import the export's only."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import default_export_space
from annotator.judge.screens import judge_size, workspace_screens
from annotator.storage.workspace import Workspace

Prepare = Callable[[bytes, ScreenSize], None]


def copy_sizes(screen: ScreenSize) -> list[ScreenSize]:
    """The copies collection makes: the judge's and the default export's."""
    return [judge_size(screen), export_copy_sizes(screen)[0]]


def export_copy_sizes(screen: ScreenSize) -> list[ScreenSize]:
    """The copy an import makes: the default export's (imported data is seldom judged)."""
    return [default_export_space().image_size(screen)]


def copy_maker(workspace: Workspace, sizes: Callable[[ScreenSize], list[ScreenSize]] = copy_sizes) -> Prepare:
    """What makes the copies of one screenshot just stored (a failure is logged, not raised)."""
    screens = workspace_screens(workspace)
    return lambda png, screen: screens.prepare_sizes(png, screen, sizes(screen))


class CopyQueue:
    """The default export's copies made on every core while a dataset import goes on; at most a few screenshots
    wait in memory (the import waits for a free place), and leaving the `with` block waits for all of them."""

    def __init__(self, workspace: Workspace) -> None:
        workers = os.cpu_count() or 1
        self.make = copy_maker(workspace, export_copy_sizes)
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="screen-copies")
        self.places = threading.BoundedSemaphore(4 * workers)

    def add(self, png: bytes, screen: ScreenSize) -> None:
        self.places.acquire()
        future = self.pool.submit(self.make, png, screen)
        future.add_done_callback(lambda _: self.places.release())

    def __enter__(self) -> CopyQueue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown(wait=True)
