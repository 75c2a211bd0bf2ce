"""The shipped training recipes: one YAML file each in annotator/resources/recipes, a paper's settings (or a tiny
CPU run), read by the training scripts' `--recipe NAME` (TRL's `--config FILE`), by the launcher and by the app's
Runs view: here, in the domain, so that the app lists them without importing the trainer bridge. Each names its
`script` (one of SCRIPTS) and the export `stage` it trains on; the other keys are the script's
arguments and TRL's config fields."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

FOLDER = "recipes"  # under annotator/resources
# What a recipe's run needs installed (the `train` extra); `trainer-bridge doctor` and the Runs view check them.
TRAIN_PACKAGES = ("torch", "torchvision", "transformers", "trl", "peft", "accelerate", "datasets")
SCRIPTS = {"sft": "sft", "grpo_action": "grpo-action", "rloo_action": "grpo-action", "grpo_task": "grpo-task"}


class RecipeError(ValueError):
    """An unknown recipe, or a file that is not one; the message says which exist."""


def recipe_names() -> list[str]:
    folder = resources.files("annotator.resources").joinpath(FOLDER)
    return sorted(entry.name[: -len(".yaml")] for entry in folder.iterdir() if entry.name.endswith(".yaml"))


def recipe_path(name_or_path: str) -> Path:
    """The shipped recipe `name`, or a YAML file of one's own."""
    given = Path(name_or_path)
    if given.suffix in (".yaml", ".yml") and given.is_file():
        return given
    if name_or_path not in recipe_names():
        raise RecipeError(f"no recipe {name_or_path!r}; shipped: {', '.join(recipe_names())} (or a .yaml file)")
    return Path(str(resources.files("annotator.resources").joinpath(FOLDER, f"{name_or_path}.yaml")))


def load_recipe(name_or_path: str) -> dict[str, Any]:
    """The recipe's keys; its `script` is one of SCRIPTS."""
    import yaml

    path = recipe_path(name_or_path)
    try:
        recipe = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise RecipeError(f"{path} is not valid YAML: {error}") from None
    if not isinstance(recipe, dict) or recipe.get("script") not in SCRIPTS:
        raise RecipeError(f"{path}: a recipe is a YAML mapping with script: one of {', '.join(SCRIPTS)}")
    return recipe
