"""Writers: the same samples in the layout each consumer reads (`FORMATS` names them; see each module).

Every writer takes the samples of each split (made as it asks for them), the output folder, the images and
the model space, and writes its files; it returns the sha256 of the files it already hashed (by path relative to
the output folder), so that the manifest, written afterwards by the caller, need not read them again."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.formats import easyr1, jsonl, llamafactory, trl
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.sft import Sample

Writer = Callable[[dict[str, Iterable[Sample]], Path, ExportImages, ModelSpace, str], dict[str, str]]
WRITERS: dict[str, Writer] = {
    "trl": trl.write_trl,
    "llamafactory": llamafactory.write_llamafactory,
    "easyr1": easyr1.write_easyr1,
    "jsonl": jsonl.write_jsonl,
}
FORMATS = tuple(WRITERS)
SFT_ONLY = ("llamafactory",)
# Where the screenshots are (the manifest's `image_storage`): in each row that shows them, as the `{bytes, path}` PNG
# structs `datasets`' `Image` feature reads (self-contained: TRL and EasyR1 need no image folder configured), or in
# `images/<ab>/` (`ExportImages.relative`), once each, named by the rows relative to the output folder.
IMAGE_STORAGE = {"trl": "embedded", "llamafactory": "files", "easyr1": "embedded", "jsonl": "files"}
