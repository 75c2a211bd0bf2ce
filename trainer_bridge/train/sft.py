"""SFT on an `sft` export (Mobile-R1 stage 1): TRL's `SFTTrainer` on the export's conversational prompt, completion
and images, LoRA on the language model by default.

    accelerate launch -m trainer_bridge.train.sft --recipe mobile-r1-stage1 --data EXPORT --model MODEL \\
        --output_dir runs/stage1 [--num_train_epochs 1 ...]
    python -m trainer_bridge.train.sft --recipe tiny-sft --data EXPORT --output_dir runs/tiny   # CPU, tiny model

The export must be in the trl format (a saved `datasets.DatasetDict`). Progress goes to `events.jsonl` and
TensorBoard in the output folder; a run goes on from the folder's last checkpoint.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from trainer_bridge.train.common import (
    check_script,
    fit,
    parse,
    read_manifest,
    run_main,
    script_parser,
    train_split,
)

KEPT_COLUMNS = ("prompt", "completion", "images")


def make_parser() -> Any:
    from trl import SFTConfig

    return script_parser(SFTConfig)


def train(argv: Sequence[str] | None = None) -> None:
    bridge, config = parse(make_parser(), argv)
    check_script(bridge, "sft")
    manifest = read_manifest(bridge.data, "sft")  # before any model loads: a wrong folder costs nothing
    dataset = train_split(bridge.data, bridge.split)
    dataset = dataset.remove_columns([c for c in dataset.column_names if c not in KEPT_COLUMNS])

    from trl import SFTTrainer

    config.max_length = None  # never cut a sample: its image tokens and its answer must stay whole
    fit(SFTTrainer, bridge, config, manifest, dataset)


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(train, argv)


if __name__ == "__main__":
    sys.exit(main())
