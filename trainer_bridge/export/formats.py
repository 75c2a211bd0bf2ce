"""Writers: the same samples in the layout each consumer reads.

- `jsonl`: `data/<split>.jsonl` (one sample a line: `messages` with the target as the last assistant turn,
  `images` as paths relative to the output folder, and the metadata columns) and `images/`;
- `trl`: a `datasets.DatasetDict` saved with `save_to_disk` at the output folder, one key per split, plus
  `parquet/<split>.parquet`; conversational `prompt` / `completion`, an `images` column of `Image` features
  and the metadata columns. Every message's content is a list of parts (Arrow needs one type per column).
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.sft import Sample, sample_metadata

FORMATS = ("trl", "jsonl")


def parts(content: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Message content as a list of parts, each with both keys (`text` None for an image)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [{"type": part["type"], "text": part.get("text")} for part in content]


def _with_paths(messages: list[dict[str, Any]], paths: Iterator[str]) -> list[dict[str, Any]]:
    """The messages with each image part naming its file, in order."""
    result = []
    for message in messages:
        content = message["content"]
        if isinstance(content, list):
            content = [{"type": "image", "image": next(paths)} if p["type"] == "image" else p for p in content]
        result.append({"role": message["role"], "content": content})
    return result


def write_jsonl(
    samples_by_split: dict[str, Iterable[Sample]], out: Path, images: ExportImages, space: ModelSpace
) -> None:
    (out / "data").mkdir(parents=True, exist_ok=True)
    for split, samples in samples_by_split.items():
        with open(out / "data" / f"{split}.jsonl", "w", encoding="utf-8", newline="\n") as file:
            for sample in samples:
                paths = [images.path(ref).relative_to(out).as_posix() for ref in sample.images]
                messages = [*sample.prompt, {"role": "assistant", "content": sample.completion}]
                row = {**sample_metadata(sample, space), "messages": _with_paths(messages, iter(paths))}
                row["images"] = paths
                file.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def trl_rows(samples: Iterable[Sample], images: ExportImages, space: ModelSpace) -> Iterator[dict[str, Any]]:
    for sample in samples:
        yield {
            **sample_metadata(sample, space),
            "prompt": [{"role": m["role"], "content": parts(m["content"])} for m in sample.prompt],
            "completion": [{"role": "assistant", "content": parts(sample.completion)}],
            "images": [{"bytes": images.png(ref), "path": ref.file_name} for ref in sample.images],
        }


def trl_features() -> Any:
    from datasets import Features, Image, List, Value

    message = {"role": Value("string"), "content": List({"type": Value("string"), "text": Value("string")})}
    columns = {
        "id": Value("string"), "trajectory_uid": Value("string"), "trajectory_id": Value("int64"),
        "step_id": Value("int64"), "position": Value("int32"), "kind": Value("string"), "app": Value("string"),
        "instruction": Value("string"), "screen_width": Value("int32"), "screen_height": Value("int32"),
        "image_width": Value("int32"), "image_height": Value("int32"), "review_status": Value("string"),
        "judge_score": Value("int32"), "prompt": List(message), "completion": List(message),
        "images": List(Image()),
    }  # fmt: skip
    return Features(columns)


def write_trl(
    samples_by_split: dict[str, Iterable[Sample]], out: Path, images: ExportImages, space: ModelSpace
) -> None:
    """Image bytes go into the Arrow and Parquet files, so OUT is self-contained. Rows are written to a scratch
    Arrow file as they are made, never all held in memory."""
    import datasets
    from datasets.arrow_writer import ArrowWriter

    datasets.disable_progress_bars()
    features = trl_features()
    with tempfile.TemporaryDirectory(prefix="export-arrow-") as scratch:
        splits = {}
        for split, samples in samples_by_split.items():
            path = Path(scratch) / f"{split}.arrow"
            with ArrowWriter(features=features, path=str(path)) as writer:
                for row in trl_rows(samples, images, space):
                    writer.write(row)
                writer.finalize()
            splits[split] = datasets.Dataset.from_file(str(path))
        dataset = datasets.DatasetDict(splits)
        dataset.save_to_disk(str(out))
        (out / "parquet").mkdir(exist_ok=True)
        for split, part in dataset.items():
            part.to_parquet(str(out / "parquet" / f"{split}.parquet"))
    for split in splits:
        _fingerprint_by_content(out / split)


def _fingerprint_by_content(folder: Path) -> None:
    """`datasets` names a saved dataset by a fingerprint that can differ between identical exports; a hash of
    the data files instead makes the same export byte-identical (and is what the fingerprint stands for)."""
    state_path = folder / "state.json"
    state = json.loads(state_path.read_text(encoding="utf-8"))
    digest = hashlib.sha256()
    for data_file in state["_data_files"]:
        digest.update((folder / data_file["filename"]).read_bytes())
    state["_fingerprint"] = digest.hexdigest()[:16]
    state_path.write_text(json.dumps(state, indent=2, sort_keys=True), encoding="utf-8")
