"""Reading image bytes: the header's size, the verified decode collection and imports use, and clear errors."""

from __future__ import annotations

import pytest

from annotator.imaging.decode import UnreadableImage, decoded, image_size, png_header_size, verified_image_size
from tests.factories import make_png


def test_a_whole_png_has_its_size_every_way() -> None:
    png = make_png(120, 240)
    assert image_size(png) == verified_image_size(png) == png_header_size(png) == (120, 240)
    assert decoded(png).size == (120, 240)


def test_a_png_cut_short_has_a_header_but_fails_the_verified_read_and_the_decode() -> None:
    cut = make_png(120, 240)[:-30]
    assert image_size(cut) == (120, 240)
    assert verified_image_size(cut) is None
    with pytest.raises(UnreadableImage) as raised:
        decoded(cut)
    assert "\n" not in str(raised.value) and "not a readable image" in str(raised.value)


@pytest.mark.parametrize("data", [b"", b"not an image at all", b"\x89PNG\r\n\x1a\n", b"GIF89a"])
def test_bytes_that_are_no_image_have_no_size(data: bytes) -> None:
    assert image_size(data) is None and verified_image_size(data) is None
    with pytest.raises(ValueError, match="not a readable image"):
        decoded(data)
