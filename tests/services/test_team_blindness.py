"""Issue 30, item 3: on a team database blindness follows the login. A rater of an open study sees none of its
judge scores, by any command, export or view, or by plain SQL on their own connection; once every rater has
finished they see them, and someone who rates nothing sees them all along."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import ProgrammingError
from sqlalchemy.pool import NullPool

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.storage import judging
from annotator.storage.judging import ScoreRecord
from tests.factories import add_trajectory
from tests.postgres import needs_postgres
from tests.team_database import TeamDatabase, one_line_error

pytestmark = [needs_postgres, pytest.mark.slow]
SAMPLED = 4  # trajectories 1-4 are in the study; 5 and 6 are scored but not sampled


@pytest.fixture
def study(team: TeamDatabase) -> TeamDatabase:
    """Six trajectories scored by judge 1; study 试点 samples four, rated by 小李 and 张审核."""
    with team.open() as workspace:
        config = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
        for n in range(6):
            trajectory = add_trajectory(workspace, "淘宝", f"任务 {n}", 1, seed=n, label=False)
            record = ScoreRecord(n % 5, "理由", "{}", None, None, 1.0, 1)
            judging.save_score(workspace.database, config, None, trajectory, record)
    made = team.run(
        "主管",
        "study",
        "create",
        "试点",
        "--judge",
        "1",
        "--size",
        str(SAMPLED),
        "--rater",
        "小李",
        "--rater",
        "张审核",
    )
    assert made.exit_code == 0, made.output
    return team


def plain(team: TeamDatabase, person: str, sql: str) -> list[tuple]:
    engine = create_engine(team.url(person), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql))]
    finally:
        engine.dispose()


def sampled(team: TeamDatabase) -> set[int]:
    return {row[0] for row in plain(team, "主管", "SELECT trajectory_id FROM study_items")}


@pytest.mark.parametrize("rater", ["小李", "张审核"])
def test_a_rater_sees_no_judge_score_of_the_open_study_by_plain_sql(study: TeamDatabase, rater: str) -> None:
    hidden = sampled(study)
    assert len(hidden) == SAMPLED
    seen = {row[0] for row in plain(study, rater, "SELECT trajectory_id FROM judge_scores")}
    assert seen == set(range(1, 7)) - hidden
    assert plain(study, rater, "SELECT judge_reward FROM study_item_strata") == [(None,)] * SAMPLED
    with pytest.raises(ProgrammingError, match="permission denied"):
        plain(study, rater, "SELECT judge_reward FROM study_items")
    assert len(plain(study, "小王", "SELECT trajectory_id FROM judge_scores")) == 6  # rates nothing: sees all


def test_a_raters_commands_and_bundles_hold_no_score_of_the_open_study(study: TeamDatabase, tmp_path: Path) -> None:
    for args in (["study", "report", "试点"], ["study", "report", "试点", "--as", "小王"]):
        refused = one_line_error(study.run("小李", *args))
        assert "试点" in refused or "you are connected as" in refused
    written = study.run("小李", "export", "bundle", str(tmp_path / "b"), "--as", "小李")
    assert written.exit_code == 0, written.output
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text(encoding="utf-8"))
    uids = {row[1]: row[0] for row in plain(study, "主管", "SELECT id, uid FROM trajectories")}
    scored = {uids[score["trajectory"]] for judge in manifest["judges"] for score in judge["scores"]}
    assert scored == set(range(1, 7)) - sampled(study) and manifest["studies"] == []
    claimed = study.run("小李", "export", "bundle", str(tmp_path / "c"), "--as", "主管")
    assert "you are connected as" in one_line_error(claimed)


def test_once_every_rater_has_finished_the_scores_show(study: TeamDatabase) -> None:
    rate_everything = (
        "INSERT INTO study_ratings (item_id, rater_id, score, created_at, updated_at) "
        "SELECT i.id, r.id, 2, now(), now() FROM study_items i JOIN study_raters r ON r.study_id = i.study_id"
    )
    engine = create_engine(study.owner_url, poolclass=NullPool)
    with engine.begin() as connection:
        connection.execute(text(rate_everything))
    engine.dispose()
    assert len(plain(study, "小李", "SELECT trajectory_id FROM judge_scores")) == 6
    assert None not in {row[0] for row in plain(study, "小李", "SELECT judge_reward FROM study_item_strata")}
    report = study.run("小李", "study", "report", "试点")
    assert report.exit_code == 0, report.output
