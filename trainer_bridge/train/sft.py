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
from pathlib import Path
from typing import Any, cast

from trainer_bridge.train.common import (
    BridgeArguments,
    check_script,
    freeze_vision,
    last_checkpoint,
    load_processor,
    lora_config,
    model_folder,
    parse,
    read_manifest,
    run_main,
    train_split,
)
from trainer_bridge.train.events import EventLog, EventsCallback

KEPT_COLUMNS = ("prompt", "completion", "images")


def make_parser() -> Any:
    from trl import SFTConfig, TrlParser

    # No abbreviations: a misspelt key must be an error, not a silent prefix of another.
    return TrlParser(cast(Any, (BridgeArguments, SFTConfig)), allow_abbrev=False)


def train(argv: Sequence[str] | None = None) -> None:
    bridge, config = parse(make_parser(), argv)
    check_script(bridge, "sft")
    manifest = read_manifest(bridge.data, "sft")  # before any model loads: a wrong folder costs nothing
    dataset = train_split(bridge.data, bridge.split)
    dataset = dataset.remove_columns([c for c in dataset.column_names if c not in KEPT_COLUMNS])

    from transformers import AutoModelForImageTextToText
    from trl import SFTTrainer

    model_path = model_folder(bridge, config.output_dir)
    config.max_length = None  # never cut a sample: its image tokens and its answer must stay whole
    model = AutoModelForImageTextToText.from_pretrained(model_path)
    freeze_vision(model, bridge)
    resumed = last_checkpoint(config.output_dir, bridge.resume)
    trainer = SFTTrainer(
        model=model, args=config, train_dataset=dataset, processing_class=load_processor(model_path, manifest),
        peft_config=lora_config(bridge),
        callbacks=[EventsCallback(EventLog(Path(config.output_dir)), resumed_from=resumed)],
    )  # fmt: skip
    trainer.train(resume_from_checkpoint=resumed)
    trainer.save_model(config.output_dir)


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(train, argv)


if __name__ == "__main__":
    sys.exit(main())
