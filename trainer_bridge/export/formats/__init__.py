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
# Each format's writers by where its screenshots go (the manifest's `image_storage`): in each row that shows them, as
# the `{bytes, path}` PNG structs `datasets`' `Image` feature reads (`embedded`: TRL needs no image folder), or in
# `images/<ab>/` (`ExportImages.relative`), once each, named by the rows relative to the output folder (`files`).
# A format's first storage is its default: EasyR1 reads image paths (its `data.image_dir`), and files hold each
# screenshot once where embedded rows repeat it in every sample whose history shows it.
WRITERS: dict[tuple[str, str], Writer] = {
    ("trl", "embedded"): trl.write_trl,
    ("llamafactory", "files"): llamafactory.write_llamafactory,
    ("easyr1", "files"): easyr1.write_easyr1_files,
    ("easyr1", "embedded"): easyr1.write_easyr1,
    ("jsonl", "files"): jsonl.write_jsonl,
}
FORMATS = tuple(dict.fromkeys(fmt for fmt, _ in WRITERS))
IMAGE_STORAGES = {fmt: tuple(storage for name, storage in WRITERS if name == fmt) for fmt in FORMATS}
SFT_ONLY = ("llamafactory",)
