"""`trainer-bridge recipes list|show` and the paper recipes' contract: every setting a paper's run relies on is
written in its recipe with its source (the paper's section, or "unstated: chosen"), none left to a library's
default; and the launcher reaches the paper's global batch on the processes it has, or says it cannot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from annotator.domain.recipes import load_recipe, recipe_names
from trainer_bridge.cli.recipes import RELIED_ON
from trainer_bridge.cli.root import cli
from trainer_bridge.cli.train import train_command

PAPER_RECIPES = [name for name in recipe_names() if not load_recipe(name)["paper"].startswith("none")]


def test_the_list_names_every_shipped_recipe() -> None:
    result = CliRunner().invoke(cli, ["recipes", "list"])
    assert result.exit_code == 0 and all(name in result.output for name in recipe_names())


@pytest.mark.parametrize("name", PAPER_RECIPES)
def test_every_setting_a_papers_run_relies_on_is_written_with_its_source(name: str) -> None:
    recipe = load_recipe(name)
    sources = recipe.get("sources") or {}
    relied = [key for key in RELIED_ON[recipe["script"]] if key != "paper_global_batch"]  # only where stated
    missing = [key for key in relied if key not in recipe]
    unsourced = [key for key in relied if key in recipe and not sources.get(key)]
    assert not missing and not unsourced, (missing, unsourced)
    assert all(text.startswith(("paper:", "unstated: chosen", "set by the launcher")) for text in sources.values())
    assert set(sources) <= set(recipe)  # a source of a setting the recipe does not write would mislead


def test_show_prints_each_setting_with_its_value_and_source() -> None:
    result = CliRunner().invoke(cli, ["recipes", "show", "infigui-r1", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["setting"]: row for row in json.loads(result.output)["settings"]}
    assert rows["learning_rate"] == {"setting": "learning_rate", "value": 1e-06, "source": "paper: 4.1 (1.0e-6)"}
    assert rows["beta"]["value"] == 0.0 and rows["beta"]["source"].startswith("unstated: chosen")
    unknown = CliRunner().invoke(cli, ["recipes", "show", "nope"])
    assert unknown.exit_code == 2 and "no recipe 'nope'" in unknown.output


def dry_run(recipe: str, data: Path, tmp_path: Path, *options: str) -> tuple[str, dict]:
    import yaml

    arguments = [recipe, "--data", str(data), "--data-dir", str(tmp_path / "ws"), "--model", "m", "--dry-run", *options]
    result = CliRunner().invoke(train_command, arguments)
    assert result.exit_code == 0, result.output
    config = "\n".join(line[4:] for line in result.stderr.splitlines() if line.startswith("#   "))
    return result.stderr, yaml.safe_load(config)


def test_the_launcher_reaches_the_papers_global_batch_or_says_it_does_not(
    exports: dict[str, Path], tmp_path: Path
) -> None:
    """UI-R1 updated on 16 completions (8 GPUs x 1 x 2): on 1 GPU the accumulation becomes 16, on 8 it stays 2;
    on 3 GPUs 16 cannot be reached, and the launch says what it runs instead."""
    data = exports["grpo-action ui-r1"]
    said, config = dry_run("ui-r1", data, tmp_path, "--gpus", "1")
    assert config["gradient_accumulation_steps"] == 16 and "global batch: 16 per update, the paper's" in said
    said, config = dry_run("ui-r1", data, tmp_path, "--gpus", "8")
    assert config["gradient_accumulation_steps"] == 2
    said, config = dry_run("ui-r1", data, tmp_path, "--gpus", "3")
    assert config["gradient_accumulation_steps"] == 2 and "NOT the paper's 16" in said
    said, _ = dry_run("mobile-r1-stage1", exports["sft"], tmp_path, "--gpus", "2")
    assert "global batch: 16 per update (1 per device x 8 accumulation x 2 process(es)); the paper states none" in said
