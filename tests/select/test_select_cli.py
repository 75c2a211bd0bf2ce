"""`trainer-bridge select` end to end: a real loopback model, a real SQLite workspace, the command's exit code,
its lines and its JSON last line; running it again; Ctrl+C."""

from __future__ import annotations

import json
import os
import signal

import pytest
from click.testing import CliRunner, Result

from annotator.storage import evaluations
from annotator.storage.workspace import Workspace
from tests.chat_server import Reply, Seen
from tests.select.planned import PlannedModel, Step, add_typing_trajectory
from trainer_bridge.cli.root import cli

pytestmark = pytest.mark.slow

PLAN = {
    "任务甲": [Step("甲0", 0, 2), Step("甲1", 4, 4), Step("甲2", 2, 4)],
    "任务乙": [Step("乙0", 0, 0), Step("乙1", 1, 3)],
}


@pytest.fixture
def planned(workspace: Workspace) -> Workspace:
    for seed, (instruction, steps) in enumerate(PLAN.items(), start=1):
        add_typing_trajectory(workspace, instruction, steps, seed=seed)
    return workspace


def select(workspace: Workspace, model: PlannedModel, *options: str) -> Result:
    arguments = [
        "select",
        "--base-url",
        model.base_url,
        "--model",
        "planned",
        "--retries",
        "0",
        "--data-dir",
        str(workspace.data_dir),
        *options,
    ]
    return CliRunner().invoke(cli, arguments)


def last_json(result: Result) -> dict:
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_select_prints_the_run_and_what_each_rule_keeps(planned: Workspace) -> None:
    with PlannedModel(PLAN) as model:
        result = select(planned, model, "--samples", "4", "--temperature", "1.0", "--levels", "task,action", "--json")
    assert result.exit_code == 0, result.output
    report = last_json(result)
    assert report["keep"]["task"] == {"hard": 2, "band": 2, "bottleneck": 1, "prone": 2}
    assert report["keep"]["action"] == {"hard": 1, "band": 2, "bottleneck": 1, "prone": 2}  # 乙0; 甲0, 乙1
    assert (report["steps"], report["samples"], report["no_answer"], report["asked"]) == (5, 4, 0, 40)
    assert report["pass_rates"]["task"] == {
        "0": 2,
        "(0,0.25]": 1,
        "(0.25,0.5]": 1,
        "(0.5,0.75]": 0,
        "(0.75,1)": 0,
        "1": 1,
        "no answer": 0,
    }
    assert report["pass_rates"]["action"]["1"] == 2  # 甲1 and 甲2
    run = report["evaluation_id"]
    assert f"Selection {run} (complete): 5 steps, 4 samples each at temperature 1" in result.stdout
    assert "--keep hard       2 steps" in result.stdout
    assert model.temperatures == {1.0}
    assert evaluations.get_evaluation(planned.database, run).kind == "selection"


def test_the_same_command_again_asks_nothing_new(planned: Workspace) -> None:
    options = ("--samples", "4", "--temperature", "0.7", "--json")
    with PlannedModel(PLAN) as model:
        first = select(planned, model, *options)
        second = select(planned, model, *options)
    assert first.exit_code == second.exit_code == 0, first.output + second.output
    assert model.requests == 20  # 5 steps x 4 samples, once
    assert last_json(second)["evaluation_id"] == last_json(first)["evaluation_id"]
    assert (last_json(second)["asked"], last_json(second)["skipped"]) == (0, 20)
    assert last_json(second)["keep"] == last_json(first)["keep"]
    assert "20 answers were there already" in second.stderr


def test_rules_a_run_cannot_serve_say_so_and_count_null(planned: Workspace) -> None:
    with PlannedModel(PLAN) as model:
        result = select(planned, model, "--samples", "4", "--temperature", "0.2", "--json")
    assert result.exit_code == 0, result.output
    assert last_json(result)["keep"] == {"task": {"hard": 2, "band": 2, "bottleneck": None, "prone": None}}
    assert "--keep bottleneck not available" in result.stdout and "--levels task,action" in result.stdout
    assert "--keep prone      not available" in result.stdout and "sampled at 0.2" in result.stdout


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--samples", "4", "--temperature", "1", "--levels", "task,step"), "--levels 'task,step'"),
        (("--samples", "4", "--temperature", "1", "--reward", "task_outcome_reward"), "--reward"),
        (("--samples", "4", "--temperature", "1", "--pass-threshold", "nan"), "pass threshold"),
        (
            (
                "--temperature",
                "1",
            ),
            "--samples",
        ),
    ],
)
def test_bad_options_are_usage_errors_and_ask_nothing(planned: Workspace, options: tuple, message: str) -> None:
    with PlannedModel(PLAN) as model:
        result = select(planned, model, *options)
    assert result.exit_code == 2 and message in result.output
    assert model.requests == 0 and evaluations.list_evaluations(planned.database) == []


def test_ctrl_c_stops_after_the_requests_in_flight_and_the_run_goes_on(planned: Workspace) -> None:
    """The model presses Ctrl+C (SIGINT to this process) when its third request arrives."""
    options = ("--samples", "4", "--temperature", "1", "--concurrency", "1", "--json")
    with PlannedModel(PLAN) as model:
        answer = model.respond

        def interrupting(seen: Seen) -> Reply:
            if model.requests == 2:  # two answered: this is the third
                os.kill(os.getpid(), signal.SIGINT)
            return answer(seen)  # type: ignore[misc]

        model.respond = interrupting
        stopped = select(planned, model, *options)
        asked_first = model.requests
        model.respond = answer
        finished = select(planned, model, *options)
    assert stopped.exit_code == 1, stopped.output
    assert "Stopping after the requests in flight" in stopped.stderr
    assert f"selection {last_json(stopped)['evaluation_id']} stopped: run the same command again" in stopped.stderr
    assert 3 <= asked_first < 20 and last_json(stopped)["asked"] == asked_first
    assert finished.exit_code == 0, finished.output
    assert last_json(finished)["skipped"] == asked_first and model.requests == 20  # nothing asked twice
    assert last_json(finished)["keep"]["task"]["hard"] == 2
