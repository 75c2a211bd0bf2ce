"""A run that stops without terminating keeps the screen after its last action, and the judge is shown it as the
screen after the last step (Mobile-R1 Fig. 8); a resumed run goes on from it as its next step."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PIL import Image

from annotator.collect.agent import AgentDecider
from annotator.collect.session import CollectionRun, Settings, StopKind
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.device.android import AndroidDevice
from annotator.domain.judge_settings import ImagePolicy
from annotator.judge.messages import build_judge_messages, judged_trajectory
from annotator.judge.screens import workspace_screens
from annotator.llm.client import LLMClient, LLMConfig
from annotator.services.bundle import export_bundle, import_bundle
from annotator.storage import collection
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.collect.test_collection_run import AGENT, task_for
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow


def test_a_run_at_its_step_limit_keeps_the_screen_after_its_last_action(
    workspace: Workspace, device: AndroidDevice, phone: VirtualPhone, tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    packages = {app.label: package for package, app in phone.apps.items()}
    with ScriptedEndpoint(seed=0, mistakes={}) as endpoint:
        client = LLMClient(LLMConfig(base_url=endpoint.base_url, model="scripted"))
        run = CollectionRun(workspace, device, AgentDecider(client), settings=Settings(max_steps=3), packages=packages)
        result = run.start(task_for(workspace, "settings-device-name"), AGENT)
    assert (result.stop, result.steps) == (StopKind.STEP_LIMIT, 3)
    trajectory = load_trajectory(workspace.database, result.trajectory_id)
    final = trajectory.final_screen
    assert final is not None and final.sha256 not in {step.screenshot_sha256 for step in trajectory.steps}
    with Image.open(workspace.blobs.path(final.sha256)) as kept:
        assert kept.size == (final.screen.width, final.screen.height) == (phone.width, phone.height)
        assert kept.convert("RGB").tobytes() == phone.render().convert("RGB").tobytes()  # the phone as it is now

    judged = judged_trajectory(trajectory)
    messages, images, dropped = build_judge_messages(judged, "判分", ImagePolicy(), workspace_screens(workspace))
    texts = [part["text"] for part in messages[1]["content"] if part["type"] == "text"]
    captions = [text for text in texts if text.endswith("界面：")]
    assert captions == ["初始界面：", "第 1 步执行后的界面：", "第 2 步执行后的界面：", "第 3 步执行后的界面："]
    assert (images, dropped) == (4, 0)

    bundle = export_bundle(workspace, tmp_path / "bundle.zip")  # the final screen travels with the trajectory
    with new_workspace(tmp_path / "elsewhere") as other:
        import_bundle(other, bundle.path)
        assert load_trajectory(other.database, 1).final_screen == final and other.blobs.exists(final.sha256)


def test_a_run_stopped_by_the_user_keeps_it_until_it_is_resumed(
    workspace: Workspace, device: AndroidDevice, phone: VirtualPhone
) -> None:
    packages, stop = {app.label: package for package, app in phone.apps.items()}, threading.Event()
    with ScriptedEndpoint(seed=0, mistakes={}) as endpoint:
        client = LLMClient(LLMConfig(base_url=endpoint.base_url, model="scripted"))
        run = CollectionRun(
            workspace, device, AgentDecider(client), packages=packages, stop=stop, on_step=lambda event: stop.set()
        )
        result = run.start(task_for(workspace, "settings-device-name"), AGENT)
    assert (result.stop, result.steps) == (StopKind.STOPPED, 1)
    assert load_trajectory(workspace.database, result.trajectory_id).final_screen is not None
    collection.resume_trajectory(workspace.database, result.trajectory_id)  # the run goes on from that screen
    assert load_trajectory(workspace.database, result.trajectory_id).final_screen is None
