"""Screenshots at the size a judge is shown them, made once and kept beside the workspace.

Decoding a 1080x2400 PNG and scaling it costs 40-80 ms of CPU, most of a judge request's own time, and two
judges compared on the same trajectories (or a run asked again after a failure) would pay it again for every
screenshot. The scaled copy (`annotator.imaging.resize`) is kept in the data folder's screenshot cache, named by
the original's sha256 and the size (`annotator.imaging.kept_copies`), and read from there afterwards. Collection
makes the copies the built-in image policy shows while the phone is still being driven (`ScreenCache.prepare`),
so a judge run is bound by its endpoint, not by this machine's cores (docs/adr/0004).
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

from annotator.domain.coords import fit_within
from annotator.domain.geometry import ScreenSize
from annotator.domain.judge_settings import ImagePolicy
from annotator.imaging.kept_copies import CACHE_FOLDER, KeptCopies, variant_of
from annotator.imaging.resize import resized_png
from annotator.storage.blobs import BlobStore
from annotator.storage.workspace import Workspace

log = logging.getLogger(__name__)


def workspace_screens(workspace: Workspace) -> ScreenCache:
    return ScreenCache(workspace.blobs, workspace.data_dir / CACHE_FOLDER)


class ScreenCache:
    def __init__(self, blobs: BlobStore, folder: Path | None) -> None:
        """`folder` None keeps nothing (each screenshot is scaled when asked for)."""
        self.blobs, self.copies = blobs, KeptCopies(folder)

    def path(self, sha256: str, size: ScreenSize) -> Path | None:
        return self.copies.path(sha256, variant_of(size))

    def png(self, sha256: str, original: ScreenSize, size: ScreenSize) -> bytes:
        """The screenshot `sha256` (of size `original`) at `size`; OSError/BlobError/ValueError when it cannot be
        read."""
        if size == original:
            return self.blobs.read_bytes(sha256)  # sent as stored: nothing to decode
        variant = variant_of(size)
        data = self.copies.read(sha256, variant)
        if data is None:
            data = resized_png(self.blobs.read_bytes(sha256), size)
            self.copies.keep(sha256, variant, data)
        return data

    def prepare(self, screenshot_png: bytes, original: ScreenSize, policy: ImagePolicy | None = None) -> None:
        """Make the copy of a screenshot just stored that `policy` (default: the built-in one) will show. A
        failure only means a judge run scales it itself, so it is logged, not raised."""
        self.prepare_sizes(screenshot_png, original, [judge_size(original, policy)])

    def prepare_sizes(self, screenshot_png: bytes, original: ScreenSize, sizes: list[ScreenSize]) -> None:
        """Make the copies at `sizes` from one decode (the judge's and an export's, at collection); a failure is
        logged: a judge run or an export then scales the screenshot itself."""
        try:
            self.copies.prepare(hashlib.sha256(screenshot_png).hexdigest(), screenshot_png, original, sizes)
        except (OSError, ValueError) as error:
            log.warning("copy of a screenshot not made: %s", error)


def judge_size(original: ScreenSize, policy: ImagePolicy | None = None) -> ScreenSize:
    """The size `policy` (default: the built-in one) shows a screenshot of `original` at."""
    return fit_within(original, (policy or ImagePolicy()).max_side)


class MemoryScreens:
    """The screenshots of a trajectory held only in memory (a rollout), by sha256, scaled when asked for."""

    def __init__(self, pngs: dict[str, bytes]) -> None:
        self.pngs = pngs

    @classmethod
    def of(cls, screenshots: list[bytes]) -> MemoryScreens:
        return cls({hashlib.sha256(png).hexdigest(): png for png in screenshots})

    def png(self, sha256: str, original: ScreenSize, size: ScreenSize) -> bytes:
        data = self.pngs.get(sha256)
        if data is None:
            raise ValueError(f"no screenshot {sha256} was given with the trajectory")
        return data if size == original else resized_png(data, size)
