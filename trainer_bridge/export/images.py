"""The exported screenshots: each one resized once to the size the model is shown, written once."""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image

from annotator.llm.agent import model_image_png
from annotator.storage.blobs import BlobStore
from trainer_bridge.export.sft import ImageRef


class ExportImages:
    """Writes `folder/<sha256>-<w>x<h>.png` for each image asked for; a file already written is not redone."""

    def __init__(self, blobs: BlobStore, folder: Path) -> None:
        self.blobs, self.folder = blobs, folder
        self.written: set[str] = set()

    def png(self, ref: ImageRef) -> bytes:
        data = self.blobs.read_bytes(ref.sha256)
        if ref.size == ref.screen and data.startswith(b"\x89PNG"):
            return data  # the model is shown the screenshot as stored
        with Image.open(io.BytesIO(data)) as image:
            return model_image_png(image, ref.size)

    def path(self, ref: ImageRef) -> Path:
        """The file of `ref`, written now if it is not there yet."""
        path = self.folder / ref.file_name
        if ref.file_name not in self.written:
            self.folder.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".part")
            temporary.write_bytes(self.png(ref))
            os.replace(temporary, path)
            self.written.add(ref.file_name)
        return path
