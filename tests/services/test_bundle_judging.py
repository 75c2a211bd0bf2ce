"""Judges' scores and validation studies travel in bundles (format version 2): nothing of the people's blind
ratings is lost by a backup or a move, importing twice adds nothing, version 1 bundles still import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import blind_rating, studies
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.bundle_manifest import BundleError
from annotator.storage import judging
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from tests.factories import add_people, add_trajectory, database_snapshot

pytestmark = pytest.mark.slow


@pytest.fixture
def judged(workspace: Workspace) -> Workspace:
    """Four trajectories (three 淘宝, one 抖音) scored by a judge, one unusable answer, and a finished,
    adjudicated study of the four."""
    config = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    for n, (app, level) in enumerate((("淘宝", 1), ("淘宝", 3), ("淘宝", 4), ("抖音", 2))):
        trajectory = add_trajectory(workspace, app, f"任务 {n}", 2, seed=n)
        record = ScoreRecord(level, f"理由 {n}", f'{{"reward": {level}}}', None, {"total_tokens": 9}, 12.5, 2)
        judging.save_score(workspace.database, config, None, trajectory, record)
    unusable = add_trajectory(workspace, "淘宝", "没有分数", 2, seed=9)
    judging.save_score(workspace.database, config, None, unusable, ScoreRecord(None, None, "?", "no JSON", None, 1, 2))
    add_people(workspace.database, "小王", "小李")  # raters are people the workspace knows
    studies.create_study(workspace.database, "试点", config, 4, ["小王", "小李"], seed=4, created_by="主管")
    for rater, offset in (("小王", 0), ("小李", 1)):
        for entry in blind_rating.rater_queue(workspace.database, "试点", rater):
            blind_rating.rate(workspace.database, "试点", rater, entry.item_id, min(4, entry.number + offset), "备注")
    first = blind_rating.rater_queue(workspace.database, "试点", "小王")[0].trajectory_id
    studies.adjudicate(workspace.database, "试点", first, 2, "看了截图", "主管")
    return workspace


def test_scores_and_studies_survive_a_round_trip(judged: Workspace, tmp_path: Path) -> None:
    bundle = export_bundle(judged, tmp_path / "b.zip").path
    with Workspace.open(tmp_path / "other") as other:
        result = import_bundle(other, bundle)
        assert (result.judge_scores_added, result.studies_added) == (5, 1)
        assert judging.config_summaries(other.database)[0].scored == 4  # and the unusable answer, unscored
        report = studies.study_report(other.database, "试点", None, n_boot=100).to_dict()
        assert report == studies.study_report(judged.database, "试点", None, n_boot=100).to_dict()
        assert report["adjudicated_items"]  # the adjudication came along
        notes = {e.note for e in blind_rating.rater_queue(other.database, "试点", "小李")}
        assert notes == {"备注"}
        before = database_snapshot(other)
        again = import_bundle(other, bundle)
        assert (again.judge_scores_added, again.studies_added) == (0, 0) and database_snapshot(other) == before


def test_a_study_is_exported_only_with_all_its_trajectories(judged: Workspace, tmp_path: Path) -> None:
    folder = export_bundle(judged, tmp_path / "douyin", app="抖音").path
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["format_version"] == 3 and manifest["studies"] == []
    assert [len(judge["scores"]) for judge in manifest["judges"]] == [1]


def test_a_version_1_bundle_still_imports(judged: Workspace, tmp_path: Path) -> None:
    folder = export_bundle(judged, tmp_path / "old").path
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest["format_version"] = 1
    del manifest["judges"], manifest["studies"]
    (folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    with Workspace.open(tmp_path / "other") as other:
        result = import_bundle(other, folder)
        assert (result.trajectories_added, result.judge_scores_added, result.studies_added) == (5, 0, 0)


@pytest.mark.parametrize(
    ("tamper", "problem"),
    [
        (lambda m: m["judges"][0].update(model="another"), "fingerprint does not match"),
        (lambda m: m["judges"][0]["scores"][0].update(reward=7), "expected a level from 0 to 4"),
        (lambda m: m["studies"][0]["raters"][0]["ratings"][0].update(trajectory="nope"), "not one of the study"),
        (lambda m: m["studies"][0].update(judge="0" * 64), "its judge is not in the bundle"),
    ],
)
def test_a_damaged_judging_section_is_refused_and_nothing_is_written(
    judged: Workspace,
    tmp_path: Path,
    tamper,
    problem: str,  # type: ignore[no-untyped-def]
) -> None:
    folder = export_bundle(judged, tmp_path / "bad").path
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    tamper(manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    with Workspace.open(tmp_path / "other") as other:
        before = database_snapshot(other)
        with pytest.raises(BundleError, match=problem):
            import_bundle(other, folder)
        assert database_snapshot(other) == before


def test_a_bundle_written_by_a_rater_of_an_open_study_leaves_its_judge_results_out(
    workspace: Workspace, tmp_path: Path
) -> None:
    """Issue 16, defect 8: the manifest carried every judge score and reason while a study was being rated."""
    config = judging.ensure_config(workspace.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    ids = []
    for n in range(4):
        ids.append(add_trajectory(workspace, "淘宝", f"任务 {n}", 2, seed=n))
        record = ScoreRecord(n, f"理由 {n}", "{}", None, None, 1.0, 2)
        judging.save_score(workspace.database, config, None, ids[-1], record)
    add_people(workspace.database, "小王", "小李")
    studies.create_study(workspace.database, "试点", config, 3, ["小王", "小李"], seed=1, created_by="主管")
    in_study = {e.trajectory_id for e in blind_rating.rater_queue(workspace.database, "试点", "小王")}
    hidden = studies.hidden_judging(workspace.database, "小王")
    result = export_bundle(workspace, tmp_path / "rater", hidden=hidden)
    manifest = json.loads((result.path / "manifest.json").read_text(encoding="utf-8"))
    kept = {score["trajectory"] for score in manifest["judges"][0]["scores"]}
    assert len(kept) == 1 and manifest["studies"] == [] and result.withheld == manifest["withheld"]
    assert len(manifest["withheld"]["judge_results_of"]) == len(in_study) == 3
    assert not kept & set(manifest["withheld"]["judge_results_of"])
    with Workspace.open(tmp_path / "other") as other:
        imported = import_bundle(other, result.path)  # a bundle with less in it still imports
        assert (imported.trajectories_added, imported.judge_scores_added, imported.studies_added) == (4, 1, 0)
        assert imported.withheld is not None and imported.withheld["person"] == "小王"
    everything = export_bundle(workspace, tmp_path / "owner", hidden=studies.hidden_judging(workspace.database, "主管"))
    assert everything.withheld is None


def test_the_owners_choice_of_early_differences_comes_along(judged: Workspace, tmp_path: Path) -> None:
    from annotator.storage import models

    with judged.database.session() as session:
        session.query(models.Study).update({models.Study.show_differences_early: True})
        session.commit()
    bundle = export_bundle(judged, tmp_path / "b.zip").path
    with Workspace.open(tmp_path / "other") as other:
        import_bundle(other, bundle)
        with other.database.session() as session:
            assert [study.show_differences_early for study in session.query(models.Study)] == [True]
