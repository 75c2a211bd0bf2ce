"""Reading image bytes: the size from the header, a verified decode, the pixels."""

from __future__ import annotations

import io
import struct

from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# What Pillow raises for bytes that are not an image, are cut short or claim too many pixels.
READ_ERRORS = (OSError, ValueError, SyntaxError, Image.DecompressionBombError)


class UnreadableImage(ValueError):
    """Bytes that are not an image Pillow can read whole."""


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the image header, or None when the bytes are not an image."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except READ_ERRORS:
        return None


def verified_image_size(data: bytes) -> tuple[int, int] | None:
    """Like image_size, but also checks the whole file (chunk CRCs), so a truncated PNG is caught."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            size = image.size  # read from the header; verify() leaves the image unusable after
            image.verify()
    except READ_ERRORS:
        return None
    return size


def png_header_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG from its IHDR chunk without any decoding, or None when `data` is no PNG."""
    if not data.startswith(PNG_SIGNATURE) or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def decoded(data: bytes) -> Image.Image:
    """The image with its pixels loaded; UnreadableImage (a ValueError) saying why when it cannot be."""
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except READ_ERRORS as error:
        raise UnreadableImage(f"not a readable image ({len(data)} bytes): {error}") from None
    return image
