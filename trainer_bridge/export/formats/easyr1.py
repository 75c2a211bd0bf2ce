"""`easyr1`: EasyR1 / verl Parquet, `data/<split>.parquet` with the columns its data loader reads by default:
`prompt` (one string: the system prompt and the conversation, an `<image>` token where each screenshot
stands), `answer` (the labelled reply) and `images` (the screenshots in token order), plus the metadata and, for
GRPO, the ground-truth columns. `images` holds paths relative to the output folder, into `images/` (EasyR1's
`data.image_dir` set to the output folder), or with `--image-storage embedded` the PNG bytes themselves."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.formats.common import METADATA_TYPES, columns, flat_text, stage_features
from trainer_bridge.export.formats.tables import write_tables
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.sft import ImageRef, Sample


def prompt_text(sample: Sample) -> str:
    return "\n\n".join(
        f"{m['role']}:\n{flat_text(m['content'])}" if m["role"] != "system" else m["content"] for m in sample.prompt
    )


def easyr1_rows(
    samples: Iterable[Sample], space: ModelSpace, image_value: Callable[[ImageRef], Any]
) -> Iterator[dict[str, Any]]:
    for sample in samples:
        row = columns(sample, space)
        row |= {"prompt": prompt_text(sample), "answer": sample.completion}
        row["images"] = [image_value(ref) for ref in sample.images]
        yield row


def easyr1_features(stage: str, storage: str = "embedded") -> Any:
    from datasets import Features, Image, List, Value

    features: dict[str, Any] = {name: Value(kind) for name, kind in METADATA_TYPES.items()}
    image = Image() if storage == "embedded" else Value("string")
    features |= {"prompt": Value("string"), "answer": Value("string"), "images": List(image)}
    return Features(features | stage_features(stage))


def _write(
    samples_by_split: dict[str, Iterable[Sample]],
    out: Path,
    space: ModelSpace,
    stage: str,
    storage: str,
    image_value: Callable[[ImageRef], Any],
) -> dict[str, str]:
    (out / "data").mkdir(parents=True, exist_ok=True)
    features = easyr1_features(stage, storage)
    known: dict[str, str] = {}
    for split, samples in samples_by_split.items():
        parquet = out / "data" / f"{split}.parquet"
        hashes = write_tables(easyr1_rows(samples, space, image_value), features, parquet=parquet)
        known[parquet.relative_to(out).as_posix()] = hashes[parquet]
    return known


def write_easyr1(
    samples_by_split: dict[str, Iterable[Sample]], out: Path, images: ExportImages, space: ModelSpace, stage: str
) -> dict[str, str]:
    """Parquet with the `datasets` features, so the images column is an `Image` feature when loaded back."""
    return _write(
        samples_by_split,
        out,
        space,
        stage,
        "embedded",
        lambda ref: {"bytes": images.png(ref), "path": images.name(ref)},
    )


def write_easyr1_files(
    samples_by_split: dict[str, Iterable[Sample]], out: Path, images: ExportImages, space: ModelSpace, stage: str
) -> dict[str, str]:
    """Parquet whose images column names files in `images/`, relative to the output folder."""
    return _write(
        samples_by_split, out, space, stage, "files", lambda ref: images.path(ref).relative_to(out).as_posix()
    )
