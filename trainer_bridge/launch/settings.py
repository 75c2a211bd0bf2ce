"""A run's resolved configuration: the recipe with `--set key=value` applied (each value typed as YAML reads it),
checked before anything launches, written to `<output>/recipe.yaml` for the script's `--config`.

Checks that need no torch come first (the recipe, the export's stage, the reward recipe); the keys are checked
against the script's own dataclasses (its `make_parser()`: the bridge's arguments and TRL's config), which
imports TRL, so only when a key could be wrong: `--set` was given or the recipe is a file of one's own.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import yaml

from annotator.domain.endpoint_url import url_secrets
from annotator.domain.export_manifest import ExportManifest, manifest_path
from annotator.domain.recipes import SCRIPTS, RecipeError, load_recipe, recipe_names
from trainer_bridge.launch.command import LaunchError, Topology
from trainer_bridge.train.common import TrainingSetupError, read_manifest

RESOLVED = "recipe.yaml"
FIXED_KEYS = ("script", "stage")  # what the recipe is for: another script or stage is another recipe
# TRL 1.16's supported vLLM versions (trl.import_utils.is_vllm_available warns outside them but goes on).
VLLM_RANGE = ((0, 22), (0, 31))
TRL_GENERATES = ("grpo_action", "rloo_action")  # grpo_task's rollouts generate in the training process itself
EXPONENT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+")


def parse_sets(pairs: tuple[str, ...]) -> dict[str, Any]:
    """`key=value` pairs as settings; each value is typed by YAML (`3` an int, `1e-5` a float, `[a, b]` a list)."""
    settings: dict[str, Any] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise LaunchError(f"--set {pair!r}: write it as key=value, e.g. --set learning_rate=1e-5")
        if key.strip() in FIXED_KEYS:
            raise LaunchError(f"--set {key.strip()}: the recipe says what it is for; choose another recipe instead")
        try:
            settings[key.strip()] = _typed(value)
        except yaml.YAMLError as error:
            raise LaunchError(f"--set {pair!r}: the value is not valid YAML ({error.__class__.__name__})") from None
    return settings


def _typed(value: str) -> Any:
    """The value as YAML reads it; `1e-5` a float too (YAML 1.1, which PyYAML reads, wants `1.0e-5`)."""
    if not value.strip():
        return ""
    typed = yaml.safe_load(value)
    return float(typed) if isinstance(typed, str) and EXPONENT.fullmatch(typed) else typed


def resolve(recipe: str, sets: dict[str, Any]) -> dict[str, Any]:
    """The recipe's keys with `sets` applied (RecipeError as LaunchError: one line naming the shipped recipes)."""
    try:
        return load_recipe(recipe) | sets
    except RecipeError as error:
        raise LaunchError(str(error)) from None


def check_export(data: Path, config: dict[str, Any]) -> ExportManifest:
    """The export's manifest, after checking the folder is an export of the recipe's stage."""
    stage = config.get("stage") or SCRIPTS[config["script"]]
    try:
        return read_manifest(str(data), stage)
    except TrainingSetupError as error:
        raise LaunchError(str(error)) from None


def check_reward(config: dict[str, Any], manifest: ExportManifest) -> None:
    """A GRPO or RLOO recipe's reward recipe is one that exists (rewards.RECIPES), reads the answers of the export's
    prompt variant, and the sub-goal reward, when asked for, has its scoring endpoint (InfiGUI-R1 3.2.2)."""
    if config["script"] == "sft":
        return
    from trainer_bridge.rewards.recipes import RECIPES, variant_problem
    from trainer_bridge.train.grpo_action import subgoal_problem

    if config.get("reward_recipe") is not None and config["reward_recipe"] not in RECIPES:
        raise LaunchError(f"unknown reward recipe {config['reward_recipe']!r}; known: {', '.join(RECIPES)}")
    wrong_variant = variant_problem(config.get("reward_recipe"), manifest.prompt_variant)
    problem = wrong_variant or subgoal_problem(config) or judge_problem(config)
    if problem:
        raise LaunchError(problem)


def judge_problem(config: dict[str, Any]) -> str | None:
    """Why a task-level run cannot score its rollouts as it says (`outcome_by`), or None."""
    from trainer_bridge.rewards.trajectory import OUTCOME_BY_JUDGE, outcome_problem

    if config["script"] != "grpo_task":
        return None
    return outcome_problem(
        config.get("outcome_by", OUTCOME_BY_JUDGE), config.get("judge_model"), config.get("judge_base_url")
    )


def script_fields(script: str) -> list[dataclasses.Field[Any]]:
    """Every setting the script takes: the fields of the dataclasses its parser fills (imports TRL)."""
    try:
        module = import_module(f"trainer_bridge.train.{script}")
    except ModuleNotFoundError:
        raise LaunchError(f"the {script} script is not in this version of trainer_bridge") from None
    parser = module.make_parser()
    return [field for kind in parser.dataclass_types for field in dataclasses.fields(kind)]


def script_keys(script: str) -> set[str]:
    """Every key the script takes."""
    return {field.name for field in script_fields(script)}


def check_no_credentials(config: dict[str, Any]) -> None:
    """No setting holds a URL with credentials in it: the run's recipe.yaml and its database row keep every
    setting, and a resumed run is started again from them. Keys come from environment variables only."""
    for key, value in config.items():
        if isinstance(value, str) and url_secrets(value):
            raise LaunchError(
                f"{key}: the URL has credentials in it, which would be stored with the run; put "
                "the key in the environment variable the script reads for it (see --help)"
            )


def check_keys(recipe: str, config: dict[str, Any], sets: dict[str, Any]) -> None:
    """Each key names a setting of the script (checked when `--set` was given or the recipe is one's own)."""
    if not sets and recipe in recipe_names():
        return
    unknown = sorted(set(config) - script_keys(config["script"]))
    if unknown:
        raise LaunchError(
            f"unknown setting(s) for the {config['script']} script: {', '.join(unknown)} "
            f"(`python -m trainer_bridge.train.{config['script']} --help` lists them)"
        )


def vllm_version() -> tuple[int, ...] | None:
    """The installed vLLM's (major, minor), or None."""
    try:
        found = version("vllm")
    except PackageNotFoundError:
        return None
    return tuple(int(part) for part in found.split(".")[:2] if part.isdigit())


def choose_generation(config: dict[str, Any], topology: Topology) -> dict[str, Any]:
    """GRPO on GPUs generates with vLLM (colocated) when a version TRL supports is installed, else transformers;
    a recipe or --set that says `use_vllm` decides instead."""
    if config["script"] not in TRL_GENERATES or "use_vllm" in config or topology.gpus == 0:
        return config
    found = vllm_version()
    if found is None or not VLLM_RANGE[0] <= found[:2] <= VLLM_RANGE[1]:
        return config | {"use_vllm": False}
    return config | {"use_vllm": True, "vllm_mode": config.get("vllm_mode", "colocate")}


def with_rollout_workspace(config: dict[str, Any], topology: Topology, data_dir: Path, db_url: str | None) -> dict:
    """Task-level GRPO stores its rollouts in the workspace that records the run (unless the recipe names one);
    its generation uses the whole model in each process, which ZeRO-3's sharded weights do not allow."""
    if config["script"] != "grpo_task":
        return config
    if topology.deepspeed == "zero3":
        raise LaunchError("the grpo_task script generates with the whole model in each process: use --deepspeed zero2")
    if config.get("workspace_dir") or config.get("workspace_db"):
        return config
    return config | {"workspace_dir": str(data_dir), "workspace_db": db_url}


def manifest_sha256(data: Path) -> str:
    return hashlib.sha256(manifest_path(data).read_bytes()).hexdigest()


def write_resolved(output_dir: Path, config: dict[str, Any]) -> Path:
    """`<output>/recipe.yaml`: the configuration the script runs with (kept with its checkpoints)."""
    output_dir.mkdir(parents=True, exist_ok=True)
    path = output_dir / RESOLVED
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def reach_global_batch(config: dict[str, Any], topology: Topology) -> tuple[dict[str, Any], str]:
    """The config with its accumulation set so that an update sees the paper's global batch
    (`paper_global_batch`: per-device batch x accumulation x processes) on this topology, and a line that says
    what an update sees, the paper's or not, and why."""
    processes = max(1, topology.gpus) * topology.nodes
    per_device = int(config.get("per_device_train_batch_size", 8))  # TRL's default
    accumulation = int(config.get("gradient_accumulation_steps", 1))
    shape = f"{per_device} per device x {{}} accumulation x {processes} process(es)"
    wanted = config.get("paper_global_batch")
    if wanted is None:
        return config, (
            f"global batch: {per_device * accumulation * processes} per update "
            f"({shape.format(accumulation)}); the paper states none"
        )
    steps, rest = divmod(int(wanted), per_device * processes)
    if steps >= 1 and rest == 0:
        return config | {"gradient_accumulation_steps": steps}, (
            f"global batch: {wanted} per update, the paper's ({shape.format(steps)})"
        )
    return config, (
        f"global batch: {per_device * accumulation * processes} per update, NOT the paper's {wanted}: "
        f"{wanted} is not a multiple of {per_device} per device x {processes} process(es)"
    )
