"""Resuming a run starts from exactly its checkpoint's weights (full tuning and LoRA, SFT and GRPO), and a checkpoint
that cannot be loaded whole stops the run with one line instead of a warning and a silent restart from the base.

Each run trains two steps and saves them; the same command is then run again asking for those two steps only, so
the resumed run learns nothing and saves what it loaded: the output is the checkpoint's weights, tensor for tensor,
exactly when the resume loaded all of them. (transformers 5 still runs one step when it resumes at `max_steps`: a
linear schedule without warm-up has brought the learning rate to 0 there, so that step moves nothing.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from trainer_bridge.train import grpo_action, sft
from trainer_bridge.train.common import load_model

pytestmark = [pytest.mark.slow, pytest.mark.train]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from trainer_bridge.train.tiny import build_tiny_qwen

    return build_tiny_qwen(tmp_path_factory.mktemp("tiny"))


# GRPO's answers cut to a few tokens, two a step: what resuming loads does not depend on how long they are.
SHORT_GRPO = ["--max_completion_length", "8", "--num_generations", "2", "--per_device_train_batch_size", "2"]


def arguments(script, exports: dict[str, Path], tiny: Path, out: Path, lora: bool) -> list[str]:
    recipe, stage = ("tiny-sft", "sft") if script is sft else ("tiny-grpo", "grpo-action")
    return [
        *([] if script is sft else SHORT_GRPO),
        "--recipe",
        recipe,
        "--data",
        str(exports[stage]),
        "--model",
        str(tiny),
        "--output_dir",
        str(out),
        "--use_lora",
        str(lora).lower(),
        "--max_steps",
        "2",
        "--save_steps",
        "2",
        "--learning_rate",
        "1e-2",
        "--lr_scheduler_type",
        "linear",
        "--warmup_steps",
        "0",
        "--report_to",
        "none",
    ]


def weights(folder: Path) -> dict:
    """The trained weights as they load (a LoRA run's adapter merged into its base)."""
    return {name: tensor.clone() for name, tensor in load_model(str(folder)).state_dict().items()}


def shake(checkpoint: Path) -> None:
    """Noise on every saved tensor of the checkpoint: its weights are then unlike the base's and unlike anything
    training would reach, so only loading this file gives them."""
    import torch

    for file in [checkpoint / name for name in ("model.safetensors", "adapter_model.safetensors")]:
        if file.is_file():
            generator = torch.Generator().manual_seed(7)
            tensors = {
                name: tensor + 0.01 * torch.randn(tensor.shape, generator=generator).to(tensor.dtype)
                for name, tensor in load_file(str(file)).items()
            }
            save_file(tensors, str(file), metadata={"format": "pt"})


@pytest.mark.parametrize("lora", [False, True], ids=["full", "lora"])
@pytest.mark.parametrize("script", [sft, grpo_action], ids=["sft", "grpo"])
def test_a_resumed_run_starts_from_exactly_its_checkpoint(
    script, lora: bool, exports: dict[str, Path], tiny: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    given = arguments(script, exports, tiny, out, lora)
    assert script.main(given) == 0
    shake(out / "checkpoint-2")  # GRPO's untrained model earns no reward: no gradient, its two steps moved nothing
    checkpoint = weights(out / "checkpoint-2")
    base = weights(tiny)
    assert any(not checkpoint[name].equal(base[name]) for name in base)
    for saved in [out / name for name in ("model.safetensors", "adapter_model.safetensors")]:
        saved.unlink(missing_ok=True)  # what the resumed run saves must come from what it loaded
    assert script.main(given) == 0  # nothing left to train: the run saves the weights it went on from
    resumed = weights(out)
    assert resumed.keys() == checkpoint.keys()
    assert [name for name in checkpoint if not resumed[name].equal(checkpoint[name])] == []


def drop_a_layer(checkpoint: Path) -> None:
    shard = checkpoint / "model.safetensors"
    tensors = load_file(str(shard))
    kept = {name: tensor for name, tensor in tensors.items() if "layers.1." not in name}
    save_file(kept, str(shard), metadata={"format": "pt"})


def drop_half_the_adapter(checkpoint: Path) -> None:
    adapter = checkpoint / "adapter_model.safetensors"
    tensors = load_file(str(adapter))
    save_file(dict(list(tensors.items())[: len(tensors) // 2]), str(adapter), metadata={"format": "pt"})


@pytest.mark.parametrize(
    ("lora", "damage", "says"),
    [(False, drop_a_layer, "are missing or do not fit"), (True, drop_half_the_adapter, "adapter did not load whole")],
    ids=["full", "lora"],
)
def test_a_checkpoint_that_cannot_load_whole_stops_the_run_in_one_line(
    lora: bool,
    damage,
    says: str,
    exports: dict[str, Path],
    tiny: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "run"
    given = arguments(sft, exports, tiny, out, lora)
    assert sft.main(given) == 0
    damage(out / "checkpoint-2")
    capsys.readouterr()
    assert sft.main(given) == 2  # not a warning and a run from the base weights
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("error: cannot go on from ") and "checkpoint-2" in error and says in error
