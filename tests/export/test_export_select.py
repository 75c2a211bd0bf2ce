"""`trainer-bridge export --select RUN --keep RULE`: the export holds exactly the steps the rule keeps of a stored
selection run (made against a real loopback model), says so in its manifest, and refuses what cannot be done."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from annotator.domain.model_space import model_space
from annotator.llm.client import LLMConfig
from annotator.storage import evaluations
from annotator.storage.selection import TrajectorySelection
from annotator.storage.workspace import Workspace
from tests.select.planned import PlannedModel, Step, add_typing_trajectory
from trainer_bridge.cli.root import cli
from trainer_bridge.evaluate.offline import EvalSettings
from trainer_bridge.evaluate.policy import EndpointPolicy
from trainer_bridge.select.run import SelectionJob, run_selection

pytestmark = pytest.mark.slow

PLAN = {
    "任务甲": [Step("甲0", 0, 2), Step("甲1", 4, 4), Step("甲2", 2, 4)],
    "任务乙": [Step("乙0", 0, 0), Step("乙1", 1, 3)],
    "任务戊": [Step("戊0", 0, 0), Step("戊1", 0), Step("戊2", 0)],  # 戊1 is wrong: only 戊0 is asked
    "任务丁": [Step("丁0", 4, 2), Step("丁1", 4, 1)],  # always right with the task, unstable with the action text
}


@pytest.fixture
def ids(workspace: Workspace) -> dict[str, int]:
    """Step ids by typed text; 任务戊's second step is marked wrong and corrected."""
    found: dict[str, int] = {}
    for seed, (instruction, steps) in enumerate(PLAN.items(), start=1):
        wrong_at = 1 if instruction == "任务戊" else None
        made = add_typing_trajectory(workspace, instruction, steps, seed=seed, wrong_at=wrong_at)
        found |= dict(zip([step.text for step in steps], made, strict=True))
    return found


def selection(workspace: Workspace, temperature: float = 1.0, levels: tuple[str, ...] = ("task", "action")) -> int:
    settings = EvalSettings(model_space("qwen2.5-vl"), temperature=temperature, samples=4, levels=levels)
    job = SelectionJob("planned", settings, TrajectorySelection(review_states=("accepted",)))
    with PlannedModel(PLAN) as model:
        policy = EndpointPolicy(LLMConfig(model.base_url, "planned", max_retries=0))
        result = run_selection(workspace, policy, job)
        policy.close()
    assert result.status == "complete", result.message
    return result.evaluation_id


def export(workspace: Workspace, out: Path, *options: str) -> Result:
    arguments = [
        "export",
        "--stage",
        "grpo-action",
        "--format",
        "jsonl",
        "--out",
        str(out),
        "--data-dir",
        str(workspace.data_dir),
        *options,
    ]
    return CliRunner().invoke(cli, arguments)


def rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines()]


def test_each_rule_exports_exactly_the_steps_it_keeps(
    workspace: Workspace, ids: dict[str, int], tmp_path: Path
) -> None:
    run = selection(workspace)
    expected = {
        "hard": {"甲0", "乙0", "戊0"},  # p = 0 with the task
        "band": {"甲2", "乙1"},  # 2/4 and 1/4
        "bottleneck": {"甲0"},  # 0/4 with the task, 2/4 with its action text
        "prone": {"甲2", "乙1"},  # sampled at 1.0
    }
    for keep, texts in expected.items():
        out = tmp_path / keep
        result = export(workspace, out, "--select", str(run), "--keep", keep)
        assert result.exit_code == 0, result.output
        assert sorted(row["step_id"] for row in rows(out)) == sorted(ids[text] for text in texts), keep
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["options"]["select"] == {
            "evaluation_id": run,
            "keep": keep,
            "model": "planned",
            "temperature": 1.0,
            "samples": 4,
            "levels": ["task", "action"],
            "reward": "action_reward",
            "pass_threshold": 1.0,
            "status": "complete",
            "steps_kept": {"task": len(texts)},
        }
        assert f"--keep {keep} keeps {len(texts)} steps of selection {run} at the task level" in result.stderr


def test_gui_r1_keeps_each_level_by_its_own_band_and_balances_the_low_level_rows(
    workspace: Workspace, ids: dict[str, int], tmp_path: Path
) -> None:
    """GUI-R1 3.3 as its preset runs it: every step asked at both levels, each level's 0 < p < 1 kept, and the
    low-level (action) rows sampled down to the high-level count."""
    run = selection(workspace)
    band_at = {"task": {"甲2", "乙1"}, "action": {"甲0", "乙1", "丁0", "丁1"}}
    unbalanced = export(
        workspace, tmp_path / "both", "--instruction-level", "both", "--select", str(run), "--keep", "band"
    )
    assert unbalanced.exit_code == 0, unbalanced.output
    by_level = {
        level: {row["step_id"] for row in rows(tmp_path / "both") if row["id"].endswith(f"-{level}")}
        for level in band_at
    }
    assert by_level == {level: {ids[text] for text in texts} for level, texts in band_at.items()}
    action_rows = [row for row in rows(tmp_path / "both") if row["id"].endswith("-action")]
    assert all(row["instruction"].startswith("在搜索框输入“") for row in action_rows)  # asked by the action text

    result = export(workspace, tmp_path / "gui-r1", "--preset", "gui-r1", "--select", str(run), "--keep", "band")
    assert result.exit_code == 0, result.output
    kept = rows(tmp_path / "gui-r1")
    task = {row["step_id"] for row in kept if row["id"].endswith("-task")}
    action = {row["step_id"] for row in kept if row["id"].endswith("-action")}
    assert task == {ids["甲2"], ids["乙1"]} and len(action) == 2 and action < by_level["action"]
    assert all(
        row["answer"].startswith("<think>") and '[{"action": "type"' in row["answer"] for row in kept
    )  # GUI-R1's
    manifest = json.loads((tmp_path / "gui-r1" / "manifest.json").read_text(encoding="utf-8"))
    select = manifest["options"]["select"]
    assert (select["steps_kept"], select["balanced"]) == (
        {"task": 2, "action": 2},
        {"seed": 0, "action_level_before": 4},
    )
    assert manifest["counts"]["train"]["instruction_levels"] == {"action": 2, "task": 2}
    assert "Balanced (GUI-R1): 2 of the 4 action-level steps sampled" in result.stderr


def test_rows_of_steps_a_selection_never_asked_are_left_out(
    workspace: Workspace, ids: dict[str, int], tmp_path: Path
) -> None:
    """Corrections, steps after a mistake and recovery rows go by their own step, which a selection does not ask."""
    run = selection(workspace, levels=("task",))
    every_row = ("--self-correction", "--error-recovery", "--keep-duplicates")  # an escape row repeats an after-error
    everything = export(workspace, tmp_path / "all", *every_row)
    kept = export(workspace, tmp_path / "hard", *every_row, "--select", str(run), "--keep", "hard")
    assert everything.exit_code == kept.exit_code == 0, everything.output + kept.output
    kinds = {row["kind"] for row in rows(tmp_path / "all")}
    assert kinds == {"step", "correction", "after_error", "error_escape", "back_on_track"}
    assert {(row["kind"], row["step_id"]) for row in rows(tmp_path / "hard")} == {
        ("step", ids["甲0"]),
        ("step", ids["乙0"]),
        ("step", ids["戊0"]),
    }
    manifest = json.loads((tmp_path / "all" / "manifest.json").read_text(encoding="utf-8"))
    assert "select" not in manifest["options"]  # an export without a selection says nothing of one


def test_what_cannot_be_selected_is_refused_and_nothing_is_written(
    workspace: Workspace, ids: dict[str, int], tmp_path: Path
) -> None:
    cold = selection(workspace, temperature=0.3, levels=("task",))
    offline, _ = evaluations.start_or_resume(
        workspace.database, kind="offline", name="m", fingerprint="f", policy={}, settings={}, selection=None
    )
    refused = [
        (("--keep", "hard"), 2, "--select RUN and --keep RULE go together"),
        (("--select", str(cold)), 2, "--select RUN and --keep RULE go together"),
        (("--select", "99", "--keep", "hard"), 2, "no evaluation 99"),
        (("--select", str(offline), "--keep", "hard"), 2, f"evaluation {offline} is an offline evaluation"),
        (("--select", str(cold), "--keep", "bottleneck"), 2, "--levels task,action"),
        (("--select", str(cold), "--keep", "hard", "--instruction-level", "action"), 2, "--levels task,action"),
        (("--select", str(cold), "--keep", "prone"), 2, "sampled at 0.3"),
        (("--select", str(cold), "--keep", "easy"), 2, "'easy' is not one of"),
        (("--select", str(cold), "--keep", "hard", "--stage", "grpo-task"), 1, "a grpo-task row is a whole task"),
    ]
    for options, code, message in refused:
        out = tmp_path / "out"
        result = export(workspace, out, *options)
        assert (result.exit_code, message in result.output) == (code, True), (options, result.output)
        assert not out.exists()
