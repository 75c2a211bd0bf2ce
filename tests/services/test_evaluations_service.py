"""What the Models view reads of the evaluations: real evaluations made by the offline runner against the scripted
endpoint on loopback (one that never errs, one that taps the wrong element), and evaluations stored with known
answers; real SQLite and real virtual-phone screenshots."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.domain.geometry import Box
from annotator.domain.model_space import default_export_space
from annotator.llm.client import LLMConfig
from annotator.services import evaluations as service
from annotator.storage import evaluations, labels
from annotator.storage.evaluations import PredictionRecord
from annotator.storage.selection import TrajectorySelection
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import add_virtual_trajectory, click, finish_labelling, step_ids
from trainer_bridge.evaluate.offline import EvalJob, EvalSettings, OfflineEvaluation
from trainer_bridge.evaluate.policy import EndpointPolicy

pytestmark = pytest.mark.slow
TASKS = ("shop-search-earbuds", "video-pause", "settings-bluetooth-on", "shop-nuts-two")
CLEAN, NOISY = 1, 2  # the evaluations' ids: the first never errs, the second taps the wrong element at times
ENDPOINTS = {"scripted-clean": {"seed": 0}, "scripted-noisy": {"seed": 1, "mistakes": {"wrong_element": 0.3}}}


def evaluate(workspace: Workspace, name: str) -> None:
    """One offline evaluation of every labelled step, answered by the scripted endpoint."""
    with ScriptedEndpoint(**ENDPOINTS[name]) as endpoint:  # type: ignore[arg-type]
        policy = EndpointPolicy(LLMConfig(endpoint.base_url, "scripted", max_retries=0, timeout_s=20))
        job = EvalJob(name, EvalSettings(default_export_space()), TrajectorySelection(), concurrency=4, resume=False)
        try:
            result = OfflineEvaluation(workspace, policy, job).run()
        finally:
            policy.close()
    assert result.status == "complete" and result.failed == 0


def make_evaluated(data_dir: Path) -> None:
    """A workspace of four labelled trajectories in three apps, evaluated twice (ids CLEAN and NOISY)."""
    with Workspace.open(data_dir) as workspace:
        for uid in TASKS:
            finish_labelling(workspace, add_virtual_trajectory(workspace, uid))
        for name in ENDPOINTS:
            evaluate(workspace, name)


@pytest.fixture(scope="session")
def evaluated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Made once (the runs take seconds); each test gets a copy of its own."""
    folder = tmp_path_factory.mktemp("evaluated") / "data"
    make_evaluated(folder)
    return folder


@pytest.fixture
def evaluated(evaluated_template: Path, tmp_path: Path) -> Iterator[Workspace]:
    shutil.copytree(evaluated_template, tmp_path / "evaluated")
    with Workspace.open(tmp_path / "evaluated") as workspace:
        yield workspace


def summary_of(workspace: Workspace, evaluation_id: int) -> dict:
    summary = evaluations.get_evaluation(workspace.database, evaluation_id).summary
    assert summary is not None
    return summary


def test_the_list_has_every_evaluation_newest_first_with_its_headline_figures(evaluated: Workspace) -> None:
    rows = service.evaluation_rows(evaluated.database)
    assert [(row.id, row.name, row.kind, row.model, row.status) for row in rows] == [
        (NOISY, "scripted-noisy", "offline", "scripted", "complete"),
        (CLEAN, "scripted-clean", "offline", "scripted", "complete"),
    ]
    noisy, clean = rows
    assert clean.figures["step_accuracy"] == clean.figures["task_success"] == 1.0
    summary = summary_of(evaluated, NOISY)
    assert noisy.figures == {key: summary[key] for key in noisy.figures} and len(noisy.figures) == 6
    assert noisy.figures["step_accuracy"] < 1.0 and noisy.steps == summary["steps"] == 22


def test_failed_steps_are_the_first_answers_that_were_not_accurate(evaluated: Workspace) -> None:
    detail = service.evaluation_detail(evaluated.database, NOISY)
    wrong = [p for p in evaluations.predictions(evaluated.database, NOISY) if not p.record.exact_match]
    assert [step.step_id for step in detail.failed] == [p.record.step_id for p in wrong] != []
    assert len(detail.failed) == round((1 - detail.summary["step_accuracy"]) * detail.summary["steps"])
    assert {step.reason for step in detail.failed} == {service.ARGUMENT}  # the right action type, elsewhere
    assert set(detail.summary["per_app"]) == {"优选商城", "趣看视频", "设置"} and detail.level == "task"
    assert service.evaluation_detail(evaluated.database, CLEAN).failed == []


def test_two_evaluations_are_compared_on_the_steps_both_answered(evaluated: Workspace) -> None:
    found = service.comparison(evaluated.database, CLEAN, NOISY)
    clean, noisy = summary_of(evaluated, CLEAN), summary_of(evaluated, NOISY)
    assert found.shared_steps == 22 and found.only_first == found.only_second == 0
    assert found.difference["step_accuracy"] == pytest.approx(noisy["step_accuracy"] - clean["step_accuracy"])
    assert found.difference["task_success"] == pytest.approx(noisy["task_success"] - 1.0)
    failed = service.evaluation_detail(evaluated.database, NOISY).failed
    assert found.fixed == [] and [changed.difference.step_id for changed in found.broken] == [s.step_id for s in failed]
    assert [changed.instruction for changed in found.broken] == [step.instruction for step in failed]


def test_a_step_drilldown_has_the_screenshot_the_label_and_the_answer(evaluated: Workspace) -> None:
    failed = service.evaluation_detail(evaluated.database, NOISY).failed[0]
    step = load_trajectory(evaluated.database, failed.trajectory_id).step(failed.step_id)
    x, y = step.label.tool_call["arguments"]["coordinate"]  # type: ignore[index]
    box = [x - 50, y - 30, x + 50, y + 30]
    labels.write_step_label(
        evaluated.database, failed.trajectory_id, failed.step_id, {"target_box": box}, person="小王", role="annotator"
    )
    drilldown = service.step_drilldown(evaluated, NOISY, failed.step_id)
    assert drilldown.screenshot.startswith(b"\x89PNG") and (drilldown.screen.width, drilldown.screen.height) == (
        1080,
        2400,
    )
    assert drilldown.labelled == step.label.tool_call and drilldown.target_box == Box(*map(float, box))
    assert drilldown.predicted == failed.predicted != drilldown.labelled
    assert drilldown.record.reply and "<tool_call>" in drilldown.record.reply
    assert (drilldown.trajectory_id, drilldown.position, drilldown.app) == (
        failed.trajectory_id,
        failed.position,
        failed.app,
    )
    with pytest.raises(LookupError):
        service.step_drilldown(evaluated, NOISY, 10_000)


# evaluations stored with known answers ---------------------------------------------------------------------------


def stored(workspace: Workspace, kind: str, name: str, records: list[PredictionRecord], summary: dict) -> int:
    db = workspace.database
    evaluation_id, _resumed = evaluations.start_or_resume(
        db,
        kind=kind,
        name=name,
        fingerprint=name,
        policy={"kind": "local", "path": "/models/ckpt-200"},
        settings={"levels": ["task"]},
        selection=None,
        resume=False,
    )
    for record in records:
        evaluations.save_prediction(db, evaluation_id, record)
    evaluations.finish(db, evaluation_id, status="complete", message=None, summary=summary)
    return evaluation_id


def answer(step_id: int, **scores: bool | None) -> PredictionRecord:
    values = {"format_ok": True, "type_match": True, "exact_match": True, "grounded": True, "step_success": True}
    return PredictionRecord(step_id, "task", 0, "<think>…</think>", click(1, 2), None, **(values | scores))


def test_each_failed_step_says_why_and_later_samples_do_not_count(populated: Workspace) -> None:
    first, second, third, fourth, fifth = step_ids(populated)[:5]  # trajectory 1's three steps, 2's two
    records = [
        answer(first, format_ok=False, exact_match=False),
        answer(second, type_match=False, exact_match=False),
        PredictionRecord(third, "task", 0, None, None, "HTTP 500: the server broke"),
        answer(fourth, exact_match=False),
        answer(fifth),
        PredictionRecord(fifth, "task", 1, "<think>…</think>", None, None, False, False, False, False, False),
    ]
    evaluation_id = stored(populated, "offline", "known", records, {"step_accuracy": 0.2, "steps": 5})
    detail = service.evaluation_detail(populated.database, evaluation_id)
    assert [(step.step_id, step.reason) for step in detail.failed] == [
        (first, service.FORMAT),
        (second, service.TYPE),
        (third, service.REQUEST),
        (fourth, service.ARGUMENT),
    ]
    assert detail.failed[2].error == "HTTP 500: the server broke"
    row = service.evaluation_rows(populated.database)[0]
    assert row.model == "/models/ckpt-200" and row.figures == {"step_accuracy": 0.2} and row.steps == 5


def test_an_online_evaluation_shows_its_own_figures_and_is_not_compared(populated: Workspace) -> None:
    """Stored as before issue 28 ("done and claimed" under task_success), it reads under today's name."""
    online = stored(
        populated,
        "online",
        "phones",
        [],
        {"task_success": 0.5, "tail_success": 0.75, "rollouts": 8, "per_app": {"淘宝": {"task_success": 0.5}}},
    )
    offline = stored(populated, "offline", "steps", [answer(1)], {"step_accuracy": 1.0, "steps": 1})
    row = service.evaluation_rows(populated.database)[1]
    assert (row.kind, row.figures, row.steps, row.has_steps) == (
        "online",
        {"claimed_and_done": 0.5, "tail_success": 0.75},
        8,
        False,
    )
    detail = service.evaluation_detail(populated.database, online)
    assert detail.failed == [] and detail.summary["per_app"] == {"淘宝": {"claimed_and_done": 0.5}}
    with pytest.raises(ValueError, match="only evaluations of steps can be compared"):
        service.comparison(populated.database, offline, online)
