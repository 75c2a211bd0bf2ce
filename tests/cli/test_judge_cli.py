"""`annotator judge run|list` against the scripted endpoint, and `annotator agreement FILE.csv`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from sqlalchemy import select

from annotator.cli.root import cli
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.services import blind_rating
from annotator.storage import models
from annotator.storage.workspace import Workspace
from tests.factories import add_virtual_trajectory
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow


def run(data_dir: Path, *args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    with ScriptedEndpoint(seed=0) as running:
        yield running


@pytest.fixture
def virtual(tmp_path: Path, new_workspace: NewWorkspace) -> tuple[Path, dict[str, int]]:
    """Whole solutions of three tasks, and two agents that gave up early."""
    data_dir = tmp_path / "data"
    with new_workspace(data_dir) as workspace:
        ids = {
            "wifi done": add_virtual_trajectory(workspace, "settings-wifi-off"),
            "pause done": add_virtual_trajectory(workspace, "video-pause"),
            "nuts done": add_virtual_trajectory(workspace, "shop-nuts-two"),
            "nuts gave up": add_virtual_trajectory(workspace, "shop-nuts-two", actions_done=1),
            "address gave up": add_virtual_trajectory(workspace, "shop-new-address", actions_done=0),
        }
    return data_dir, ids


def stored_rewards(data_dir: Path) -> dict[int, int | None]:
    with Workspace.open(data_dir) as workspace, workspace.database.session() as session:
        return dict(session.execute(select(models.JudgeScore.trajectory_id, models.JudgeScore.reward)).all())


def test_the_scripted_judge_scores_solutions_high_and_abandoned_runs_low(
    virtual: tuple[Path, dict[str, int]], endpoint: ScriptedEndpoint
) -> None:
    data_dir, ids = virtual
    args = ["judge", "run", "--base-url", endpoint.base_url, "--model", "scripted", "--concurrency", "3", "--json"]
    result = run(data_dir, *args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert (summary["scored"], summary["failed"], summary["status"]) == (5, 0, "complete")
    rewards = stored_rewards(data_dir)
    for name in ("wifi done", "pause done", "nuts done"):
        assert rewards[ids[name]] >= 3, name  # done without detours: 4, or one level off
    for name in ("nuts gave up", "address gave up"):
        assert rewards[ids[name]] <= 2, name

    again = run(data_dir, *args)
    assert json.loads(again.output.strip().splitlines()[-1])["skipped"] == 5  # resumed: nothing asked again
    listed = run(data_dir, "judge", "list", "--json")
    (judge,) = json.loads(listed.output)
    assert (judge["prompt_name"], judge["model"], judge["scored"], judge["unusable"]) == ("mobile-r1", "scripted", 5, 0)
    assert "mobile-r1" in run(data_dir, "judge", "list").output


def test_a_filter_and_a_limit_choose_what_is_judged(
    virtual: tuple[Path, dict[str, int]], endpoint: ScriptedEndpoint
) -> None:
    data_dir, _ids = virtual
    base = ["judge", "run", "--base-url", endpoint.base_url, "--model", "scripted", "--json"]
    first = json.loads(run(data_dir, *base, "--app", "优选商城", "--limit", "2").output.splitlines()[-1])
    assert (first["requested"], first["scored"]) == (2, 2)
    more = json.loads(run(data_dir, *base, "--app", "优选商城", "--limit", "2", "--unscored").output.splitlines()[-1])
    assert (more["requested"], more["skipped"], more["scored"]) == (1, 0, 1)  # only one shop trajectory was left
    assert len(stored_rewards(data_dir)) == 3


def test_bad_choices_are_one_line_errors(virtual: tuple[Path, dict[str, int]], tmp_path: Path) -> None:
    data_dir, _ids = virtual
    unknown = run(data_dir, "judge", "run", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--prompt", "nope")
    assert unknown.exit_code == 1 and "no built-in judge prompt 'nope'" in unknown.output
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n", encoding="utf-8")
    args = ["judge", "run", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--prompt-file", str(empty)]
    assert "is empty" in run(data_dir, *args).output
    down = run(data_dir, "judge", "run", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--retries", "0")
    assert down.exit_code == 1 and "stayed unavailable" in down.output


def test_agreement_from_a_csv_prints_the_report_and_json(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    rows = [
        "item,judge,小王,小李,张审核",
        "a,4,4,4,3",
        "b,3,3,2,3",
        "c,2,2,2,1",
        "d,1,0,1,1",
        "e,0,0,0,0",
        "f,4,3,4,4",
        "g,2,3,1,2",
        "h,3,,3,4",
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    text = run(tmp_path, "agreement", str(path), "--bootstrap", "200")
    assert text.exit_code == 0 and "Exact agreement" in text.output and "Krippendorff" in text.output
    as_json = json.loads(run(tmp_path, "agreement", str(path), "--json", "--bootstrap", "200").output)
    for key in (
        "n",
        "exact_agreement",
        "within_one_agreement",
        "mean_absolute_deviation",
        "bias",
        "spearman",
        "kendall_tau_b",
        "quadratic_weighted_kappa",
        "krippendorff_alpha_humans",
        "fleiss_kappa_humans",
        "confusion_matrix",
        "exact_agreement_ci",
        "spearman_ci",
        "quadratic_weighted_kappa_ci",
    ):
        assert key in as_json, key
    assert as_json["n"] == 8 and as_json["flagged_items"] == ["g", "h"]
    low = json.loads(run(tmp_path, "agreement", str(path), "--json", "--tie-rule", "low", "--bootstrap", "0").output)
    assert low["tie_rule"] == "low"
    html = tmp_path / "report.html"
    run(tmp_path, "agreement", str(path), "--format", "html", "--out", str(html), "--bootstrap", "0")
    assert html.read_text(encoding="utf-8").count("data:image/png;base64,") == 2


def test_agreement_names_the_bad_row(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text("item,judge,小王\na,4,4\nb,7,3\n", encoding="utf-8")
    result = run(tmp_path, "agreement", str(path))
    assert result.exit_code == 1 and "row 3" in result.output and "judge" in result.output


def test_a_study_from_the_command_line(virtual: tuple[Path, dict[str, int]], endpoint: ScriptedEndpoint) -> None:
    data_dir, _ids = virtual
    run(data_dir, "judge", "run", "--base-url", endpoint.base_url, "--model", "scripted")
    for rater in ("甲", "乙"):  # raters are people the workspace knows
        assert run(data_dir, "people", "add", rater, "--role", "annotator").exit_code == 0
    created = run(data_dir, "study", "create", "试点", "--judge", "1", "--size", "4", "--rater", "甲", "--rater", "乙")
    assert created.exit_code == 0, created.output
    assert "4 trajectories (asked for 4)" in created.output and "甲: 0/4 rating" in created.output
    refused = run(data_dir, "study", "report", "试点")
    assert refused.exit_code == 1 and "still being rated" in refused.output
    assert run(data_dir, "study", "report", "试点", "--as", "甲").exit_code == 1  # a rater still rating: no
    with Workspace.open(data_dir) as workspace:
        for rater in ("甲", "乙"):
            for entry in blind_rating.rater_queue(workspace.database, "试点", rater):
                blind_rating.rate(workspace.database, "试点", rater, entry.item_id, 3)
    assert "甲: 4/4 done" in run(data_dir, "study", "status", "试点").output
    report = json.loads(run(data_dir, "study", "report", "试点", "--format", "json", "--bootstrap", "100").output)
    assert report["n"] == 4 and report["raters"] == ["甲", "乙"] and len(report["confusion_matrix"]) == 5
    first = report["items"][0]["item"]
    assert run(data_dir, "study", "adjudicate", "试点", first, "2", "--as", "主管").exit_code == 0
    assert "adjudicated: 1" in run(data_dir, "study", "status", "试点").output
    assert json.loads(run(data_dir, "study", "list", "--json").output)[0]["finished"] is True
