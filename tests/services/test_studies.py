"""Validation studies through the services: a stratified sample, blind rating, adjudication, the report, and a
rater who never gets the judge's score before finishing."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from sqlalchemy import select

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.judge.agreement import RatedItem, agreement_report
from annotator.judge.messages import JudgedStep, JudgedTrajectory
from annotator.services import blind_rating, studies, team
from annotator.services.roles import NotAllowed
from annotator.services.studies import NotYetError, StudyError
from annotator.storage import assignments, judging, models
from annotator.storage.assignments import Target
from annotator.storage.judging import ScoreRecord
from annotator.storage.studies import person_asking
from annotator.storage.workspace import Workspace
from tests.factories import add_people, add_trajectory, database_snapshot

pytestmark = pytest.mark.slow

RATERS = ["小王", "小李", "张审核"]
LEVELS = [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4]  # the judge's rewards of 16 trajectories


@pytest.fixture
def scored(workspace: Workspace) -> tuple[Workspace, int, dict[int, int]]:
    """16 trajectories over three apps, scored by one judge (one more reply was unusable)."""
    config = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    add_people(workspace.database, *RATERS, "a")  # raters are people the workspace knows
    rewards = {}
    for n, level in enumerate(LEVELS):
        trajectory = add_trajectory(workspace, ("淘宝", "抖音", "设置")[n % 3], f"任务 {n}", 2, seed=n, label=False)
        judging.save_score(
            workspace.database, config, None, trajectory, ScoreRecord(level, f"理由 {n}", "{}", None, None, 10.0, 2)
        )
        rewards[trajectory] = level
    unusable = add_trajectory(workspace, "淘宝", "没有分数", 2, seed=99, label=False)
    judging.save_score(workspace.database, config, None, unusable, ScoreRecord(None, None, "?", "no JSON", None, 1, 2))
    return workspace, config, rewards


def rate_all(workspace: Workspace, name: str, rater: str, score_of) -> None:  # type: ignore[no-untyped-def]
    for entry in blind_rating.rater_queue(workspace.database, name, rater):
        blind_rating.rate(workspace.database, name, rater, entry.item_id, score_of(entry.trajectory_id))


def test_the_sample_is_stratified_over_levels_seeded_and_leaves_out_unusable_scores(scored) -> None:
    workspace, config, rewards = scored
    info = studies.create_study(workspace.database, "s1", config, 10, RATERS, seed=7)
    assert info.size == 10 and info.levels == {0: 2, 1: 2, 2: 2, 3: 2, 4: 2}
    studies.create_study(workspace.database, "s2", config, 10, RATERS, seed=7)
    studies.create_study(workspace.database, "s3", config, 10, RATERS, seed=8)
    queue = {
        s: sorted(e.trajectory_id for e in blind_rating.rater_queue(workspace.database, s, "小王"))
        for s in ("s1", "s2", "s3")
    }
    assert queue["s1"] == queue["s2"] != queue["s3"]
    assert set(queue["s1"]) <= set(rewards)  # the unusable one is never sampled
    small = studies.create_study(workspace.database, "big", config, 40, RATERS)
    assert (small.size, small.asked) == (16, 40)  # all there is


def test_a_level_with_few_trajectories_gives_its_share_to_the_others(scored) -> None:
    workspace, config, _rewards = scored
    info = studies.create_study(workspace.database, "s", config, 14, RATERS)
    assert info.levels == {0: 2, 1: 3, 2: 3, 3: 3, 4: 3}


def test_by_app_spreads_a_level_over_the_apps(scored) -> None:
    workspace, config, rewards = scored
    studies.create_study(workspace.database, "apps", config, 10, ["a"], by_app=True)  # two of each level
    items, _ = studies.rated_items(workspace.database, "apps", viewer="主管")
    with workspace.database.session() as session:
        app_of = dict(session.execute(select(models.StudyItem.trajectory_id, models.StudyItem.app)).all())
    top = [app_of[int(item.item)] for item in items if rewards[int(item.item)] == 4]
    assert len(top) == 2 and len(set(top)) == 2  # level 4 has five trajectories over three apps: two apps


def test_bad_requests_say_what_to_do(scored, workspace: Workspace) -> None:
    _ws, config, _rewards = scored
    with pytest.raises(LookupError, match="no judge 999"):
        studies.create_study(workspace.database, "x", 999, 5, RATERS)
    with pytest.raises(StudyError, match="one or more raters"):
        studies.create_study(workspace.database, "x", config, 5, [])
    with pytest.raises(StudyError, match="each named once"):
        studies.create_study(workspace.database, "x", config, 5, ["a", "a"])
    studies.create_study(workspace.database, "x", config, 5, RATERS)
    with pytest.raises(StudyError, match="exists already"):
        studies.create_study(workspace.database, "x", config, 5, RATERS)
    empty = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", "另一个提示", "m"))
    with pytest.raises(StudyError, match="has scored no trajectory"):
        studies.create_study(workspace.database, "y", empty, 5, RATERS)


def test_a_rater_the_workspace_does_not_know_is_refused_and_nothing_is_written(scored) -> None:
    """Issue 29, item 8: a misspelt rater became a new person, and the study could never finish."""
    workspace, config, _rewards = scored
    before = database_snapshot(workspace)
    with pytest.raises(LookupError, match="'张审和' \\(did you mean '张审核'\\?\\), '路人'") as refused:
        studies.create_study(workspace.database, "x", config, 5, ["小王", "张审和", "路人"], created_by="主管")
    assert "\n" not in str(refused.value) and "'小王'" not in str(refused.value)
    assert database_snapshot(workspace) == before  # no study, no person, not even its creator


def test_each_rater_has_an_order_of_their_own(scored) -> None:
    workspace, config, _rewards = scored
    studies.create_study(workspace.database, "s", config, 10, RATERS)
    orders = [[e.trajectory_id for e in blind_rating.rater_queue(workspace.database, "s", r)] for r in RATERS]
    assert sorted(orders[0]) == sorted(orders[1]) == sorted(orders[2])
    assert len({tuple(order) for order in orders}) == 3
    assert orders[0] == [e.trajectory_id for e in blind_rating.rater_queue(workspace.database, "s", "小王")]


def test_what_a_rater_receives_holds_no_judge_score(scored) -> None:
    workspace, config, _rewards = scored
    studies.create_study(workspace.database, "s", config, 10, RATERS)
    for kind in (blind_rating.BlindEntry, JudgedTrajectory, JudgedStep):
        names = {field.name for field in dataclasses.fields(kind)}
        assert not names & {"judge", "reward", "reason", "judge_reward", "level"}, kind
    entry = blind_rating.rater_queue(workspace.database, "s", "小王")[0]
    seen = blind_rating.blind_trajectory(workspace.database, "s", "小王", entry.item_id)
    assert seen.trajectory_id == entry.trajectory_id and len(seen.steps) == 2
    assert "理由" not in repr(seen) and "reward" not in repr(seen)
    with pytest.raises(PermissionError, match="not a rater"):
        blind_rating.rater_queue(workspace.database, "s", "陌生人")
    # no report, no disagreement list, no adjudication for a rater who is still rating
    with pytest.raises(NotYetError, match="still rating"):
        studies.study_report(workspace.database, "s", "小王", n_boot=0)
    with pytest.raises(NotYetError, match="still being rated"):
        studies.study_report(workspace.database, "s", None, n_boot=0)
    with pytest.raises(NotYetError, match="not rated yet"):
        blind_rating.disagreements(workspace.database, "s", "小王")
    with pytest.raises(NotYetError, match="still rating"):
        studies.adjudicate(workspace.database, "s", entry.trajectory_id, 2, "", "小王")
    assert studies.study_report(workspace.database, "s", "主管", n_boot=0).n == 10  # someone else may look


def test_ratings_scores_are_checked_and_can_be_changed(scored) -> None:
    workspace, config, _rewards = scored
    studies.create_study(workspace.database, "s", config, 5, RATERS)
    entry = blind_rating.rater_queue(workspace.database, "s", "小李")[0]
    for bad in (5, -1, None, True):
        with pytest.raises(ValueError):
            blind_rating.rate(workspace.database, "s", "小李", entry.item_id, bad)  # type: ignore[arg-type]
    blind_rating.rate(workspace.database, "s", "小李", entry.item_id, 1, "太绕了")
    blind_rating.rate(workspace.database, "s", "小李", entry.item_id, 2, " ")
    changed = blind_rating.rater_queue(workspace.database, "s", "小李")[0]
    assert (changed.score, changed.note) == (2, None)
    assert [r.rated for r in studies.study_info(workspace.database, "s").raters] == [0, 1, 0]


def test_a_finished_study_reports_what_the_agreement_module_computes(scored) -> None:
    workspace, config, rewards = scored
    studies.create_study(workspace.database, "s", config, 10, RATERS)
    team.add_person(workspace, "主管", "admin", by=None)  # from now on the list of people says who may adjudicate
    team.assign(workspace, "张审核", Target(study="s"), by="主管")  # a rater already: the assignment is recorded
    offsets = {"小王": 0, "小李": 1, "张审核": -1}
    for rater in RATERS:
        rate_all(workspace, "s", rater, lambda t, r=rater: min(4, max(0, rewards[t] + (offsets[r] if t % 2 else 0))))
    assert [r.done_at is not None for r in assignments.records(workspace.database, "张审核", open_only=False)] == [True]
    info = studies.study_info(workspace.database, "s")
    items, _ = studies.rated_items(workspace.database, "s", None)
    tops = [Counter(i.humans.values()).most_common(2) for i in items]
    assert info.finished and info.flagged == sum(1 for top in tops if len(top) > 1 and top[0][1] == top[1][1])
    report = studies.study_report(workspace.database, "s", None, n_boot=200)
    direct = agreement_report([RatedItem(i.item, rewards[int(i.item)], i.humans) for i in items], n_boot=200)
    assert report.to_dict() == direct.to_dict()

    gaps = blind_rating.disagreements(workspace.database, "s", "小李")
    assert [d.gap for d in gaps] == sorted((d.gap for d in gaps), reverse=True) and gaps[0].gap == 1
    assert gaps[0].judge_reason.startswith("理由") and gaps[0].judge == rewards[gaps[0].trajectory_id]

    flagged = report.flagged_items[0] if report.flagged_items else items[0].item
    with pytest.raises(NotAllowed, match=r"^小王 is an annotator: only reviewers and admins adjudicate study items$"):
        studies.adjudicate(workspace.database, "s", int(flagged), 0, "", "小王")
    studies.adjudicate(workspace.database, "s", int(flagged), 0, "看截图，任务没完成", "主管")
    settled = studies.study_report(workspace.database, "s", None, n_boot=0)
    assert settled.adjudicated_items == [flagged]
    assert flagged not in settled.flagged_items
    assert studies.study_info(workspace.database, "s").adjudicated == 1
    assert Counter(item.human for item in settled.items)[0] >= 1


def test_a_finished_rater_sees_no_score_until_every_rater_has_finished(scored) -> None:
    """Issue 16, defect 8: finishing gave a rater the judge's scores and the report while the others rated."""
    workspace, config, rewards = scored
    studies.create_study(workspace.database, "s", config, 6, RATERS, created_by="主管")
    rate_all(workspace, "s", "小王", lambda t: 2)
    with pytest.raises(NotYetError, match="once every rater has finished"):
        blind_rating.disagreements(workspace.database, "s", "小王")
    with pytest.raises(NotYetError, match="小王 has rated all 6 items"):
        studies.study_report(workspace.database, "s", "小王", n_boot=0)
    with pytest.raises(NotYetError, match="once every rater has finished"):
        studies.adjudicate(workspace.database, "s", next(iter(rewards)), 2, "", "小王")
    with pytest.raises(LookupError, match="nobody called '路人'"):
        person_asking(workspace.database, "路人")  # on the command line, an invented name is not "not a rater"
    for rater in RATERS[1:]:
        rate_all(workspace, "s", rater, lambda t: 3)
    assert len(blind_rating.disagreements(workspace.database, "s", "小王")) == 6
    assert studies.study_report(workspace.database, "s", "小王", n_boot=0).n == 6
    assert studies.study_report(workspace.database, "s", None, n_boot=0).n == 6  # closed: anyone may read it


def test_the_owner_may_show_a_finished_rater_their_differences_early(scored) -> None:
    workspace, config, _rewards = scored
    info = studies.create_study(workspace.database, "early", config, 6, RATERS, show_differences_early=True)
    assert info.show_differences_early and not info.differences_for("小王")
    rate_all(workspace, "early", "小王", lambda t: 2)
    assert studies.study_info(workspace.database, "early").differences_for("小王")
    assert len(blind_rating.disagreements(workspace.database, "early", "小王")) == 6
    with pytest.raises(NotYetError):  # the report (the others' scores) still waits for everyone
        studies.study_report(workspace.database, "early", "小王", n_boot=0)
    with pytest.raises(NotYetError, match="not rated yet"):
        blind_rating.disagreements(workspace.database, "early", "小李")
    assert studies.hidden_judging(workspace.database, "小王")  # and the judge's scores elsewhere too


def test_which_judge_results_are_hidden_from_whom(scored) -> None:
    """The one rule (storage.studies.hidden_judging) the GUI, bundles and statistics use."""
    workspace, config, _rewards = scored
    db = workspace.database
    studies.create_study(db, "a", config, 5, ["小王", "小李"], seed=1)
    studies.create_study(db, "b", config, 5, ["张审核"], seed=2)
    items = {
        name: {e.trajectory_id for e in blind_rating.rater_queue(db, name, rater)}
        for name, rater in (("a", "小王"), ("b", "张审核"))
    }
    assert studies.hidden_judging(db, "小王").trajectory_ids == items["a"]
    assert studies.hidden_judging(db, "张审核").trajectory_ids == items["b"]
    assert studies.hidden_judging(db, None).trajectory_ids == items["a"] | items["b"]  # anyone may be a rater
    assert not studies.hidden_judging(db, "主管").trajectory_ids  # not a rater: nothing hidden
    rate_all(workspace, "a", "小王", lambda t: 1)
    assert studies.hidden_judging(db, "小王").study_names == ("a",)  # finished, but 小李 has not
    rate_all(workspace, "a", "小李", lambda t: 1)
    assert not studies.hidden_judging(db, "小王") and studies.hidden_judging(db, None).study_names == ("b",)
