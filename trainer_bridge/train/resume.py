"""Going on from a checkpoint with exactly its weights, or not at all.

transformers 5 saves a checkpoint's model with the hub's key names (`model.layers.*` for Qwen2.5-VL) and loads it
back in `Trainer._load_from_checkpoint` with a plain, non-strict `load_state_dict` that expects the module's own
names (`model.language_model.layers.*`): every renamed tensor is skipped with a warning, and the run goes on from
the base weights with the checkpoint's optimiser state and step. Here a whole model is read back through
`from_pretrained` (which maps the names) and must fill every parameter; an adapter is loaded by peft as before and
then compared with its file. A checkpoint that cannot be loaded whole stops the run with one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trainer_bridge.train.common import TrainingSetupError

ADAPTER_FILE = "adapter_model.safetensors"


class CheckpointError(TrainingSetupError):
    """The checkpoint to go on from cannot be loaded whole; the run stops instead of starting over silently."""


class ExactResume:
    """A mixin for a transformers `Trainer` class: `_load_from_checkpoint` loads every weight or raises."""

    def _load_from_checkpoint(self, resume_from_checkpoint: str, model: Any = None) -> None:
        trainer: Any = self
        if trainer.is_fsdp_enabled:  # FSDP's sharded checkpoints have a loader of their own
            super()._load_from_checkpoint(resume_from_checkpoint, model)  # type: ignore[misc]
            return
        model = trainer.model if model is None else model
        folder = Path(resume_from_checkpoint)
        if (folder / ADAPTER_FILE).is_file():
            super()._load_from_checkpoint(resume_from_checkpoint, model)  # type: ignore[misc]
            check_adapter(model, folder)
        else:
            load_whole_model(model, folder)


def load_whole_model(model: Any, folder: Path) -> None:
    """`folder`'s model weights into `model`, every parameter of it, under the module's own names."""
    from transformers import AutoModelForImageTextToText

    dtype = next(model.parameters()).dtype
    try:
        loaded: Any = AutoModelForImageTextToText.from_pretrained(folder, dtype=dtype, output_loading_info=True)
        saved, info = loaded
    except (OSError, ValueError, KeyError, RuntimeError) as error:
        raise CheckpointError(f"cannot go on from {folder}: its model does not load ({error})") from None
    unfit = [*info.get("missing_keys", ()), *info.get("unexpected_keys", ()), *info.get("mismatched_keys", ())]
    if unfit:
        raise CheckpointError(
            f"cannot go on from {folder}: {len(unfit)} of its tensors are missing or do not fit "
            f"the model (first: {sorted(map(str, unfit))[0]}); delete it to start again"
        )
    result = model.load_state_dict(saved.state_dict(), strict=False)
    if result.missing_keys or result.unexpected_keys:
        names = sorted([*result.missing_keys, *result.unexpected_keys])
        raise CheckpointError(
            f"cannot go on from {folder}: {len(names)} of the model's tensors are not in it (first: {names[0]})"
        )


def check_adapter(model: Any, folder: Path) -> None:
    """The active adapter's weights are the ones in `folder`'s adapter file, all of them."""
    from peft import get_peft_model_state_dict
    from safetensors.torch import load_file

    saved = load_file(str(folder / ADAPTER_FILE))
    loaded = {name: tensor.detach().cpu() for name, tensor in get_peft_model_state_dict(model).items()}
    differing = sorted(name for name, tensor in saved.items() if name not in loaded or not loaded[name].equal(tensor))
    differing += sorted(set(loaded) - set(saved))  # the model's adapter tensors that the file does not hold
    if differing:
        raise CheckpointError(
            f"cannot go on from {folder}: its adapter did not load whole ({len(differing)} tensors "
            f"differ; first: {differing[0]})"
        )


def exactly_resuming(trainer_class: Any) -> Any:
    """`trainer_class` with ExactResume (a subclass named after it)."""
    if issubclass(trainer_class, ExactResume):
        return trainer_class
    return type(trainer_class.__name__, (ExactResume, trainer_class), {"__module__": trainer_class.__module__})
