"""`llamafactory` (SFT only): LLaMA-Factory's sharegpt layout. `data/<split>.json` holds a list of rows, each
with `system`, `messages` (user and assistant turns in alternation, ending with the target; an `<image>`
token where each screenshot stands) and `images` (paths relative to the output folder, in token order);
`dataset_info.json` declares one dataset per split, named `mobile_sft_<split>`, for `--dataset_dir OUT`."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from annotator.domain.model_space import ModelSpace
from trainer_bridge.export.formats.common import flat_text
from trainer_bridge.export.images import ExportImages
from trainer_bridge.export.sft import Sample

COLUMNS = {"messages": "messages", "images": "images", "system": "system"}
TAGS = {
    "role_tag": "role",
    "content_tag": "content",
    "user_tag": "user",
    "assistant_tag": "assistant",
    "system_tag": "system",
}


def sharegpt_row(sample: Sample, image_paths: list[str]) -> dict[str, object]:
    system = next((m["content"] for m in sample.prompt if m["role"] == "system"), "")
    turns = [{"role": m["role"], "content": flat_text(m["content"])} for m in sample.prompt if m["role"] != "system"]
    turns.append({"role": "assistant", "content": sample.completion})
    return {"id": sample.sample_id, "system": system, "messages": turns, "images": image_paths}


def write_llamafactory(
    samples_by_split: dict[str, Iterable[Sample]], out: Path, images: ExportImages, space: ModelSpace, stage: str
) -> dict[str, str]:
    if stage != "sft":
        raise ValueError(f"the llamafactory format holds SFT data only, not {stage}")
    (out / "data").mkdir(parents=True, exist_ok=True)
    info = {}
    for split, samples in samples_by_split.items():
        rows = [sharegpt_row(s, [images.path(ref).relative_to(out).as_posix() for ref in s.images]) for s in samples]
        name = f"data/{split}.json"
        (out / name).write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        info[f"mobile_sft_{split}"] = {"file_name": name, "formatting": "sharegpt", "columns": COLUMNS, "tags": TAGS}
    (out / "dataset_info.json").write_text(json.dumps(info, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return {}  # the manifest hashes these files itself
