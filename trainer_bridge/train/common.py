"""What the training scripts share: their own arguments beside TRL's config, the recipe given by name, the export
checked before any model loads, the model (or the tiny one), LoRA, the processor's pixel limits from the export's
manifest, and resuming from the last checkpoint.

Errors a person can fix (a folder that is not an export of the right stage, an unknown recipe or reward, a recipe
key that does not exist) are `TrainingSetupError`: the script prints its one line and exits with status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from annotator.domain.export_manifest import ExportManifest, ManifestError, read_export_manifest
from annotator.domain.recipes import SCRIPTS, RecipeError, load_recipe, recipe_path

# The language model's projections (Qwen2.5-VL names); the vision tower's are left frozen unless asked.
LANGUAGE_MODULES = r".*language_model.*\.(q_proj|k_proj|v_proj|o_proj|gate_proj|up_proj|down_proj)"
VISION_MODULES = r".*visual.*\.(qkv|proj|gate_proj|up_proj|down_proj)"


class TrainingSetupError(ValueError):
    """The run cannot start as asked; one line says why."""


@dataclass
class BridgeArguments:
    """The bridge's arguments of every script (TRL's own come in its config dataclass)."""

    data: str = field(default="", metadata={"help": "The export folder (`trainer-bridge export`) to train on."})
    model: str | None = field(default=None, metadata={"help": "A model folder or hub id; tiny recipes build one."})
    split: str = field(default="train", metadata={"help": "The export's split to train on."})
    script: str = field(default="", metadata={"help": "Set by the recipe: the script it is for."})
    stage: str = field(default="", metadata={"help": "Set by the recipe: the export stage it trains on."})
    description: str = field(default="", metadata={"help": "Set by the recipe."})
    paper: str = field(default="", metadata={"help": "Set by the recipe: where its settings come from."})
    tiny_model: bool = field(default=False, metadata={"help": "Build the tiny Qwen2.5-VL when no --model is given."})
    use_lora: bool = field(default=True, metadata={"help": "LoRA on the language model (peft); else full tuning."})
    lora_r: int = 16
    lora_alpha: int = 32
    lora_dropout: float = 0.05
    train_vision: bool = field(default=False, metadata={"help": "Also adapt (LoRA) or train the vision tower."})
    resume: bool = field(default=True, metadata={"help": "Go on from the output folder's last checkpoint."})
    reward_recipe: str | None = field(default=None, metadata={"help": "GRPO: the reward recipe (rewards.RECIPES)."})
    paper_global_batch: int | None = field(
        default=None,
        metadata={
            "help": "Set by the recipe: the paper's samples (completions) per update; "
            "`trainer-bridge train` sets the accumulation to reach it on its processes."
        },
    )
    sources: dict[str, str] | None = field(
        default=None, metadata={"help": "Set by the recipe: where each setting comes from (`recipes show`)."}
    )


def script_parser(config_class: Any) -> Any:
    """TRL's parser over the bridge's arguments and `config_class` (SFTConfig, GRPOConfig, ...)."""
    from trl import TrlParser

    # No abbreviations: a misspelt key must be an error, not a silent prefix of another.
    return TrlParser(cast(Any, (BridgeArguments, config_class)), allow_abbrev=False)  # TRL's stubs: dataclass types


def with_recipe(argv: Sequence[str]) -> list[str]:
    """`--recipe NAME` (a shipped recipe or a YAML file) as TRL's `--config PATH`."""
    args = list(argv)
    if "--recipe" in args:
        at = args.index("--recipe")
        if at + 1 >= len(args):
            raise TrainingSetupError("--recipe needs a name; see `trainer-bridge train --help` for the shipped ones")
        try:
            args[at : at + 2] = ["--config", str(recipe_path(args[at + 1]))]
        except RecipeError as error:
            raise TrainingSetupError(str(error)) from None
    return args


def parse(parser: Any, argv: Sequence[str] | None) -> tuple[Any, ...]:
    """The dataclasses of `parser` (a TrlParser) from the recipe and the command line; a key the recipe or the
    command line names that no dataclass has is one clear line."""
    args = with_recipe(sys.argv[1:] if argv is None else argv)
    if "--config" in args:
        config = Path(args[args.index("--config") + 1])
        try:
            load_recipe(str(config))
        except RecipeError as error:
            raise TrainingSetupError(str(error)) from None
    try:
        return tuple(parser.parse_args_and_config(args))
    except ValueError as error:  # TRL: "Some specified arguments are not used by the TrlParser: [...]"
        raise TrainingSetupError(f"unknown setting: {error}") from None


def read_manifest(data: str, stage: str) -> ExportManifest:
    """The export's manifest, checked: the folder exists, is an export, of `stage`."""
    folder = Path(data)
    if not data or not folder.is_dir():
        raise TrainingSetupError(f"--data {data!r} is not a folder; give an export (`trainer-bridge export --out`)")
    try:
        manifest = read_export_manifest(folder)
    except ManifestError as error:
        raise TrainingSetupError(str(error)) from None
    if manifest.stage != stage:
        raise TrainingSetupError(f"{folder} is a {manifest.stage!r} export; this recipe trains on {stage!r} exports")
    return manifest


def check_script(bridge: BridgeArguments, script: str) -> None:
    if bridge.script and bridge.script != script:
        raise TrainingSetupError(f"the recipe is for the {bridge.script} script, not {script}")
    if bridge.stage and bridge.stage != SCRIPTS[script]:
        raise TrainingSetupError(f"the recipe's stage {bridge.stage!r} is not what {script} trains on")


def model_folder(bridge: BridgeArguments, output_dir: str, dataset: Any = None) -> str:
    """`--model`, or the tiny model built offline in the output folder when the recipe is a tiny one (its tokenizer
    trained on the texts of `dataset`, the data it trains on first)."""
    if bridge.model:
        return bridge.model
    if not bridge.tiny_model:
        raise TrainingSetupError("give --model (a model folder or a hub id); only tiny-* recipes build their own")
    from trainer_bridge.train.tiny import build_tiny_qwen

    folder = (Path(output_dir) / "tiny-model").resolve()  # absolute: a LoRA run's adapter names it as its base
    if not (folder / "config.json").is_file():
        build_tiny_qwen(folder, training_texts(dataset) if dataset is not None else None)
    return str(folder)


TEXT_COLUMNS = ("prompt", "completion", "answer")  # an export's texts: chat messages, or the answer as a string


def training_texts(dataset: Any) -> list[str]:
    """Every text of an export's split: its messages' text parts and its answers."""
    texts: list[str] = []
    for column in [name for name in TEXT_COLUMNS if name in dataset.column_names]:
        for value in dataset[column]:
            texts.extend(_strings(value))
    return texts


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, dict):
        return [text for key in ("content", "text") for text in _strings(value.get(key))]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def is_adapter(path: str) -> bool:
    """A LoRA run's folder: an adapter and no model of its own."""
    return (Path(path) / "adapter_config.json").is_file() and not (Path(path) / "config.json").is_file()


def load_model(path: str) -> Any:
    """The model at `path`; a LoRA run's folder is its base model with the adapter merged in, so the next stage
    (Mobile-R1's GRPO after a LoRA SFT) starts from what the last one learned and adds its own adapter, or tunes
    fully, on top."""
    from transformers import AutoModelForImageTextToText

    if not is_adapter(path):
        return AutoModelForImageTextToText.from_pretrained(path)
    from peft import PeftConfig, PeftModel

    base = PeftConfig.from_pretrained(path).base_model_name_or_path
    if not base:
        raise TrainingSetupError(f"{Path(path) / 'adapter_config.json'} names no base model to merge the adapter into")
    return PeftModel.from_pretrained(AutoModelForImageTextToText.from_pretrained(base), path).merge_and_unload()


def keep_merged_base(model: Any, output_dir: str) -> None:
    """A new adapter over a merged one names its base by folder: write the merged model to `<output>/merged-base`
    (once) and name it, so the run's adapter loads over what it was trained on, not over the bare first base."""
    folder = (Path(output_dir) / "merged-base").resolve()
    if not (folder / "config.json").is_file():
        model.save_pretrained(folder)
    model.name_or_path = model.config._name_or_path = str(folder)


def load_processor(model: str, manifest: ExportManifest, **extra: Any) -> Any:
    """The model's processor with the pixel limits the export's coordinates were written for, so the model never
    trains on coordinates of another size (the exported images are already that size; the processor leaves them)."""
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(model, **extra)
    image_processor = getattr(processor, "image_processor", None)
    if image_processor is not None:
        if getattr(image_processor, "size", None) is not None:  # transformers 5: the limits are `size`
            image_processor.size = {"shortest_edge": manifest.min_pixels, "longest_edge": manifest.max_pixels}
        else:
            image_processor.min_pixels, image_processor.max_pixels = manifest.min_pixels, manifest.max_pixels
    return processor


def lora_config(bridge: BridgeArguments) -> Any:
    """LoRA on the language model's projections (and the vision tower's with --train_vision), or None."""
    if not bridge.use_lora:
        return None
    from peft import LoraConfig

    targets = f"({LANGUAGE_MODULES})|({VISION_MODULES})" if bridge.train_vision else LANGUAGE_MODULES
    return LoraConfig(
        r=bridge.lora_r,
        lora_alpha=bridge.lora_alpha,
        lora_dropout=bridge.lora_dropout,
        target_modules=targets,
        task_type="CAUSAL_LM",
    )


def freeze_vision(model: Any, bridge: BridgeArguments) -> None:
    """Full fine-tuning leaves the vision tower as it is unless --train_vision (Mobile-R1 tunes the language side)."""
    if bridge.use_lora or bridge.train_vision:
        return
    visual = getattr(getattr(model, "model", model), "visual", None)
    for parameter in visual.parameters() if visual is not None else ():
        parameter.requires_grad = False


def train_split(data: str, split: str) -> Any:
    """The export's split as a `datasets.Dataset` (the trl format: `save_to_disk`; others: their files)."""
    from datasets import DatasetDict, load_from_disk

    try:
        loaded = load_from_disk(data)
    except FileNotFoundError:
        raise TrainingSetupError(f"{data} is not in the trl format (`trainer-bridge export --format trl`)") from None
    if isinstance(loaded, DatasetDict):
        if split not in loaded:
            raise TrainingSetupError(f"{data} has no {split!r} split; it has {', '.join(loaded)}")
        return loaded[split]
    return loaded


def last_checkpoint(output_dir: str, resume: bool) -> str | None:
    from transformers.trainer_utils import get_last_checkpoint

    folder = Path(output_dir)
    return get_last_checkpoint(str(folder)) if resume and folder.is_dir() else None


def fit(
    trainer_class: Any,
    bridge: BridgeArguments,
    config: Any,
    manifest: ExportManifest,
    dataset: Any,
    *,
    completions: Any = None,
    processor_options: dict[str, Any] | None = None,
    **trainer_options: Any,
) -> None:
    """Load the model (or build the tiny one), train with `trainer_class` from the last checkpoint, write events
    and save: what every script does once its data and settings are checked."""
    from trainer_bridge.train.events import EventLog, EventsCallback  # loads transformers: only when training
    from trainer_bridge.train.resume import exactly_resuming

    model_path = model_folder(bridge, config.output_dir, dataset)
    model = load_model(model_path)
    if is_adapter(model_path) and bridge.use_lora:
        keep_merged_base(model, config.output_dir)
    freeze_vision(model, bridge)
    resumed = last_checkpoint(config.output_dir, bridge.resume)
    events = EventsCallback(EventLog(Path(config.output_dir)), completions=completions, resumed_from=resumed)
    trainer = exactly_resuming(trainer_class)(
        model=model,
        args=config,
        train_dataset=dataset,
        peft_config=lora_config(bridge),
        callbacks=[events],
        processing_class=load_processor(model_path, manifest, **(processor_options or {})),
        **trainer_options,
    )
    trainer.train(resume_from_checkpoint=resumed)
    trainer.save_model(config.output_dir)


def run_main(body: Any, argv: Sequence[str] | None) -> int:
    """Run a script's body; a setup error is its one line on stderr and exit status 2."""
    try:
        body(argv)
    except (TrainingSetupError, RecipeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
