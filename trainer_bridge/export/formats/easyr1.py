"""`easyr1`: EasyR1 / verl Parquet, `data/<split>.parquet` with the columns its data loader reads by default:
`prompt` (one string: the system prompt and the conversation, an `<image>` token where each screenshot
stands), `answer` (the labelled reply) and `images` (the screenshots' PNG bytes, in token order), plus the
metadata and, for GRPO, the ground-truth columns."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.formats.common import METADATA_TYPES, columns, flat_text, stage_features
from trainer_bridge.export.formats.tables import write_tables
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.sft import Sample


def prompt_text(sample: Sample) -> str:
    return "\n\n".join(f"{m['role']}:\n{flat_text(m['content'])}" if m["role"] != "system" else m["content"]
                       for m in sample.prompt)  # fmt: skip


def easyr1_rows(samples: Iterable[Sample], images: ExportImages, space: ModelSpace) -> Iterator[dict[str, Any]]:
    for sample in samples:
        row = columns(sample, space)
        row |= {"prompt": prompt_text(sample), "answer": sample.completion}
        row["images"] = [{"bytes": images.png(ref), "path": images.name(ref)} for ref in sample.images]
        yield row


def easyr1_features(stage: str) -> Any:
    from datasets import Features, Image, List, Value

    features: dict[str, Any] = {name: Value(kind) for name, kind in METADATA_TYPES.items()}
    features |= {"prompt": Value("string"), "answer": Value("string"), "images": List(Image())}
    return Features(features | stage_features(stage))


def write_easyr1(
    samples_by_split: dict[str, Iterable[Sample]], out: Path, images: ExportImages, space: ModelSpace, stage: str
) -> dict[str, str]:
    """Parquet with the `datasets` features, so the images column is an `Image` feature when loaded back."""
    (out / "data").mkdir(parents=True, exist_ok=True)
    features = easyr1_features(stage)
    known: dict[str, str] = {}
    for split, samples in samples_by_split.items():
        parquet = out / "data" / f"{split}.parquet"
        hashes = write_tables(easyr1_rows(samples, images, space), features, parquet=parquet)
        known[parquet.relative_to(out).as_posix()] = hashes[parquet]
    return known
