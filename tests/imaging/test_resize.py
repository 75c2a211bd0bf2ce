"""One resize for every screenshot a model or a judge is shown: the agent's, the judge's and the export's."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from PIL import Image

from annotator.domain.coords import ResizeConfig
from annotator.domain.geometry import ScreenSize
from annotator.imaging.decode import UnreadableImage
from annotator.imaging.resize import resized, resized_png
from annotator.judge.screens import ScreenCache
from annotator.llm import build_agent_messages
from annotator.storage.blobs import BlobStore
from tests.factories import make_png
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.sft import ImageRef

SCREEN = ScreenSize(1080, 2400)


def agent_image(screenshot: bytes, resize: ResizeConfig) -> tuple[ScreenSize, bytes]:
    request = build_agent_messages("打开淘宝", [], [screenshot], SCREEN, resize=resize)
    parts = [
        part for message in request.messages if isinstance(message["content"], list) for part in message["content"]
    ]
    (url,) = [part["image_url"]["url"] for part in parts if part["type"] == "image_url"]
    return request.resized, base64.b64decode(url.split(",", 1)[1])


def test_the_agent_the_judge_and_the_export_show_the_same_pixels_at_the_same_size(tmp_path: Path) -> None:
    screenshot = make_png(SCREEN.width, SCREEN.height, seed=3)
    blobs = BlobStore(tmp_path / "blobs")
    sha256 = blobs.put_bytes(screenshot).sha256
    # A processor limit that shrinks the screen more than twice on both axes, where a box reduction can come first.
    size, shown_to_agent = agent_image(screenshot, ResizeConfig(max_pixels=500 * 28 * 28))
    assert size == ScreenSize(392, 924)
    shown_to_judge = ScreenCache(blobs, None).png(sha256, SCREEN, size)
    export = ExportImages(blobs, tmp_path / "images", mask=None)
    try:
        shown_in_export = export.png(ImageRef(sha256, SCREEN, size))
    finally:
        export.close()
    assert shown_to_agent == shown_to_judge == shown_in_export
    with Image.open(io.BytesIO(shown_to_agent)) as image:
        assert (image.size, image.mode) == ((392, 924), "RGB")


@pytest.mark.parametrize("mode", ["RGBA", "P", "L"])
def test_any_image_becomes_rgb_of_exactly_the_size_asked_for(mode: str) -> None:
    image = Image.new(mode, (300, 500))
    for size in (ScreenSize(100, 167), ScreenSize(308, 504), ScreenSize(300, 500)):
        made = resized(image, size)
        assert (made.size, made.mode) == ((size.width, size.height), "RGB")


def test_a_png_already_at_its_size_is_passed_on_as_it_is_and_anything_else_is_made() -> None:
    png = make_png(280, 560)
    assert resized_png(png, ScreenSize(280, 560)) is png
    jpeg = io.BytesIO()
    Image.open(io.BytesIO(png)).save(jpeg, "JPEG")
    made = resized_png(jpeg.getvalue(), ScreenSize(280, 560))
    assert made.startswith(b"\x89PNG") and Image.open(io.BytesIO(made)).size == (280, 560)
    with pytest.raises(UnreadableImage, match="not a readable image"):
        resized_png(b"<html>404</html>", ScreenSize(280, 560))
