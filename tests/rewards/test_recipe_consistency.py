"""Every shipped GRPO recipe pays its maximum for the right answer: the demo's labelled steps, exported in the prompt
variant the recipe reads (`Recipe.variants`), their `answer` column used as the completions. A recipe whose format
the export never writes (InfiGUI-R1's, before prompt variants: 0 for every right answer) fails here, and so does a
reward that cannot read its paper's answer. A wrong answer in the same format earns less.

The maximum of each reward as its rule allows it: 1 for the checks (format, type, action, point, text); UI-AGILE's
continuous grounding pays 1 + exp(-4 d^2) inside the box, 2 only at the centre, so a right point earns more than 1;
its thinking reward counts only with a right point, and pays more than 0 then."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from annotator.demo.workspace.build import demo_db_url
from annotator.domain.model_space import default_export_space
from annotator.domain.paper_answers import loads
from annotator.domain.prompts import PromptVariant
from annotator.domain.recipes import load_recipe, recipe_names
from annotator.storage.workspace import Workspace
from tests.shared_demo import demo_copy
from trainer_bridge.export.run import ExportOptions, export
from trainer_bridge.rewards.recipes import RECIPES, trl_rewards

pytestmark = pytest.mark.slow

CHECKS_PAY = 1.0  # every rule that checks a right/wrong fact pays 1 for right
RIGHT_AT_LEAST = {"continuous_grounding_reward": 1.0, "simple_thinking_reward": 0.0}  # strictly more than this
ACTION_RECIPES = sorted(
    {
        load_recipe(name).get("reward_recipe") or "mobile-r1"
        for name in recipe_names()
        if load_recipe(name)["script"] in ("grpo_action", "rloo_action")
    }
)


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo's grpo-action export in each prompt variant (one screenshot, as the papers' variants ask)."""
    root = tmp_path_factory.mktemp("recipes")
    demo_copy(tmp_path_factory, root / "demo")
    made = {}
    with Workspace.open(root / "demo", demo_db_url(root / "demo")) as workspace:
        for variant in PromptVariant:
            made[str(variant)] = root / variant
            export(
                workspace,
                ExportOptions(
                    "grpo-action",
                    "jsonl",
                    made[str(variant)],
                    default_export_space(),
                    history_images=1,
                    prompt_variant=variant,
                ),
            )
    return made


@pytest.fixture(scope="module")
def rows(exports: dict[str, Path]) -> dict[str, list[dict[str, Any]]]:
    """Each variant's rows."""
    made = {}
    for variant, out in exports.items():
        lines = (out / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines()
        made[variant] = [json.loads(line) for line in lines]
    return made


def scores(recipe: str, rows: list[dict[str, Any]], completions: list[str]) -> dict[str, list[Any]]:
    columns = {key: [row.get(key) for row in rows] for key in rows[0] if key not in ("messages", "images")}
    functions, _ = trl_rewards(recipe)
    return {fn.__name__: fn(completions, **columns) for fn in functions}


def test_the_shipped_recipes_are_the_ones_checked_here() -> None:
    assert {"mobile-r1", "ui-r1", "gui-r1", "infigui-r1", "ui-agile"} <= set(ACTION_RECIPES)


@pytest.mark.parametrize("recipe", ACTION_RECIPES)
def test_the_right_answer_earns_every_rewards_maximum(recipe: str, rows: dict[str, list[dict[str, Any]]]) -> None:
    variant = RECIPES[recipe].variants[0]
    found = rows[variant]
    assert len(found) >= 20  # the demo's steps the variant can say
    by_reward = scores(recipe, found, [row["answer"] for row in found])
    for name, values in by_reward.items():
        applied = [value for value in values if value is not None]
        assert applied, name  # each reward judged some row
        if name in RIGHT_AT_LEAST:
            assert min(applied) > RIGHT_AT_LEAST[name], (name, min(applied))
        else:
            assert all(value == CHECKS_PAY for value in applied), (
                name,
                [row["answer"] for row, value in zip(found, values, strict=True) if value != CHECKS_PAY],
            )


def wrong(answer: str) -> str:
    """The answer made wrong the way every paper can tell: a click far off, any other action another one (UI-R1
    checks a scroll's direction, an app's name or a typed text only by the action's type)."""
    if '"click"' in answer:
        return re.sub(r'"(coordinate|point)": \[', lambda m: m.group() + "9", answer, count=1)  # thousands of px off
    return re.sub(r'"action": "[a-z_]+"', '"action": "long_press", "coordinate": [1, 1]', answer, count=1)


@pytest.mark.parametrize("recipe", ACTION_RECIPES)
def test_a_wrong_answer_earns_less(recipe: str, rows: dict[str, list[dict[str, Any]]]) -> None:
    found = rows[RECIPES[recipe].variants[0]]
    right = totals(recipe, found, [row["answer"] for row in found])
    worse = totals(recipe, found, [wrong(row["answer"]) for row in found])
    same = [row["answer"] for row, w, r in zip(found, worse, right, strict=True) if w >= r]
    assert not same, same


def totals(recipe: str, rows: list[dict[str, Any]], completions: list[str]) -> list[float]:
    weights = dict(RECIPES[recipe].weights)
    by_reward = scores(recipe, rows, completions)
    return [sum(weights[name] * (values[i] or 0.0) for name, values in by_reward.items()) for i in range(len(rows))]


def test_the_papers_answers_read_back_as_the_labelled_action(rows: dict[str, list[dict[str, Any]]]) -> None:
    """UI-R1's and GUI-R1's answers are a one-element list, in JSON (the papers print the Python literal)."""
    for variant in ("ui-r1", "gui-r1"):
        for row in rows[variant]:
            inside = row["answer"].split("<answer>")[1].split("</answer>")[0]
            assert isinstance(loads(inside), list) and len(loads(inside)) == 1


def test_export_leaves_out_what_a_papers_actions_cannot_say_and_counts_it(exports: dict[str, Path]) -> None:
    """UI-R1 has no terminate and no Home button, GUI-R1 no app opening: those steps are left out, and counted."""
    left_out = {}
    for variant, out in exports.items():
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["prompt_variant"] == variant
        left_out[variant] = manifest["unsayable_left_out"]
    assert left_out["qwen2.5-vl"] == left_out["mobile-r1-paper"] == left_out["infigui-r1"] == {}
    assert set(left_out["ui-r1"]) == {"terminate", "system_button"} and set(left_out["gui-r1"]) == {"open"}


def test_gui_r1_checks_the_scrolls_direction_its_input_text(rows: dict[str, list[dict[str, Any]]]) -> None:
    scrolls = [row for row in rows["gui-r1"] if '"scroll"' in row["answer"]]
    other_way = [
        row["answer"].replace('"down"', '"up"')
        if '"down"' in row["answer"]
        else row["answer"].replace('"up"', '"down"')
        for row in scrolls
    ]
    assert scrolls and all(
        value == 1.0 for value in scores("gui-r1", scrolls, [r["answer"] for r in scrolls])["text_f1_reward"]
    )
    assert all(value == 0.0 for value in scores("gui-r1", scrolls, other_way)["text_f1_reward"])
