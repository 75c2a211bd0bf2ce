"""The export's images are made on the pool a batch ahead of the writer, and a failure reaches the writer."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image

from annotator.domain.geometry import ScreenSize
from annotator.storage.blobs import BlobMissingError, BlobStore
from trainer_bridge.export.images import BATCH, ExportImages, prepared
from trainer_bridge.export.sft import ImageRef

SIZE = ScreenSize(12, 20)


def stored_refs(blobs: BlobStore, count: int) -> list[ImageRef]:
    refs = []
    for shade in range(count):
        buffer = io.BytesIO()
        Image.new("RGB", (SIZE.width, SIZE.height), (shade, 0, 0)).save(buffer, "PNG")
        refs.append(ImageRef(blobs.put_bytes(buffer.getvalue()).sha256, SIZE, SIZE))
    return refs


def test_the_next_batch_is_being_made_while_the_first_is_handed_to_the_writer(tmp_path: Path) -> None:
    blobs = BlobStore(tmp_path / "blobs")
    refs = stored_refs(blobs, 2 * BATCH + 3)
    images = ExportImages(blobs, tmp_path / "images")
    try:
        samples = [SimpleNamespace(images=(ref,)) for ref in refs]
        stream = prepared(samples, images)  # type: ignore[arg-type]
        first = next(stream)
        second_batch = {images.name(ref) for ref in refs[BATCH : 2 * BATCH]}
        assert second_batch <= set(images.making) | set(images.ready)
        handed = [first, *stream]
        assert handed == samples
        assert [images.png(ref) for ref in refs] == [blobs.read_bytes(ref.sha256) for ref in refs]
        assert not images.making
    finally:
        images.close()


def test_a_screenshot_missing_from_the_store_fails_the_writer_that_asks_for_it(tmp_path: Path) -> None:
    blobs = BlobStore(tmp_path / "blobs")
    refs = stored_refs(blobs, 3)
    blobs.path(refs[1].sha256).unlink()
    images = ExportImages(blobs, tmp_path / "images")
    try:
        images.prepare(refs)
        assert images.png(refs[0]) == blobs.read_bytes(refs[0].sha256)
        with pytest.raises(BlobMissingError, match=refs[1].sha256):
            images.png(refs[1])
    finally:
        images.close()
