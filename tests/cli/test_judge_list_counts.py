"""`annotator judge list --as RATER`: while a study the person rates is open, a judge's counts leave out the same
answers as its mean (a count of 12 beside a mean over 6 would say nothing true), and a line says how many and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from annotator.cli.root import cli
from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import studies
from annotator.storage import judging
from annotator.storage.collection import ensure_person
from annotator.storage.judging import ScoreRecord
from annotator.storage.studies import hidden_judging
from tests.factories import add_people, add_trajectory
from tests.workspaces import NewWorkspace

PERSON_ENV = "ANNOTATOR_PERSON"


@pytest.fixture
def judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new_workspace: NewWorkspace
) -> tuple[Path, dict[int, int], frozenset[int]]:
    """Twelve trajectories judge 1 scored (0-3 in turn) and one answer without a usable score; an open study of 6
    of them for 小王; 工程师 rates nothing. The rewards by trajectory and the study's trajectories."""
    monkeypatch.delenv(PERSON_ENV, raising=False)
    data = tmp_path / "data"
    with new_workspace(data) as workspace:
        db = workspace.database
        config = judging.ensure_config(db, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
        rewards = {}
        for n in range(12):
            trajectory = add_trajectory(workspace, "淘宝", f"任务 {n}", 1, seed=n, label=False)
            judging.save_score(db, config, None, trajectory, ScoreRecord(n % 4, "理由", "{}", None, None, 1, 1))
            rewards[trajectory] = n % 4
        unusable = add_trajectory(workspace, "淘宝", "任务 坏", 1, seed=99, label=False)
        judging.save_score(db, config, None, unusable, ScoreRecord(None, None, "好", "no JSON", None, 1, 1))
        add_people(db, "小王")
        studies.create_study(db, "试点", config, 6, ["小王"], created_by="主管")
        with db.session() as session:
            ensure_person(session, "工程师", "admin")
            session.commit()
        in_study = hidden_judging(db, "小王").trajectory_ids
    assert len(in_study) == 6
    return data, rewards, in_study


def judge_list(data: Path, *args: str) -> Result:
    result = CliRunner().invoke(cli, ["--data-dir", str(data), "judge", "list", *args])
    assert result.exit_code == 0, result.output
    return result


def test_a_raters_counts_cover_what_the_mean_covers(judged: tuple[Path, dict[int, int], frozenset[int]]) -> None:
    data, rewards, in_study = judged
    (rater,) = json.loads(judge_list(data, "--json", "--as", "小王").output)
    shown = [reward for trajectory, reward in rewards.items() if trajectory not in in_study]
    assert (rater["scored"], rater["unusable"], rater["hidden"]) == (6, 1, 6)
    assert rater["mean_reward"] == pytest.approx(sum(shown) / 6)
    (engineer,) = json.loads(judge_list(data, "--json", "--as", "工程师").output)
    assert (engineer["scored"], engineer["unusable"], engineer["hidden"]) == (12, 1, 0)
    assert engineer["mean_reward"] == pytest.approx(sum(rewards.values()) / 12)


def test_the_table_says_what_is_left_out_and_why(judged: tuple[Path, dict[int, int], frozenset[int]]) -> None:
    data, rewards, in_study = judged
    lines = judge_list(data, "--as", "小王").output.splitlines()
    shown = [reward for trajectory, reward in rewards.items() if trajectory not in in_study]
    assert lines[1].split()[-3:] == ["6", "1", f"{sum(shown) / 6:.2f}"]  # scored, unusable, mean
    assert lines[2] == (
        "Judge 1: 6 answers are left out of its counts and mean, since 小王 rates '试点', which is still being "
        "rated; they show once every rater has finished."
    )
    assert "left out" not in judge_list(data, "--as", "工程师").output
