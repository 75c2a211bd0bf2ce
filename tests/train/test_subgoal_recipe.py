"""The `infigui-r1` recipe with InfiGUI-R1's sub-goal term (3.2.2): the recipe's endpoint keys reach the scorer
(the demo's scripted endpoint scores), a run without an endpoint stops in one line before any model loads (the
script and the launcher alike), and RLOO runs the recipe on the tiny model against the scripted endpoint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.domain.export_manifest import ExportManifest
from annotator.domain.recipes import load_recipe
from tests.rewards.calls import infigui, truth
from trainer_bridge.launch.command import LaunchError
from trainer_bridge.launch.settings import check_reward
from trainer_bridge.train import rloo_action

# An export's manifest in InfiGUI-R1's prompt variant, as far as the checks read it.
INFIGUI = ExportManifest(
    stage="grpo-action",
    format="trl",
    min_pixels=3136,
    max_pixels=12845056,
    counts={},
    files=(),
    code_version="0",
    source_database="",
    format_version=1,
    prompt_variant="infigui-r1",
)
LABELLED = "<think>当前在首页</think><action>点击“搜索”</action><tool_call>{}</tool_call>"


@pytest.fixture(scope="module")
def endpoint():
    with ScriptedEndpoint() as running:
        yield running


@pytest.mark.slow  # imports the GRPO script, and with it trl and torch
def test_the_recipes_keys_reach_the_scorer(endpoint, tmp_path: Path) -> None:
    from trainer_bridge.train.grpo_action import recipe_rewards

    given = [
        "--data",
        str(tmp_path),
        "--output_dir",
        str(tmp_path),
        "--use_cpu",
        "true",
        "--bf16",
        "false",
        "--subgoal_reward",
        "true",
        "--subgoal_base_url",
        endpoint.base_url,
        "--subgoal_model",
        "scripted",
    ]
    _, config = rloo_action.make_parser().parse_args_and_config(given)
    functions, weights = recipe_rewards("infigui-r1", config)
    assert [f.__name__ for f in functions] == ["think_tool_call_format_reward", "infigui_agent_reward"]
    assert weights == [0.1, 0.9]
    columns = {name: values * 2 for name, values in truth("click", box=[0, 0, 100, 100], coordinate=[50, 50]).items()}
    missed = [
        infigui("click", think="点击“搜索”", coordinate=[500, 500]),
        infigui("click", think="点击“搜索”", coordinate=[50, 50]),
    ]
    seen: dict[str, float] = {}
    scores = functions[1](missed, answer=[LABELLED] * 2, log_metric=seen.__setitem__, **columns)
    # a missed point whose reasoning names the labelled sub-goal: w_t + w_s x 10/10; the right point: w_t + w_p
    assert scores == pytest.approx([0.2 + 0.2, 0.2 + 0.8]) and seen == {"subgoal/failures": 0.0}


def test_without_an_endpoint_the_run_stops_in_one_line_before_any_model_loads(
    exports: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = [
        "--recipe",
        "infigui-r1",
        "--data",
        str(exports["grpo-action infigui-r1"]),
        "--output_dir",
        str(tmp_path / "o"),
        "--bf16",
        "false",
        "--use_cpu",
        "true",
    ]
    assert rloo_action.main(arguments) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "needs a scoring LLM: set subgoal_base_url and subgoal_model" in lines[0]
    assert not (tmp_path / "o" / "tiny-model").exists()
    with pytest.raises(LaunchError, match="needs a scoring LLM"):
        check_reward(load_recipe("infigui-r1"), INFIGUI)  # `trainer-bridge train infigui-r1` stops before launching
    check_reward(load_recipe("infigui-r1") | {"subgoal_base_url": "http://h/v1", "subgoal_model": "m"}, INFIGUI)


@pytest.mark.slow
@pytest.mark.train
def test_rloo_runs_the_infigui_recipe_with_the_scripted_scorer(
    exports: dict[str, Path], endpoint, tmp_path: Path
) -> None:
    from trainer_bridge.train.tiny import build_tiny_qwen

    out = tmp_path / "rloo"
    small = [
        "--max_steps",
        "1",
        "--num_generations",
        "2",
        "--steps_per_generation",
        "2",
        "--gradient_accumulation_steps",
        "1",
        "--bf16",
        "false",
        "--gradient_checkpointing",
        "false",
        "--use_cpu",
        "true",
        "--max_completion_length",
        "16",
        "--report_to",
        "none",
        "--save_strategy",
        "no",
    ]
    arguments = [
        "--recipe",
        "infigui-r1",
        "--data",
        str(exports["grpo-action infigui-r1"]),
        "--model",
        str(build_tiny_qwen(tmp_path / "tiny")),
        "--output_dir",
        str(out),
        "--subgoal_base_url",
        endpoint.base_url,
        "--subgoal_model",
        "scripted",
        *small,
    ]
    assert rloo_action.main(arguments) == 0
    logged = [json.loads(line) for line in (out / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    step = next(e for e in logged if e["event"] == "log" and "reward" in e)
    assert "rewards/think_tool_call_format_reward/mean" in step and "rewards/infigui_agent_reward/mean" in step
    assert step["subgoal/failures"] == 0
