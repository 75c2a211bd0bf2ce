"""A local transformers model folder as the evaluated policy: a tiny Qwen2.5-VL built offline answers each
held-out step through the real processor and generate; its (untrained) answers are scored as malformed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from annotator.domain.model_space import default_export_space
from annotator.storage import evaluations
from annotator.storage.selection import TrajectorySelection
from annotator.storage.workspace import Workspace
from tests.evaluate.test_offline import accepted
from trainer_bridge.cli.root import cli
from trainer_bridge.evaluate.local_policy import LocalModelError, LocalPolicy
from trainer_bridge.evaluate.offline import EvalJob, EvalSettings, OfflineEvaluation
from trainer_bridge.train.tiny import build_tiny_qwen

pytestmark = [pytest.mark.slow, pytest.mark.train]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_qwen(tmp_path_factory.mktemp("tiny-qwen"))


def test_a_model_folder_answers_every_step_and_its_answers_are_scored(workspace: Workspace, tiny_model: Path) -> None:
    accepted(workspace, "video-pause")
    policy = LocalPolicy(tiny_model, max_new_tokens=24)
    job = EvalJob("tiny", EvalSettings(default_export_space()), TrajectorySelection(), concurrency=2)
    try:
        result = OfflineEvaluation(workspace, policy, job).run()
    finally:
        policy.close()
    assert result.status == "complete" and result.answered == result.requested > 0
    assert result.summary["format_errors"] == result.requested  # an untrained model writes no valid reply
    stored = evaluations.predictions(workspace.database, result.evaluation_id)
    assert all(p.record.usage and p.record.usage["completion_tokens"] > 0 for p in stored)
    info = evaluations.get_evaluation(workspace.database, result.evaluation_id)
    assert info.policy["kind"] == "local" and info.policy["path"] == str(tiny_model.resolve())


def test_the_cli_evaluates_a_model_folder(workspace: Workspace, tiny_model: Path, tmp_path: Path) -> None:
    accepted(workspace, "video-pause")
    result = CliRunner().invoke(
        cli,
        [
            "eval",
            "--model-path",
            str(tiny_model),
            "--data-dir",
            str(workspace.data_dir),
            "--json",
            "--report-dir",
            str(tmp_path / "reports"),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])["summary"]
    assert summary["step_accuracy"] == 0.0 and summary["steps"] > 0


def test_a_folder_without_a_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match=r"no config\.json"):
        LocalPolicy(tmp_path)
