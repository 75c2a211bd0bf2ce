"""`jsonl`: `data/<split>.jsonl` and `images/`. SFT rows hold `messages` (the target as the last assistant turn);
GRPO rows hold `prompt` messages, `answer` and the ground-truth columns. Images are paths relative to the
output folder, in a top-level `images` list and in the image parts where they stand."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.formats.common import columns, with_paths
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.sft import Sample


def write_jsonl(
    samples_by_split: dict[str, Iterable[Sample]], out: Path, images: ExportImages, space: ModelSpace, stage: str
) -> dict[str, str]:
    (out / "data").mkdir(parents=True, exist_ok=True)
    for split, samples in samples_by_split.items():
        with open(out / "data" / f"{split}.jsonl", "w", encoding="utf-8", newline="\n") as file:
            for sample in samples:
                paths = [images.path(ref).relative_to(out).as_posix() for ref in sample.images]
                row = columns(sample, space) | {"images": paths}
                if sample.ground_truth is None:
                    messages = [*sample.prompt, {"role": "assistant", "content": sample.completion}]
                    row["messages"] = with_paths(messages, iter(paths))
                else:
                    row["prompt"] = with_paths(sample.prompt, iter(paths))
                file.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    return {}  # the manifest hashes these files itself
