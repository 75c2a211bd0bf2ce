"""The demo workspace: real trajectories from the virtual phone, labels and reviews by named people."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from annotator.cli.root import cli
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.demo.phone.solver import run_solution
from annotator.demo.workspace.build import DemoExistsError, DemoReport, build_demo
from annotator.demo.workspace.careful_labels import Seen, label_steps
from annotator.demo.workspace.runs import plan_runs
from annotator.device.hierarchy import parse_hierarchy
from annotator.domain import actions as act
from annotator.domain.trajectory import Verdict
from annotator.storage import models
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import database_snapshot
from trainer_bridge.cli.root import cli as bridge

LABEL_COLUMNS = ("think", "action_text", "tool_call", "target_box", "verdict")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> DemoReport:
    lines: list[str] = []
    report = build_demo(tmp_path_factory.mktemp("demo") / "data", trajectories=4, seed=0, progress=lines.append)
    assert len(lines) == 4 and all(line.startswith(f"[{n}/4]") for n, line in enumerate(lines, start=1))
    return report


def rows(data_dir: Path, model: type) -> list:
    with Workspace.open(data_dir) as workspace, workspace.database.session() as session:
        return list(session.scalars(select(model).order_by(model.id)))


def labels_by_step(data_dir: Path) -> list[tuple]:
    return [
        (step.trajectory_id, step.index, *(getattr(step, c) for c in LABEL_COLUMNS))
        for step in rows(data_dir, models.Step)
    ]


@pytest.mark.slow
def test_the_demo_has_real_trajectories_of_several_apps_and_both_collectors(built: DemoReport) -> None:
    with Workspace.open(built.data_dir) as workspace, workspace.database.session() as session:
        trajectories = list(session.scalars(select(models.Trajectory)))
        assert len(trajectories) == built.trajectories == 4
        assert len({t.instruction.app.name for t in trajectories}) >= 2
        assert {t.collector_kind for t in trajectories} == {"agent", "human"}
        assert {t.collector_person.name for t in trajectories if t.collector_person} == {"小王", "小李"}
        assert {t.agent_model for t in trajectories if t.collector_kind == "agent"} == {"scripted"}
        steps = list(session.scalars(select(models.Step)))
        assert len(steps) == built.steps
        for step in steps:
            assert workspace.blobs.read_bytes(step.screenshot_sha256).startswith(b"\x89PNG")
            assert (step.screen_width, step.screen_height) == (1080, 2400)
        dumps = [step.hierarchy_sha256 for step in steps if step.hierarchy_sha256]
        assert len(dumps) == len(steps)
        assert parse_hierarchy(workspace.blobs.read_bytes(dumps[0]).decode())
        assert any(step.model_reply and step.model_reply.startswith("<think>") for step in steps)
        assert session.scalar(select(models.Device.model)) == "Virtual Phone"
        assert {i.uid for i in session.scalars(select(models.Instruction))} >= {"settings-wifi-off", "shop-nuts-two"}
    assert [run.outcome for run in built.runs].count("failure") >= 1  # the person who gave up


@pytest.mark.slow
def test_every_demo_tap_has_a_suggested_box_around_its_point(built: DemoReport) -> None:
    taps = [step for step in rows(built.data_dir, models.Step) if step.raw_action == "click"]
    assert taps
    for step in taps:
        x, y = step.raw_tool_call["arguments"]["coordinate"]
        assert step.suggested_box_source == "uiautomator", (step.trajectory_id, step.index)
        x1, y1, x2, y2 = step.suggested_box
        assert x1 <= x <= x2 and y1 <= y <= y2


@pytest.mark.slow  # the demo workspace it reads takes seconds to build
def test_labels_have_revisions_by_named_people_and_reviews_have_comments(built: DemoReport) -> None:
    steps = rows(built.data_dir, models.Step)
    labelled = [step for step in steps if step.verdict is not None]
    assert labelled and {step.verdict for step in labelled} <= {v.value for v in Verdict}
    boxed = [step for step in labelled if step.target_box]
    assert boxed and all(step.label_action in ("click", "long_press") for step in boxed)
    for step in boxed:
        x, y = step.tool_call["arguments"]["coordinate"]
        x1, y1, x2, y2 = step.target_box
        assert x1 <= x <= x2 and y1 <= y <= y2
    assert all(step.think.startswith("当前") for step in labelled if step.think)
    revisions = rows(built.data_dir, models.LabelRevision)
    with Workspace.open(built.data_dir) as workspace, workspace.database.session() as session:
        authors = {session.get(models.Person, r.person_id).name for r in revisions}
        reviews = [
            (r.trajectory_id, r.status, r.reviewer.name, r.comment) for r in session.scalars(select(models.Review))
        ]
        statuses = dict(session.execute(select(models.Trajectory.id, models.Trajectory.review_status)).all())
    assert authors == {"小王", "小李", "张审核"}
    assert any(r.field == "action_text" and r.old_value and r.new_value != r.old_value for r in revisions)
    decided = {status: (who, comment) for _, status, who, comment in reviews if status in ("accepted", "rejected")}
    assert decided["accepted"][0] == decided["rejected"][0] == "张审核"
    assert "通过" in decided["accepted"][1] and "重新提交" in decided["rejected"][1]
    assert sorted(statuses.values()) == sorted(run.review for run in built.runs)
    assert (built.accepted, built.rejected, built.labelled) == (1, 1, 3)
    in_progress = [t for t, status in statuses.items() if status == "in_progress"]
    partial = [step for step in steps if step.trajectory_id in in_progress]
    assert 0 < sum(step.verdict is not None for step in partial) < len(partial)
    unlabelled = [t for t, status in statuses.items() if status == "unlabelled"]
    assert all(step.verdict is None for step in steps if step.trajectory_id in unlabelled)


@pytest.mark.slow  # the demo workspace it reads takes seconds to build
def test_stats_agree_with_the_report(built: DemoReport) -> None:
    result = CliRunner().invoke(cli, ["--data-dir", str(built.data_dir), "stats", "--every-row", "--json"])
    stats = json.loads(result.output)
    assert (stats["trajectories"], stats["steps"]) == (built.trajectories, built.steps)
    per_app = {app: row["trajectories"] for app, row in stats["per_app"].items() if row["trajectories"]}
    assert per_app == {app: sum(run.app == app for run in built.runs) for app in {run.app for run in built.runs}}
    reviews = stats["trajectories_per_review_status"]
    assert (reviews["accepted"], reviews["rejected"]) == (built.accepted, built.rejected)


@pytest.mark.slow
def test_an_unlabelled_trajectory_has_model_drafts_to_accept(built: DemoReport) -> None:
    waiting = [run.trajectory_id for run in built.runs if run.review == "unlabelled"]
    with Workspace.open(built.data_dir) as workspace:
        steps = load_trajectory(workspace.database, waiting[0]).steps
    assert built.drafted == len(steps) > 0 and all(step.drafts and step.label.is_empty() for step in steps)
    assert sum(step.draft is not None for step in steps) >= len(steps) - 2  # the agent's slips are flagged


@pytest.mark.slow
def test_the_same_seed_gives_the_same_demo(built: DemoReport, tmp_path: Path) -> None:
    again = build_demo(tmp_path / "again", trajectories=4, seed=0)
    key = [(r.instruction_uid, r.collector, r.outcome, r.task_done, r.steps, r.review) for r in again.runs]
    assert key == [(r.instruction_uid, r.collector, r.outcome, r.task_done, r.steps, r.review) for r in built.runs]
    assert labels_by_step(again.data_dir) == labels_by_step(built.data_dir)
    assert [p.instruction.uid for p in plan_runs(12, 1)] != [p.instruction.uid for p in plan_runs(12, 0)]


@pytest.mark.slow
def test_the_scripted_agent_is_evaluated_on_the_demo_offline_and_on_a_phone(
    built: DemoReport, tmp_path: Path, server: VirtualAdbServer
) -> None:
    """The README's evaluation walk-through on a copy of the demo: offline over its accepted trajectories, then on
    a virtual phone over one of its instructions; both stored, with their reports."""
    data = tmp_path / "data"
    shutil.copytree(built.data_dir, data)
    with ScriptedEndpoint(seed=1) as endpoint:
        common = ["--base-url", endpoint.base_url, "--model", "scripted", "--data-dir", str(data), "--json"]
        offline = CliRunner().invoke(bridge, ["eval", *common])
        assert offline.exit_code == 0, offline.output
        with Workspace.open(data) as workspace, workspace.database.session() as session:
            instruction_id = session.scalars(select(models.Instruction.id).order_by(models.Instruction.id)).first()
        online = CliRunner().invoke(
            bridge,
            ["eval", "--online", *common, "--instruction-id", str(instruction_id), "--adb-port", str(server.port)],
        )
        assert online.exit_code == 0, online.output
    summary = json.loads(offline.output.strip().splitlines()[-1])["summary"]
    assert summary["steps"] > 0 and 0 <= summary["step_accuracy"] <= 1 and summary["per_app"]
    rollouts = json.loads(online.output.strip().splitlines()[-1])
    assert rollouts["summary"]["rollouts"] == 1 and rollouts["summary"]["checked_by"]["phone"] == 1
    listed = CliRunner().invoke(bridge, ["eval", "list", "--data-dir", str(data)])
    assert "offline" in listed.output and "online" in listed.output
    assert sorted(path.name for path in (data / "reports").iterdir()) == [
        "evaluation-1.html",
        "evaluation-1.json",
        "evaluation-2.html",
        "evaluation-2.json",
    ]


@pytest.mark.slow
def test_a_folder_with_trajectories_is_left_untouched_unless_replaced(populated: Workspace) -> None:
    before = database_snapshot(populated)
    blobs = sorted(populated.blobs.root.rglob("*"))
    with pytest.raises(DemoExistsError, match="3 trajectories; nothing was changed"):
        build_demo(populated.data_dir, trajectories=1)
    assert database_snapshot(populated) == before
    assert sorted(populated.blobs.root.rglob("*")) == blobs
    populated.close()
    notes = populated.data_dir / "notes.txt"
    notes.write_text("mine", encoding="utf-8")
    report = build_demo(populated.data_dir, trajectories=1, seed=7, replace=True)  # a short task
    assert report.trajectories == 1 and notes.read_text(encoding="utf-8") == "mine"
    assert [run.app for run in report.runs] == ["优选商城"]
    assert len(rows(populated.data_dir, models.Trajectory)) == 1


def solution(uid: str) -> tuple[VirtualPhone, list[act.Action]]:
    phone = VirtualPhone()
    return phone, [action for _, action in run_solution(phone, instruction_by_uid(uid))]


def test_steps_are_judged_against_the_scripted_solution() -> None:
    instruction = instruction_by_uid("settings-dark-mode")
    _, right = solution("settings-dark-mode")  # open, tap 显示和亮度, tap the switch, terminate
    phone = VirtualPhone()
    phone.start_app("com.android.settings")
    sound = next(rect for node, rect, _ in phone.find(lambda node: node.text == "声音和振动"))
    wrong_tap = act.Click(coordinate=((sound[0] + sound[2]) // 2, (sound[1] + sound[3]) // 2))
    done = [right[0], act.Wait(time=2), wrong_tap, act.SystemButton(button="Back"), *right[1:]]
    judged = label_steps(instruction, [Seen(action.to_tool_call(), []) for action in done])
    assert [j.verdict for j in judged] == [
        Verdict.CORRECT,
        Verdict.REDUNDANT,
        Verdict.WRONG,
        Verdict.CORRECT,
        Verdict.CORRECT,
        Verdict.CORRECT,
        Verdict.CORRECT,
    ]
    assert judged[2].tool_call == right[1].to_tool_call() and judged[2].action_text == "点击“显示和亮度”"
    assert "误点" in judged[3].think and judged[1].tool_call == act.Wait(time=2).to_tool_call()
    early = label_steps(instruction, [Seen(a.to_tool_call(), []) for a in (right[0], act.Terminate("success"))])
    assert early[1].verdict == Verdict.WRONG and early[1].tool_call == right[1].to_tool_call()
