"""Writing images: PNG bytes, and PNG bytes as a data URL for a chat message."""

from __future__ import annotations

import base64
import io

from PIL import Image


def png_bytes(image: Image.Image) -> bytes:
    # Lossless but lightly compressed: on loopback, a LAN or a local disk the time to compress harder costs more
    # than the bytes it saves.
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


def data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")
