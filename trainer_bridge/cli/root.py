"""The `trainer-bridge` command; `export` and `stats` load when they run (annotator.cli.lazy)."""

from __future__ import annotations

import json
import signal
from importlib import import_module

import click

from annotator import __version__
from annotator.cli.lazy import Lazy, LazyGroup
from annotator.domain.recipes import TRAIN_PACKAGES

COMMANDS = {
    "export": Lazy(
        "trainer_bridge.cli.export:export_command",
        "Write a training dataset of labelled steps (manifest.json says what is in it).",
    ),
    "eval": Lazy(
        "trainer_bridge.cli.eval:eval_command",
        "Evaluate a policy on held-out steps (offline) or on phones (--online).",
    ),
    "select": Lazy(
        "trainer_bridge.cli.select:select_command",
        "Sample a model N times per step and store pass rates, for `export --select` (hard, band, bottleneck).",
    ),
    "train": Lazy(
        "trainer_bridge.cli.train:train_command",
        "Launch a training recipe with accelerate, recorded and followed in the workspace's database.",
    ),
    "runs": Lazy("trainer_bridge.cli.runs:runs_command", "List, show, follow, cancel and resume training runs."),
    "recipes": Lazy(
        "trainer_bridge.cli.recipes:recipes_command",
        "The shipped training recipes and where each of their settings comes from.",
    ),
    "stats": Lazy(
        "trainer_bridge.cli.stats:stats_command",
        "Dataset statistics per split: Mobile-R1 Table 2 and Table 6, trajectory lengths, action types.",
    ),
}


def installed_version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version  # 50 ms that only `doctor` needs

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def accelerator_summary() -> dict[str, object]:
    """What torch can see; imported lazily because torch takes seconds to load."""
    if installed_version("torch") is None:
        return {"torch": False}
    torch = import_module("torch")
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    return {
        "torch": True,
        "cuda_devices": count,
        "cuda_names": [torch.cuda.get_device_name(i) for i in range(count)],
    }


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="trainer-bridge")
def cli() -> None:
    """Export training data and run SFT / GRPO training on Qwen2.5-VL style models."""


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def doctor(as_json: bool) -> None:
    """Say whether the `train` extra is installed and which accelerators torch sees."""
    packages = {name: installed_version(name) for name in TRAIN_PACKAGES}
    report = {"packages": packages, "train_extra": all(packages.values()), **accelerator_summary()}
    if as_json:
        click.echo(json.dumps(report))
        return
    for name, found in packages.items():
        click.echo(f"{name:>13}: {found or 'not installed'}")
    if not report["train_extra"]:
        click.echo("\nInstall the training packages with:  pip install 'mobile-annotator[train]'")
    elif report.get("cuda_devices"):
        click.echo(f"\nGPUs: {', '.join(report['cuda_names'])}")  # type: ignore[arg-type]
    else:
        click.echo("\nNo GPU visible to torch: training runs on the CPU (fine for smoke tests only).")


def main() -> None:
    # Ctrl+C stops a command cleanly, also one started with SIGINT ignored (a script's `command &`): the demo's
    # training loop and the tests stop commands with SIGINT, as a person would.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    cli(prog_name="trainer-bridge")
