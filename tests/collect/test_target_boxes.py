"""Target boxes suggested at collection from the stored UI hierarchy, and exported as the rewards' ground truth."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from datasets import load_from_disk
from sqlalchemy import text

from annotator.cli.root import cli
from annotator.collect.agent import AgentDecider
from annotator.collect.session import CollectionRun
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.device.android import AndroidDevice
from annotator.device.hierarchy import parse_hierarchy
from annotator.domain.model_space import model_space
from annotator.domain.target_box import BoxProvenance, action_point
from annotator.llm.client import LLMClient, LLMConfig
from annotator.storage import models
from annotator.storage.guards import RawStepChangedError
from annotator.storage.labels import write_step_label
from annotator.storage.selection import TrajectorySelection
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.collect.test_collection_run import AGENT, task_for
from trainer_bridge.export.run import ExportOptions, export

pytestmark = pytest.mark.slow


@pytest.fixture
def collected(workspace: Workspace, device: AndroidDevice, phone: VirtualPhone) -> int:
    packages = {app.label: package for package, app in phone.apps.items()}
    with ScriptedEndpoint(seed=0, mistakes={}) as endpoint:
        client = LLMClient(LLMConfig(base_url=endpoint.base_url, model="scripted"))
        result = CollectionRun(workspace, device, AgentDecider(client), packages=packages).start(
            task_for(workspace, "settings-device-name"), AGENT
        )
    return result.trajectory_id


def test_each_tap_gets_the_smallest_clickable_element_under_it(workspace: Workspace, collected: int) -> None:
    trajectory = load_trajectory(workspace.database, collected)
    taps = [step for step in trajectory.steps if (step.raw.tool_call or {})["arguments"]["action"] == "click"]
    assert len(taps) >= 3
    for step in taps:
        x, y = action_point(step.raw.tool_call) or (0, 0)
        suggestion = step.raw.suggested_box
        assert suggestion is not None and suggestion.source == "uiautomator" and suggestion.box.contains(x, y)
        nodes = parse_hierarchy(workspace.blobs.read_bytes(step.raw.hierarchy_sha256 or "").decode())
        under = [n for n in nodes if n.actionable and n.visible and n.contains(x, y)]
        assert list(suggestion.box) == [float(v) for v in min(under, key=lambda n: n.area).bounds]
        assert step.target() == (None, BoxProvenance.NONE)  # nothing labelled yet: no point to hold it against
    (swipe,) = [step for step in trajectory.steps if (step.raw.tool_call or {})["arguments"]["action"] == "swipe"]
    assert swipe.raw.suggested_box is None  # it starts on a list row's text, and nothing there is clickable


def test_the_export_fills_gt_bbox_from_the_suggestion_and_counts_provenance(
    workspace: Workspace, collected: int, tmp_path
) -> None:
    trajectory = load_trajectory(workspace.database, collected)
    for step in trajectory.steps:
        values = {"think": "想", "action_text": "做", "tool_call": step.raw.tool_call, "verdict": "correct"}
        write_step_label(workspace.database, collected, step.id or 0, values, person="小王", role="annotator")
    first_tap = next(step for step in trajectory.steps if (step.raw.tool_call or {})["arguments"]["action"] == "click")
    drawn = [10.0, 20.0, 300.0, 400.0]  # a person's own box wins over the suggestion
    write_step_label(
        workspace.database, collected, first_tap.id or 0, {"target_box": drawn}, person="小王", role="annotator"
    )
    space, everything = model_space("qwen2.5-vl"), TrajectorySelection()
    export(workspace, ExportOptions("grpo-action", "trl", tmp_path / "out", space, selection=everything))
    rows = list(load_from_disk(str(tmp_path / "out"))["train"])
    by_step = {row["step_id"]: row for row in rows}
    assert by_step[first_tap.id]["gt_bbox"] == drawn and by_step[first_tap.id]["gt_bbox_provenance"] == "annotator"
    suggested = [row for row in rows if row["gt_bbox_provenance"] == "hierarchy"]
    assert suggested and all(row["gt_bbox"] is not None for row in suggested)
    for row in suggested:
        x, y = json.loads(row["gt_action"])["arguments"]["coordinate"]
        x1, y1, x2, y2 = row["gt_bbox"]
        assert x1 <= x <= x2 and y1 <= y <= y2
    counts = json.loads((tmp_path / "out" / "manifest.json").read_text())["counts"]["train"]["target_box_provenance"]
    assert counts == {"annotator": 1, "hierarchy": len(suggested), "none": 1}  # the swipe


def test_steps_recorded_before_suggestions_get_them_on_upgrade_and_a_suggestion_is_never_replaced(
    workspace: Workspace, collected: int
) -> None:
    before = {step.id: step.raw.suggested_box for step in load_trajectory(workspace.database, collected).steps}
    with workspace.database.engine.begin() as connection:  # as a workspace of the previous version holds them
        connection.execute(text("UPDATE steps SET suggested_box = NULL, suggested_box_source = NULL"))
    result = CliRunner().invoke(cli, ["--data-dir", str(workspace.data_dir), "db", "upgrade"])
    assert result.exit_code == 0, result.output
    filled = sum(box is not None for box in before.values())
    assert f"Suggested target boxes from the stored UI hierarchies for {filled} steps." in result.output
    after = {step.id: step.raw.suggested_box for step in load_trajectory(workspace.database, collected).steps}
    assert after == before
    with pytest.raises(RawStepChangedError), workspace.database.session() as session, session.begin():
        step = session.get(models.Step, next(key for key, box in before.items() if box))
        step.suggested_box = [0.0, 0.0, 1.0, 1.0]
