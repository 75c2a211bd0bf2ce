"""`trl`: a `datasets.DatasetDict` at the output folder in `save_to_disk`'s layout (`load_from_disk(OUT)`, one key
per split) and `parquet/<split>.parquet`. Conversational `prompt` (and `completion` for SFT; `answer` and the
ground-truth columns for GRPO, which TRL passes to the reward functions), an `images` column of `Image` features and
the metadata columns. Every message's content is a list of parts, because Arrow needs one type per column.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.formats.common import METADATA_TYPES, columns, parts, stage_features
from trainer_bridge.export.formats.tables import write_saved_dataset, write_tables
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.sft import Sample


def trl_rows(samples: Iterable[Sample], images: ExportImages, space: ModelSpace) -> Iterator[dict[str, Any]]:
    for sample in samples:
        row = columns(sample, space)
        row["prompt"] = [{"role": m["role"], "content": parts(m["content"])} for m in sample.prompt]
        if sample.ground_truth is None:
            row["completion"] = [{"role": "assistant", "content": parts(sample.completion)}]
        row["images"] = [{"bytes": images.png(ref), "path": images.name(ref)} for ref in sample.images]
        yield row


def trl_features(stage: str) -> Any:
    from datasets import Features, Image, List, Value

    message = {"role": Value("string"), "content": List({"type": Value("string"), "text": Value("string")})}
    features: dict[str, Any] = {name: Value(kind) for name, kind in METADATA_TYPES.items()}
    features |= {"prompt": List(message), "images": List(Image())} | stage_features(stage)
    if stage == "sft":
        features["completion"] = List(message)
    return Features(features)


def write_trl(
    samples_by_split: dict[str, Iterable[Sample]], out: Path, images: ExportImages, space: ModelSpace, stage: str
) -> dict[str, str]:
    """Image bytes go into the Arrow and Parquet files, so OUT is self-contained. Rows are written as they are made,
    never all held in memory, to `<split>/data-00000-of-00001.arrow` and `parquet/<split>.parquet` at once, both
    hashed on the way; `save_to_disk` would copy every byte again (see `tables`)."""
    features = trl_features(stage)
    (out / "parquet").mkdir(parents=True, exist_ok=True)
    known: dict[str, str] = {}
    for split, samples in samples_by_split.items():
        (out / split).mkdir()
        arrow, parquet = out / split / "data-00000-of-00001.arrow", out / "parquet" / f"{split}.parquet"
        hashes = write_tables(trl_rows(samples, images, space), features, arrow, parquet)
        write_saved_dataset(out / split, {arrow: hashes[arrow]}, features)
        known |= {path.relative_to(out).as_posix(): sha for path, sha in hashes.items()}
    (out / "dataset_dict.json").write_text(json.dumps({"splits": list(samples_by_split)}), encoding="utf-8")
    return known
