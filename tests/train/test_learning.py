"""Training makes the model better, measured the way a user measures it: the demo's own labelled steps exported with
`--preset tiny`, the `tiny-sft` recipe as shipped, and `trainer-bridge eval` of the untrained model and of the
checkpoint on those steps.

A regression anywhere between export and evaluation fails here: a tokenizer that drops a tag of the answer, an
evaluation prompt other than the training one (variant, history, image size), a coordinate space that does not
round-trip, a stop token that never stops. The tiny model memorises; it is asked about the steps it was shown."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.workspace.build import DemoRun, demo_db_url
from annotator.storage import instructions
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.shared_demo import demo_copy
from trainer_bridge.cli.root import cli
from trainer_bridge.train import grpo_action, grpo_task, sft

pytestmark = [pytest.mark.slow, pytest.mark.train]

LEARNED, UNTRAINED = 0.9, 0.1
ANSWER_TOKENS = "128"  # a correct answer is ~70 tokens with the tiny model's tokenizer


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, DemoRun]:
    """The demo workspace and the accepted trajectory with the fewest steps: a handful of labelled steps."""
    folder = tmp_path_factory.mktemp("learning") / "demo"
    report = demo_copy(tmp_path_factory, folder)
    accepted = [run for run in report.runs if run.review == "accepted"]
    return folder, min(accepted, key=lambda run: run.steps)


def bridge(*arguments: str) -> str:
    result = CliRunner().invoke(cli, list(arguments), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def exports(demo: tuple[Path, DemoRun]) -> dict[str, Path]:
    folder, run = demo
    made = {}
    for stage in ("sft", "grpo-action", "grpo-task"):
        made[stage] = folder.parent / "exports" / stage
        bridge(
            "export",
            "--stage",
            stage,
            "--format",
            "trl",
            "--preset",
            "tiny",
            "--id",
            str(run.trajectory_id),
            "--out",
            str(made[stage]),
            "--data-dir",
            str(folder),
        )
    return made


def step_accuracy(demo: tuple[Path, DemoRun], exports: dict[str, Path], model: Path, name: str) -> float:
    """`trainer-bridge eval` of `model` on the trajectory's steps, as the export was made; its step accuracy."""
    folder, run = demo
    output = bridge(
        "eval",
        "--model-path",
        str(model),
        "--export",
        str(exports["grpo-action"]),
        "--id",
        str(run.trajectory_id),
        "--name",
        name,
        "--max-new-tokens",
        ANSWER_TOKENS,
        "--new",
        "--json",
        "--data-dir",
        str(folder),
    )
    result = json.loads(output.strip().splitlines()[-1])
    assert result["status"] == "complete" and result["answered"] == run.steps
    return float(result["summary"]["step_accuracy"])


@pytest.fixture(scope="module")
def sft_run(exports: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("learning-sft") / "run"
    assert (
        sft.main(
            ["--recipe", "tiny-sft", "--data", str(exports["sft"]), "--output_dir", str(out), "--report_to", "none"]
        )
        == 0
    )
    return out


def logged(run: Path, key: str) -> list[float]:
    """`key` of every step the run logged, in order."""
    lines = (run / "events.jsonl").read_text(encoding="utf-8").splitlines()
    return [event[key] for event in map(json.loads, lines) if event.get("event") == "log" and key in event]


def test_sft_takes_the_model_from_none_of_its_steps_right_to_nearly_all(
    demo: tuple[Path, DemoRun], exports: dict[str, Path], sft_run: Path
) -> None:
    before = step_accuracy(demo, exports, sft_run / "tiny-model", "untrained")
    after = step_accuracy(demo, exports, sft_run, "after tiny-sft")
    assert before <= UNTRAINED and after >= LEARNED, (before, after)
    curve = logged(sft_run, "loss")
    assert curve[-1] * 10 <= curve[0]  # the loss falls by an order of magnitude


def test_task_level_rollouts_of_a_memorised_model_are_well_formed_and_complete_its_task(
    demo: tuple[Path, DemoRun], exports: dict[str, Path], sft_run: Path, tmp_path: Path
) -> None:
    """Each rollout starts where the reference run did (the home screen) and is sampled at 0.3: at the recipe's
    1.0 a model this small strays from what it memorised within a few replies."""
    folder, run = demo
    out = tmp_path / "task"
    assert (
        grpo_task.main(
            [
                "--recipe",
                "tiny-grpo-task",
                "--data",
                str(exports["grpo-task"]),
                "--model",
                str(sft_run),
                "--output_dir",
                str(out),
                "--workspace_dir",
                str(folder),
                "--max_steps",
                "1",
                "--max_rollout_steps",
                str(run.steps + 2),
                "--temperature",
                "0.3",
                "--report_to",
                "none",
            ]
        )
        == 0
    )
    lines = (out / "events.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [row for event in map(json.loads, lines) if event.get("event") == "completions" for row in event["rows"]]
    assert rows and all(row["trajectory_format_reward"] > -1 for row in rows)  # well-formed replies
    assert any(row["checked_by"] == "phone" and row["done"] is True for row in rows), rows  # the phone's own check


def instruction_id(folder: Path, run: DemoRun) -> int:
    with Workspace.open(folder, demo_db_url(folder)) as workspace:
        text = load_trajectory(workspace.database, run.trajectory_id).instruction
        stored = instructions.list_instructions(workspace.database, app=run.app)
    return next(record.id for record in stored if record.text == text)


def test_the_memorised_model_as_the_agent_completes_its_task_on_a_virtual_phone(
    demo: tuple[Path, DemoRun], exports: dict[str, Path], sft_run: Path
) -> None:
    folder, run = demo
    with VirtualAdbServer([VirtualPhone(serial="virtual-learning")]) as server:
        task = str(instruction_id(folder, run))
        output = bridge(
            "eval",
            "--online",
            "--model-path",
            str(sft_run),
            "--export",
            str(exports["grpo-action"]),
            "--start-in",
            "home",
            "--instruction-id",
            task,
            "--adb-port",
            str(server.port),
            "--max-new-tokens",
            ANSWER_TOKENS,
            "--json",
            "--data-dir",
            str(folder),
        )
    result = json.loads(output.strip().splitlines()[-1])
    assert result["status"] == "complete" and result["summary"]["checked_by"]["phone"] == 1
    assert result["summary"]["claimed_and_done"] == 1.0  # done by the phone's own check, and the agent said so


COORDINATE = re.compile(r'"coordinate": \[(\d+), (\d+)\]')


def with_rows(export: Path, out: Path, rows: Any) -> Path:
    """A copy of `export` (its manifest too) whose train split is `rows`."""
    from datasets import DatasetDict

    DatasetDict({"train": rows}).save_to_disk(str(out))
    shutil.copy(export / "manifest.json", out / "manifest.json")
    return out


def mirrored_click(row: dict[str, Any]) -> dict[str, Any]:
    """The row answered with a click mirrored across the screen's middle: the same reply, outside the box."""
    width = int(row["image_width"])
    part = row["completion"][0]["content"][0]
    part["text"] = COORDINATE.sub(lambda m: f'"coordinate": [{width - int(m.group(1))}, {m.group(2)}]', part["text"])
    return row


@pytest.fixture(scope="module")
def half_right(exports: dict[str, Path], sft_run: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A checkpoint that is right half the time, on purpose: the memorised model tuned further on its steps plus
    every click step again answered with the mirrored point. Sampled at 0.5, its replies are well formed and
    click the right or the mirrored point about as often: the reward's spread is the answer, not sampling noise."""
    from datasets import concatenate_datasets, load_from_disk

    folder = tmp_path_factory.mktemp("half-right")
    actions = load_from_disk(str(exports["grpo-action"]))["train"]
    clicks = actions.filter(lambda row: row["gt_action_type"] == "click")
    steps = load_from_disk(str(exports["sft"]))["train"]
    click_ids = set(clicks["id"])
    wrong = steps.filter(lambda row: row["id"] in click_ids).map(mirrored_click)
    assert len(clicks) >= 2 and len(wrong) == len(clicks)
    mixed = with_rows(exports["sft"], folder / "sft", concatenate_datasets([steps, wrong]))
    run = folder / "run"
    assert (
        sft.main(
            [
                "--recipe",
                "tiny-sft",
                "--data",
                str(mixed),
                "--model",
                str(sft_run),
                "--num_train_epochs",
                "10",
                "--warmup_steps",
                "5",
                "--output_dir",
                str(run),
                "--report_to",
                "none",
            ]
        )
        == 0
    )
    return {"model": run, "clicks": with_rows(exports["grpo-action"], folder / "clicks", clicks)}


def quarters(values: list[float]) -> tuple[float, float]:
    quarter = len(values) // 4
    return sum(values[:quarter]) / quarter, sum(values[-quarter:]) / quarter


def test_action_level_grpo_raises_the_reward_of_a_model_that_is_sometimes_right(
    half_right: dict[str, Path], tmp_path: Path
) -> None:
    """The shipped tiny-grpo recipe (Mobile-R1's R_Act + R_Fmt), one click step a group of 8 at 0.5 and a rate the
    half-right start allows: the share of clicks in the box (R_Act) climbs from about a half towards all. A
    reward scored against the wrong completion, a flipped sign or a coordinate space the reward does not share
    keeps it flat or sends it down."""
    out = tmp_path / "grpo"
    assert (
        grpo_action.main(
            [
                "--recipe",
                "tiny-grpo",
                "--data",
                str(half_right["clicks"]),
                "--model",
                str(half_right["model"]),
                "--output_dir",
                str(out),
                "--max_steps",
                "24",
                "--num_generations",
                "8",
                "--per_device_train_batch_size",
                "8",
                "--temperature",
                "0.5",
                "--learning_rate",
                "3e-4",
                "--report_to",
                "none",
            ]
        )
        == 0
    )
    in_box, spread = logged(out, "rewards/action_reward/mean"), logged(out, "rewards/action_reward/std")
    first, last = quarters(in_box)
    assert quarters(spread)[0] > 0.2, spread  # the groups disagreed: there was something to learn
    assert first <= 0.85 and last >= first + 0.15, in_box  # R_Act: the share of clicks in the box
