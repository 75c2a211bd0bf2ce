"""Reading image bytes: the size from the header, a verified decode, the pixels.

Images come from phones but also from other people's bundles and public datasets, so a header may claim any size:
one that claims more than MAX_PIXELS is refused before its pixels are decoded (a decompression bomb would take
gigabytes). Pillow's own guard (Image.MAX_IMAGE_PIXELS) only warns below twice its limit.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path

from PIL import Image

Picture = Image.Image  # decoded pixels, for code that holds images without doing pixel work itself
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_PIXELS = 8000 * 8000  # far beyond any phone or tablet screen
# What Pillow raises for bytes that are not an image, are cut short or claim too many pixels.
READ_ERRORS = (OSError, ValueError, SyntaxError, Image.DecompressionBombError)


class UnreadableImage(ValueError):
    """Bytes that are not an image Pillow can read whole, or that claim too many pixels."""


def too_many_pixels(size: tuple[int, int]) -> str | None:
    """Why an image of `size` is refused (a sentence), or None when its size is plausible."""
    width, height = size
    if width * height > MAX_PIXELS:
        return f"its header claims {width}x{height} pixels, more than the {MAX_PIXELS} an image may have"
    return None


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the image header, or None when the bytes are not an image (or claim too many pixels)."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            size = image.size
    except READ_ERRORS:
        return None
    return None if too_many_pixels(size) else size


def header_size(source: bytes | Path) -> tuple[int, int]:
    """Width and height from the header of image bytes or an image file, nothing decoded; UnreadableImage saying
    why not: "is not a readable image (Pillow's words)", or the size the header claims."""
    try:
        with Image.open(io.BytesIO(source) if isinstance(source, bytes) else source) as image:
            size = image.size
    except READ_ERRORS as error:
        raise UnreadableImage(f"is not a readable image ({error})") from None
    if problem := too_many_pixels(size):
        raise UnreadableImage(problem)
    return size


def checked_image_size(data: bytes) -> tuple[int, int]:
    """Like image_size, but also checks the whole file (chunk CRCs), so a truncated PNG is caught; UnreadableImage
    saying why not (Pillow's words, or the size the header claims)."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            size = image.size  # read from the header; verify() leaves the image unusable after
            problem = too_many_pixels(size)
            if problem is None:
                image.verify()
    except READ_ERRORS as error:
        raise UnreadableImage(str(error) or type(error).__name__) from None
    if problem is not None:
        raise UnreadableImage(problem)
    return size


def verified_image_size(data: bytes) -> tuple[int, int] | None:
    """checked_image_size, or None when the bytes are not a whole image of a plausible size."""
    try:
        return checked_image_size(data)
    except UnreadableImage:
        return None


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
        problem = too_many_pixels(image.size)
        if problem is None:
            image.load()
    except READ_ERRORS as error:
        raise UnreadableImage(f"not a readable image ({len(data)} bytes): {error}") from None
    if problem is not None:
        raise UnreadableImage(problem)
    return image


def decoded_rgb(data: bytes) -> Image.Image:
    """The image's pixels as RGB; UnreadableImage (a ValueError) saying why when it cannot be decoded."""
    with decoded(data) as image:
        return image.convert("RGB")
