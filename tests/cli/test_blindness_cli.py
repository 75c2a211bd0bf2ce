"""Blindness on the command line (issue 16, defect 8): while a study is being rated, its raters (and whoever does
not say who they are) get no judge score of its trajectories from `study report`, `export bundle` or
`trainer-bridge stats --min-judge-score`, a finished rater included; `--as` names a person the workspace knows;
someone who is not rating gets everything, and so does everyone once every rater has finished."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import blind_rating, studies
from annotator.storage import judging
from annotator.storage.collection import ensure_person
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from tests.factories import add_people, add_trajectory
from tests.workspaces import NewWorkspace
from trainer_bridge.cli.root import cli as bridge

pytestmark = pytest.mark.slow

LEVELS = [0, 1, 2, 3, 4, 4]
REASON = "评判理由"
PERSON_ENV = "ANNOTATOR_PERSON"  # who runs a command, without --as


@pytest.fixture
def rating(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new_workspace: NewWorkspace) -> tuple[Path, dict[int, int]]:
    """Six trajectories scored 0-4 by judge 1, a study of all six for 小王 and 小李 (created by 主管), 小王 done
    rating, 小李 not; 工程师 works here and rates nothing. Nobody is named by the environment."""
    monkeypatch.delenv(PERSON_ENV, raising=False)
    data_dir = tmp_path / "data"
    with new_workspace(data_dir) as workspace:
        db = workspace.database
        config = judging.ensure_config(db, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
        rewards = {}
        for n, level in enumerate(LEVELS):
            trajectory = add_trajectory(workspace, "淘宝", f"任务 {n}", 2, seed=n, label=False)
            record = ScoreRecord(level, f"{REASON} {n}", "{}", None, None, 1, 2)
            judging.save_score(db, config, None, trajectory, record)
            rewards[trajectory] = level
        add_people(db, "小王", "小李")  # raters are people the workspace knows
        studies.create_study(db, "试点", config, 6, ["小王", "小李"], created_by="主管")
        for entry in blind_rating.rater_queue(db, "试点", "小王"):
            blind_rating.rate(db, "试点", "小王", entry.item_id, 2)
        with db.session() as session:
            ensure_person(session, "工程师", "admin")
            session.commit()
    return data_dir, rewards


def run(data_dir: Path, *args: str, env: dict[str, str] | None = None) -> click.testing.Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], env=env)


def finish(data_dir: Path, rater: str) -> None:
    with Workspace.open(data_dir) as workspace:
        for entry in blind_rating.rater_queue(workspace.database, "试点", rater):
            blind_rating.rate(workspace.database, "试点", rater, entry.item_id, 3)


def test_the_report_goes_to_a_known_person_who_is_not_rating(rating: tuple[Path, dict[int, int]]) -> None:
    data_dir, _rewards = rating
    report = ("study", "report", "试点", "--format", "json", "--bootstrap", "0")
    invented = run(data_dir, *report, "--as", "路人")
    assert invented.exit_code == 1 and "nobody called '路人'" in invented.output
    finished_rater = run(data_dir, *report, "--as", "小王")  # done rating, but 小李 is not
    assert finished_rater.exit_code == 1 and "小李 0/6" in finished_rater.output and REASON not in finished_rater.output
    as_env = run(data_dir, *report, env={PERSON_ENV: "小王"})
    assert as_env.exit_code == 1 and "still being rated" in as_env.output
    owner = run(data_dir, *report, "--as", "主管")
    assert owner.exit_code == 0, owner.output
    assert json.loads(owner.output)["n"] == 6
    finish(data_dir, "小李")
    assert run(data_dir, *report, "--as", "小王").exit_code == 0  # everyone finished: the raters see it too


def test_a_bundle_written_by_a_rater_leaves_out_the_judge_results_and_says_so(
    rating: tuple[Path, dict[int, int]], tmp_path: Path
) -> None:
    data_dir, _rewards = rating

    def manifest(name: str, *args: str, env: dict[str, str] | None = None) -> tuple[dict, str]:
        result = run(data_dir, "export", "bundle", str(tmp_path / name), *args, env=env)
        assert result.exit_code == 0, result.output
        return json.loads((tmp_path / name / "manifest.json").read_text(encoding="utf-8")), result.output

    for name, args, env, who in (
        ("rater", ("--as", "小王"), None, "小王"),
        ("env", (), {PERSON_ENV: "小李"}, "小李"),
        ("nobody", (), None, None),  # nobody said who writes it: it may be a rater
    ):
        written, said = manifest(name, *args, env=env)
        assert [judge["scores"] for judge in written["judges"]] == [[]] and written["studies"] == []
        assert REASON not in json.dumps(written, ensure_ascii=False)
        assert written["withheld"]["person"] == who and len(written["withheld"]["judge_results_of"]) == 6
        assert written["withheld"]["studies"] == ["试点"] and "Left out" in said and "试点" in said
    engineer, said = manifest("engineer", "--as", "工程师")  # not a rater: everything
    assert len(engineer["judges"][0]["scores"]) == 6 and [s["name"] for s in engineer["studies"]] == ["试点"]
    assert "withheld" not in engineer and "Left out" not in said
    refused = run(data_dir, "export", "bundle", str(tmp_path / "invented"), "--as", "路人")
    assert refused.exit_code == 1 and "nobody called '路人'" in refused.output and not (tmp_path / "invented").exists()
    finish(data_dir, "小李")
    after, _said = manifest("after", "--as", "小王")
    assert len(after["judges"][0]["scores"]) == 6 and "withheld" not in after


def test_a_judge_score_selection_does_not_tell_a_rater_the_score(rating: tuple[Path, dict[int, int]]) -> None:
    data_dir, rewards = rating
    top = next(t for t, level in rewards.items() if level == 4)
    bottom = next(t for t, level in rewards.items() if level == 0)

    def stats(trajectory: int, person: str) -> click.testing.Result:
        args = ["stats", "--data-dir", str(data_dir), "--judge", "1", "--min-judge-score", "4", "--id", str(trajectory)]
        return CliRunner().invoke(bridge, [*args, "--as", person])

    rater = [stats(trajectory, "小王") for trajectory in (top, bottom)]
    assert [r.exit_code for r in rater] == [1, 1] and rater[0].output == rater[1].output  # nothing to tell apart
    assert "Left out" in rater[0].output and "试点" in rater[0].output
    engineer = [stats(trajectory, "工程师") for trajectory in (top, bottom)]
    assert [r.exit_code for r in engineer] == [0, 1]
    finish(data_dir, "小李")
    assert [stats(trajectory, "小王").exit_code for trajectory in (top, bottom)] == [0, 1]


def test_the_owner_chooses_early_differences_at_creation(rating: tuple[Path, dict[int, int]]) -> None:
    data_dir, _rewards = rating
    created = run(
        data_dir,
        "study",
        "create",
        "早",
        "--judge",
        "1",
        "--size",
        "4",
        "--rater",
        "小王",
        "--rater",
        "小李",
        "--by",
        "主管",
        "--show-differences-early",
    )
    assert created.exit_code == 0, created.output
    assert "differ as soon as they finish" in created.output
    assert "differ once every rater has finished" in run(data_dir, "study", "status", "试点").output
    with Workspace.open(data_dir) as workspace:
        assert studies.study_info(workspace.database, "早").show_differences_early
        assert not studies.study_info(workspace.database, "试点").show_differences_early


def test_an_export_by_a_rater_holds_no_judge_score_of_the_open_study(
    tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    data_dir = tmp_path / "data"
    with new_workspace(data_dir) as workspace:  # accepted, labelled trajectories this time: they export
        db = workspace.database
        config = judging.ensure_config(db, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
        for n, level in enumerate((4, 0, 4)):
            trajectory = add_trajectory(workspace, "淘宝", f"任务 {n}", 2, seed=n)
            judging.save_score(db, config, None, trajectory, ScoreRecord(level, REASON, "{}", None, None, 1, 2))
        add_people(db, "小王", "小李")
        studies.create_study(db, "试点", config, 3, ["小王", "小李"], created_by="主管")
        with db.session() as session:
            ensure_person(session, "工程师", "admin")
            session.commit()

    def exported(person: str, *options: str) -> tuple[click.testing.Result, list[dict]]:
        out = tmp_path / f"out-{person}-{len(options)}"
        args = ["export", "--data-dir", str(data_dir), "--stage", "sft", "--format", "jsonl", "--out", str(out)]
        result = CliRunner().invoke(bridge, [*args, *options, "--as", person])
        rows = [json.loads(line) for path in sorted(out.rglob("*.jsonl")) for line in path.read_text().splitlines()]
        return result, rows

    result, rows = exported("小王")
    assert result.exit_code == 0 and "Judge scores withheld from 3 trajectories" in result.output
    assert rows and all(row["judge_score"] is None for row in rows)
    result, rows = exported("小王", "--min-judge-score", "4")
    assert result.exit_code != 0 or not rows  # the 4s are not told apart from the 0: all left out
    result, rows = exported("工程师", "--min-judge-score", "4")
    assert result.exit_code == 0 and rows and {row["judge_score"] for row in rows} == {4}


def test_the_judges_mean_leaves_out_the_open_study_for_its_raters(rating: tuple[Path, dict[int, int]]) -> None:
    data_dir, rewards = rating
    listing = ("judge", "list", "--json")
    rater = json.loads(run(data_dir, *listing, "--as", "小王").output)
    engineer = json.loads(run(data_dir, *listing, "--as", "工程师").output)
    assert rater[0]["mean_reward"] is None  # every scored trajectory is in the study 小王 rates
    assert engineer[0]["mean_reward"] == pytest.approx(sum(rewards.values()) / len(rewards))
    assert run(data_dir, *listing, "--as", "路人").exit_code != 0  # an invented name is refused
