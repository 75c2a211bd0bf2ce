"""`trainer-bridge recipes list|show NAME`: the shipped recipes, and each setting of one with where it comes from.

A recipe's `sources` key maps a setting to its source: the paper's section that states the value, or "unstated:
chosen" and why. A setting the recipe does not write takes the script's default (TRL's, or the bridge's), and the
listing says so, with the value it takes, for the settings the papers' training depends on.
"""

from __future__ import annotations

import json
from typing import Any

import click

from annotator.domain.recipes import RecipeError, load_recipe, recipe_names
from trainer_bridge.launch.settings import script_fields

DESCRIBING = ("script", "stage", "description", "paper", "sources")  # what a recipe says of itself
# The settings a GRPO-style run relies on: shown with the default they take when a recipe leaves them out.
RELIED_ON = {
    "sft": ("learning_rate", "lr_scheduler_type", "warmup_steps", "num_train_epochs", "per_device_train_batch_size",
            "gradient_accumulation_steps", "paper_global_batch"),
    "grpo_action": ("learning_rate", "lr_scheduler_type", "num_train_epochs", "per_device_train_batch_size",
                    "gradient_accumulation_steps", "paper_global_batch", "num_generations", "temperature", "beta",
                    "epsilon", "loss_type", "scale_rewards", "max_completion_length"),
    "rloo_action": ("learning_rate", "lr_scheduler_type", "num_train_epochs", "per_device_train_batch_size",
                    "gradient_accumulation_steps", "paper_global_batch", "num_generations", "temperature", "beta",
                    "max_completion_length"),
    "grpo_task": ("learning_rate", "num_train_epochs", "per_device_train_batch_size", "gradient_accumulation_steps",
                  "paper_global_batch", "num_generations", "temperature", "epsilon", "max_rollout_steps",
                  "history_images", "outcome_by"),
}  # fmt: skip


@click.group("recipes")
def recipes_command() -> None:
    """The shipped training recipes and where each of their settings comes from."""


@recipes_command.command("list")
def list_command() -> None:
    """Each shipped recipe: its script, the export stage it trains on, and what it is."""
    for name in recipe_names():
        recipe = load_recipe(name)
        click.echo(f"{name:18} {recipe['script']:12} {recipe.get('stage', ''):12} {recipe.get('description', '')}")


@recipes_command.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: every setting with its value and source.")
def show_command(name: str, as_json: bool) -> None:
    """Every setting of recipe NAME (a shipped one or a .yaml file) with its value and its source."""
    try:
        recipe = load_recipe(name)
    except RecipeError as error:
        raise click.BadParameter(str(error), param_hint="NAME") from None
    rows = settings(recipe)
    if as_json:
        click.echo(json.dumps({"recipe": name, "paper": recipe.get("paper", ""), "settings": rows}, ensure_ascii=False))
        return
    click.echo(f"{name}: {recipe.get('description', '')}")
    click.echo(
        f"paper: {recipe.get('paper', '') or 'none'}; script {recipe['script']}, trains on "
        f"{recipe.get('stage', '')} exports"
    )
    width = max(len(row["setting"]) for row in rows)
    for row in rows:
        click.echo(f"  {row['setting']:{width}}  {json.dumps(row['value'], ensure_ascii=False):>12}  {row['source']}")


def settings(recipe: dict[str, Any]) -> list[dict[str, Any]]:
    """The recipe's settings, then the relied-on ones it leaves to the script's defaults, each with its source."""
    sources = recipe.get("sources") or {}
    rows = [
        {"setting": key, "value": value, "source": sources.get(key, "recipe")}
        for key, value in recipe.items()
        if key not in DESCRIBING
    ]
    defaults = script_defaults(recipe["script"])
    for key in RELIED_ON.get(recipe["script"], ()):
        if key not in recipe and key in defaults:
            rows.append({"setting": key, "value": defaults[key], "source": "not in the recipe: the script's default"})
    return rows


def script_defaults(script: str) -> dict[str, Any]:
    """Every setting of the script with its default, as the listing shows it."""
    import dataclasses

    found: dict[str, Any] = {}
    for item in script_fields(script):
        if item.default is not dataclasses.MISSING:
            found[item.name] = item.default
        elif item.default_factory is not dataclasses.MISSING:
            found[item.name] = item.default_factory()
    return {
        key: value if isinstance(value, (int, float, str, bool, type(None))) else str(value)
        for key, value in found.items()
    }
