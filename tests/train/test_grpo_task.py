"""Task-level online GRPO (Mobile-R1 stage 3) on the CPU: the tiny Qwen2.5-VL plays its rollouts on two virtual
phones it starts itself, the rollouts are stored as trajectories of the workspace and scored by the phones' success
checks; the policy gradient moves each turn's tokens the way its rollout's advantage says; bad inputs are one line."""

from __future__ import annotations

import doctest
import json
import threading
from pathlib import Path

import pytest

from annotator.storage.browse import BrowseFilter, Sort, fetch_page
from annotator.storage.workspace import Workspace
from trainer_bridge.train import grpo_task, task_trainer
from trainer_bridge.train.task_policy import PolicyChat

pytestmark = [pytest.mark.slow, pytest.mark.train]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from trainer_bridge.train.tiny import build_tiny_qwen

    return build_tiny_qwen(tmp_path_factory.mktemp("tiny"))


def events(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "events.jsonl").read_text(encoding="utf-8").splitlines()]


def test_the_advantage_and_loss_docs_hold() -> None:
    assert doctest.testmod(task_trainer).failed == 0


def test_one_iteration_plays_stores_and_scores_rollouts_on_two_virtual_phones(
    exports: dict[str, Path], tiny: Path, tmp_path: Path
) -> None:
    out, data = tmp_path / "task", tmp_path / "workspace"
    arguments = [
        "--recipe",
        "tiny-grpo-task",
        "--data",
        str(exports["grpo-task"]),
        "--model",
        str(tiny),
        "--output_dir",
        str(out),
        "--workspace_dir",
        str(data),
        "--max_steps",
        "1",
        "--report_to",
        "none",
    ]
    assert grpo_task.main(arguments) == 0
    written = events(out)
    log = next(e for e in written if e["event"] == "log" and "reward" in e)
    rows = [row for e in written if e["event"] == "completions" for row in e["rows"]]
    assert len(rows) == 2 and {row["rollout"] for row in rows} == {0, 1}  # G = 2 rollouts of one instruction
    # The untrained policy writes no usable reply: format -1, and the phone's own check says the task is not done.
    assert all(
        row["checked_by"] == "phone" and row["done"] is False and row["task_outcome_reward"] == 0.0 for row in rows
    )
    assert all(row["reward"] == row["trajectory_format_reward"] + row["task_outcome_reward"] == -1.0 for row in rows)
    assert log["reward"] == -1.0 and log["rewards/task_outcome_reward/mean"] == 0.0 and (out / "checkpoint-1").is_dir()
    with Workspace.open(data) as workspace:
        stored = {row.id: row for row in fetch_page(workspace.database, BrowseFilter(), Sort()).rows}
    played = [stored[row["trajectory_id"]] for row in rows]
    assert all(t.collector == f"grpo-task:{out.name}" and t.status == "complete" for t in played)
    assert {t.instruction for t in played} == {rows[0]["instruction"]}


@pytest.mark.parametrize("advantage", [1.0, -1.0])
def test_a_turns_tokens_become_likelier_with_a_positive_advantage_and_rarer_with_a_negative(
    tiny: Path, advantage: float
) -> None:
    import torch
    from transformers import AutoModelForImageTextToText, AutoProcessor

    torch.manual_seed(0)
    model = AutoModelForImageTextToText.from_pretrained(tiny)
    chat = PolicyChat(
        model, AutoProcessor.from_pretrained(tiny), threading.Lock(), name="tiny", temperature=1.0, max_new_tokens=8
    )
    chat.complete([{"role": "user", "content": "打开设置"}])
    (generation,) = chat.take()
    optimiser = torch.optim.SGD(model.parameters(), lr=0.5)
    tokens = float(generation.completion_ids.shape[0])
    log_probability = lambda: task_trainer.turn_log_probs(model, generation, 1.0).sum().item()  # noqa: E731
    before = log_probability()
    loss = task_trainer.turn_loss(model, generation, advantage, 1.0, 0.2)
    assert loss.item() == pytest.approx(-advantage * tokens)  # on-policy the ratio is 1
    loss.backward()
    optimiser.step()
    assert (log_probability() > before) == (advantage > 0)


def test_bad_inputs_are_one_line_before_any_model_loads(
    exports: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--recipe", "tiny-grpo-task", "--output_dir", str(tmp_path / "out"), "--workspace_dir", str(tmp_path)]
    cases = {
        "a 'grpo-action' export; this recipe trains on 'grpo-task'": ["--data", str(exports["grpo-action"])],
        "num_generations must be 2 or more": ["--data", str(exports["grpo-task"]), "--num_generations", "1"],
        "judge_model needs judge_base_url": ["--data", str(exports["grpo-task"]), "--judge_model", "gpt-4o"],
        "outcome_by judge (Mobile-R1 4.2.3) scores every rollout with the judge": [
            "--data",
            str(exports["grpo-task"]),
            "--outcome_by",
            "judge",
        ],
        "outcome_by 'phone': expected judge or check": ["--data", str(exports["grpo-task"]), "--outcome_by", "phone"],
        "scores steps (action_reward, format_reward), not rollouts": [
            "--data",
            str(exports["grpo-task"]),
            "--reward_recipe",
            "mobile-r1",
        ],
    }
    for expected, extra in cases.items():
        assert grpo_task.main([*base, *extra]) == 2
        error = capsys.readouterr().err.strip()
        assert error.startswith("error: ") and expected in error and "\n" not in error
    assert not (tmp_path / "out" / "tiny-model").exists()  # nothing was built or loaded


def test_the_history_window_is_the_exports_and_the_recipes_only_where_the_manifest_does_not_say(
    exports: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dataclasses import replace

    from annotator.domain.export_manifest import read_export_manifest

    given = ["--recipe", "tiny-grpo-task", "--data", str(exports["grpo-task"]), "--output_dir", str(tmp_path)]
    _, config = grpo_task.parse(grpo_task.make_parser(), given)
    manifest = read_export_manifest(exports["grpo-task"])
    assert (config.history_images, manifest.history_images) == (1, 2)  # the recipe's 1, the export written with 2
    assert grpo_task.history_window(config, manifest, str(exports["grpo-task"])) == 2
    assert capsys.readouterr().err == "note: history_images 2, the export's (its manifest), not the recipe's 1\n"
    assert grpo_task.history_window(config, replace(manifest, history_images=1), "d") == 1
    assert capsys.readouterr().err == ""  # the same: nothing to say
    assert grpo_task.history_window(config, replace(manifest, history_images=None), "d") == 1
    said = capsys.readouterr().err
    assert said == "note: d/manifest.json does not say history_images; the recipe's 1 is used\n"


@pytest.fixture(scope="module")
def make_chat(tiny: Path):
    from transformers import AutoModelForImageTextToText, AutoProcessor

    model, processor = AutoModelForImageTextToText.from_pretrained(tiny), AutoProcessor.from_pretrained(tiny)
    lock = threading.Lock()
    return lambda: PolicyChat(model, processor, lock, name="tiny", temperature=1.0, max_new_tokens=8)


def rollout_groups(workspace: Workspace, devices: list, make_chat, judge=None, judge_every: bool = False):
    from annotator.domain.coords import ResizeConfig
    from annotator.llm.client import LLMConfig
    from trainer_bridge.train.task_rollouts import Play, RolloutGroups

    play = Play(2, 2, "qwen2.5-vl", ResizeConfig(max_pixels=200_000), 0.5, 0)
    policy = LLMConfig("in-process:test", "tiny")
    return RolloutGroups(workspace, devices, make_chat, play, policy, judge, {}, judge_every=judge_every)


def instruction(workspace: Workspace, app: str, text: str):
    from annotator.storage import collection
    from trainer_bridge.evaluate.online_rollout import Item

    return Item(collection.add_instruction(workspace.database, app, text), text, app, 0)


def test_a_phone_that_goes_away_hands_its_rollouts_to_the_other_and_none_left_is_an_error(
    make_chat, tmp_path: Path
) -> None:
    from annotator.demo.phone.adb_server import VirtualAdbServer
    from annotator.demo.phone.phone import VirtualPhone
    from annotator.device.adb import adb_client
    from annotator.device.android import AndroidDevice
    from trainer_bridge.train.task_rollouts import RolloutError

    phones = [VirtualPhone(serial="virtual-1"), VirtualPhone(serial="virtual-2")]
    with (
        Workspace.open(tmp_path) as workspace,
        VirtualAdbServer(phones[:1]) as first,
        VirtualAdbServer(phones[1:]) as second,
    ):
        devices = [
            AndroidDevice(adb_client(port=server.port, timeout_s=5), phone.serial)
            for server, phone in zip((first, second), phones, strict=True)
        ]
        task = instruction(workspace, "设置", "在设置里关闭WLAN")
        groups = rollout_groups(workspace, devices, make_chat)
        try:
            first.close()
            played = groups.play(task, 2)
            assert [rollout.index for rollout in played] == [0, 1] and groups.lost == ["virtual-1"]
            assert all(rollout.record.device_serial == "virtual-2" and rollout.generations for rollout in played)
            second.close()
            with pytest.raises(RolloutError, match="every phone went away"):
                groups.play(task, 2)
        finally:
            groups.close()


def test_an_instruction_the_phone_cannot_check_is_scored_by_the_judge(make_chat, tmp_path: Path) -> None:
    """The scripted judge gives 0 to a task it does not know: R_task = R_Fmt + 0 / 4, from the judge's score."""
    from annotator.demo.phone.adb_server import VirtualAdbServer
    from annotator.demo.phone.phone import VirtualPhone
    from annotator.demo.phone.scripted_endpoint import MODEL, ScriptedEndpoint
    from annotator.device.adb import adb_client
    from annotator.device.android import AndroidDevice
    from trainer_bridge.evaluate.online_rollout import OnlineJudge
    from trainer_bridge.rewards.recipes import trl_rewards

    phone = VirtualPhone(serial="virtual-1")
    with Workspace.open(tmp_path) as workspace, VirtualAdbServer([phone]) as server, ScriptedEndpoint() as endpoint:
        device = AndroidDevice(adb_client(port=server.port, timeout_s=5), phone.serial)
        groups = rollout_groups(workspace, [device], make_chat, OnlineJudge(MODEL, endpoint.base_url))
        try:
            played = groups.play(instruction(workspace, "设置", "把屏幕亮度调到最高"), 2)
        finally:
            groups.close()
    assert all(
        r.record.checked_by == "judge" and r.record.judge_score == 0 and r.checked_success is None for r in played
    )
    rewards = task_trainer.rollout_rewards(played, *trl_rewards("mobile-r1-task"))
    assert rewards["task_outcome_reward"] == [0.0, 0.0] and rewards["reward"] == rewards["trajectory_format_reward"]


def test_by_default_the_judge_scores_even_the_rollouts_the_phone_checked(make_chat, tmp_path: Path) -> None:
    """Mobile-R1 4.2.3: R_Traj is the judge's score / 4 for every rollout; the phone's verdict is kept beside it."""
    from annotator.demo.phone.adb_server import VirtualAdbServer
    from annotator.demo.phone.phone import VirtualPhone
    from annotator.demo.phone.scripted_endpoint import MODEL, ScriptedEndpoint
    from annotator.device.adb import adb_client
    from annotator.device.android import AndroidDevice
    from trainer_bridge.evaluate.online_rollout import OnlineJudge
    from trainer_bridge.rewards.recipes import trl_rewards

    phone = VirtualPhone(serial="virtual-1")
    with Workspace.open(tmp_path) as workspace, VirtualAdbServer([phone]) as server, ScriptedEndpoint() as endpoint:
        device = AndroidDevice(adb_client(port=server.port, timeout_s=5), phone.serial)
        groups = rollout_groups(workspace, [device], make_chat, OnlineJudge(MODEL, endpoint.base_url), True)
        try:
            played = groups.play(instruction(workspace, "设置", "开启勿扰模式"), 2)  # the phone checks this one
        finally:
            groups.close()
    assert all(r.record.checked_by == "phone" and r.checked_success is not None for r in played)
    assert all(isinstance(r.record.judge_score, int) for r in played)
    by_judge = task_trainer.rollout_rewards(played, *trl_rewards("mobile-r1-task"), by_judge=True)
    by_check = task_trainer.rollout_rewards(played, *trl_rewards("mobile-r1-task"))
    assert by_judge["task_outcome_reward"] == [r.record.judge_score / 4 for r in played]
    assert by_check["task_outcome_reward"] == [float(r.checked_success) for r in played]


def test_every_export_format_gives_the_instructions(exports: dict[str, Path], tmp_path: Path) -> None:
    from annotator.domain.model_space import default_export_space
    from trainer_bridge.export.run import ExportOptions, export

    expected = grpo_task.task_rows(str(exports["grpo-task"]), "train").select_columns(list(grpo_task.COLUMNS))
    with Workspace.open(exports["grpo-task"].parent / "data") as workspace:
        for form in ("jsonl", "easyr1"):
            export(workspace, ExportOptions("grpo-task", form, tmp_path / form, default_export_space()))
            rows = grpo_task.task_rows(str(tmp_path / form), "train").select_columns(list(grpo_task.COLUMNS))
            assert rows.to_list() == expected.to_list()
