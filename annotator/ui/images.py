"""Screenshots decoded into QImages off the GUI thread, safely.

The format is always named. Left to guess, Qt asks every image plugin whether it can read the bytes, and the SVG
plugin's guess makes a QTextStream, which takes Qt's signal-slot lock while this thread holds Python's GIL. The GUI
thread holds that lock while PySide asks Python (for the GIL) during a disconnect: the two waited on each other for
good (a hang seen in tests/ui/test_collect_fleet.py, eight phones decoding their screens at once).
"""

from __future__ import annotations

from typing import cast

from PySide6.QtGui import QImage

from annotator.storage.imports import media_type

QT_FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WEBP"}


def decode_image(data: bytes) -> QImage:
    """A PNG, JPEG or WebP screenshot as a QImage (safe off the GUI thread, unlike QPixmap); ValueError when it
    cannot be read."""
    kind = QT_FORMATS.get(media_type(data))
    # PySide6 takes the format as a str; its stub says bytes, which it refuses with a ValueError
    image = QImage.fromData(data, cast(bytes, kind)) if kind else QImage()
    if image.isNull():
        raise ValueError("the screenshot is not a readable PNG, JPEG or WebP image")
    return image
