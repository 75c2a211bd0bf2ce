"""Copies of screenshots derived once (scaled for a judge, resized and masked for a training export) and kept
in a cache folder of the data folder, so the CPU spent decoding, resizing and encoding is spent once.

A copy is named by the original's sha256 and what was done to it (`<sha256>-<variant>.png`, the variant being
`<width>x<height>` and, for a masked copy, the mask and its regions), written atomically (a temporary file,
then a rename) and read back only when it is a whole PNG. The judge and the export resize alike
(`annotator.imaging.resize`), so they share one folder: a copy one made is the copy the other would make. The
folder is a cache: deleting it loses nothing, and a copy that cannot be written only costs the next run the work.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from annotator.domain.geometry import ScreenSize
from annotator.imaging.decode import PNG_SIGNATURE, decoded
from annotator.imaging.encode import png_bytes
from annotator.imaging.resize import resized

PNG_END = b"IEND\xaeB`\x82"  # the IEND chunk with its CRC: a file cut short lacks it
# In the data folder. The copies are what annotator.imaging.resize and .mask make: a new name if that changes.
CACHE_FOLDER = "cache/screens"


class KeptCopies:
    def __init__(self, folder: Path | None) -> None:
        """`folder` None keeps nothing: every copy is made when asked for."""
        self.folder = folder

    def path(self, sha256: str, variant: str) -> Path | None:
        if self.folder is None:
            return None
        return self.folder / sha256[:2] / f"{sha256}-{variant}.png"

    def read(self, sha256: str, variant: str) -> bytes | None:
        """The kept copy, or None when there is none (or only a damaged one)."""
        path = self.path(sha256, variant)
        if path is None:
            return None
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return data if data.startswith(PNG_SIGNATURE) and data.endswith(PNG_END) else None

    def has(self, sha256: str, variant: str) -> bool:
        path = self.path(sha256, variant)
        return path is not None and path.is_file()

    def keep(self, sha256: str, variant: str, data: bytes) -> None:
        """Write the copy; a full or read-only disk only costs the next run the work again."""
        path = self.path(sha256, variant)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".part-")
        except OSError:
            return
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, path)
        except OSError:
            Path(temporary).unlink(missing_ok=True)

    def prepare(self, sha256: str, png: bytes, original: ScreenSize, sizes: Iterable[ScreenSize]) -> int:
        """Make and keep the copies of a screenshot at `sizes` that are not kept yet, decoding it once; how many
        were made. UnreadableImage (a ValueError) or OSError when the screenshot cannot be decoded."""
        wanted = {size for size in sizes if size != original and not self.has(sha256, variant_of(size))}
        if self.folder is None or not wanted:
            return 0
        with decoded(png) as image:
            rgb = image.convert("RGB") if image.mode != "RGB" else image
            for size in sorted(wanted, key=lambda size: (size.width, size.height)):
                self.keep(sha256, variant_of(size), png_bytes(resized(rgb, size)))
        return len(wanted)


def variant_of(size: ScreenSize) -> str:
    """The name part of an unmasked copy at `size`."""
    return f"{size.width}x{size.height}"
