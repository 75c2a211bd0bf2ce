"""`trl`: a `datasets.DatasetDict` saved with `save_to_disk` at the output folder (one key per split) and
`parquet/<split>.parquet`. Conversational `prompt` (and `completion` for SFT; `answer` and the ground-truth
columns for GRPO, which TRL passes to the reward functions), an `images` column of `Image` features and the
metadata columns. Every message's content is a list of parts, because Arrow needs one type per column.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.formats.common import METADATA_TYPES, columns, parts, stage_features, write_rows
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.manifest import file_sha256
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
    """Image bytes go into the Arrow and Parquet files, so OUT is self-contained. Rows are written as they are
    made to the Parquet file and a scratch Arrow file at once, never all held in memory; `save_to_disk` then
    writes the saved dataset from the scratch file."""
    import datasets

    features = trl_features(stage)
    (out / "parquet").mkdir(parents=True, exist_ok=True)
    # In the output's staging folder, not the system's temp folder: the scratch file is as big as the dataset. A
    # killed export's scratch then goes with its staging folder, which the next export removes once the process is
    # gone (annotator.storage.staging); beside it, nothing would ever remove it.
    with tempfile.TemporaryDirectory(prefix=".arrow-scratch-", dir=out) as scratch:
        splits = {}
        for split, samples in samples_by_split.items():
            arrow = Path(scratch) / f"{split}.arrow"
            write_rows(trl_rows(samples, images, space), features, arrow, out / "parquet" / f"{split}.parquet")
            splits[split] = datasets.Dataset.from_file(str(arrow))
        datasets.DatasetDict(splits).save_to_disk(str(out))
    known: dict[str, str] = {}
    for split in splits:
        known |= {f"{split}/{name}": sha for name, sha in _fingerprint_by_content(out / split).items()}
    return known


def _fingerprint_by_content(folder: Path) -> dict[str, str]:
    """`datasets` names a saved dataset by a fingerprint that can differ between identical exports; a hash of
    the data files instead makes the same export byte-identical (and is what the fingerprint stands for).
    Returns the data files' sha256 by name, so that the manifest need not read them again."""
    state_path = folder / "state.json"
    state = json.loads(state_path.read_text(encoding="utf-8"))
    hashes = {entry["filename"]: file_sha256(folder / entry["filename"]) for entry in state["_data_files"]}
    state["_fingerprint"] = hashlib.sha256("".join(hashes.values()).encode()).hexdigest()[:16]
    state_path.write_text(json.dumps(state, indent=2, sort_keys=True), encoding="utf-8")
    return hashes
