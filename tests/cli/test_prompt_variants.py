"""Both Mobile-R1 prompt variants end to end: collect with an agent behind a loopback endpoint, export, read the
manifest; the exported prompt is the text the agent was asked with. The papers' variants are for exports and
evaluations only: collecting with one is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.scripted_agent import ScriptedAgent
from annotator.domain.prompts import MOBILE_R1_VARIANTS, PROMPT_VARIANTS
from annotator.storage.labels import write_step_label
from annotator.storage.selection import TrajectorySelection, selected_ids
from annotator.storage.trajectories import load_trajectories
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, Seen, chat_completion
from trainer_bridge.cli.root import cli as bridge

pytestmark = pytest.mark.slow
ACTION_NAMES = ('"click"', '"long_press"', '"swipe"', '"system_button"', '"terminate"', '"coordinate2"')


def accept_the_agents_drafts(data: Path) -> None:
    """An annotator keeps every step as the agent wrote it (so that the export has labelled steps)."""
    with Workspace.open(data) as workspace:
        db = workspace.database
        for trajectory in load_trajectories(db, selected_ids(db, TrajectorySelection())):
            for step in trajectory.steps:
                values = {
                    "think": step.original.think,
                    "action_text": step.original.action_text,
                    "tool_call": step.original.tool_call,
                    "verdict": "correct",
                }
                write_step_label(db, trajectory.id or 0, step.id or 0, values, person="小王", role="annotator")


def system_text(messages: list[dict]) -> str:
    return next(message["content"] for message in messages if message["role"] == "system")


@pytest.mark.parametrize("variant", MOBILE_R1_VARIANTS)
def test_a_variant_is_collected_exported_and_named_in_the_manifest(
    tmp_path: Path, server: VirtualAdbServer, phone: object, variant: str
) -> None:
    agent, asked = ScriptedAgent(seed=0, mistakes={}), []

    def respond(seen: Seen) -> Reply:
        asked.append(system_text(seen.body["messages"]))
        return Reply(body=chat_completion(agent.reply(seen.body["messages"])))

    environment = {"ANDROID_ADB_SERVER_PORT": str(server.port), "ANNOTATOR_DATA_DIR": str(tmp_path / "data")}
    run = CliRunner(env=environment).invoke
    with ChatServer([], respond=respond) as endpoint:
        collected = run(
            cli,
            [
                "collect",
                "--app",
                "设置",
                "--instruction",
                "开启勿扰模式",
                "--agent-url",
                endpoint.base_url,
                "--agent-model",
                "scripted",
                "--prompt-variant",
                variant,
            ],
        )
    assert collected.exit_code == 0, collected.output
    assert asked and len(set(asked)) == 1  # one system prompt for the whole run
    declares_actions = all(name in asked[0] for name in ACTION_NAMES)
    assert declares_actions == (variant == "qwen2.5-vl")
    accept_the_agents_drafts(tmp_path / "data")
    out = tmp_path / "export"
    exported = run(
        bridge,
        [
            "export",
            "--stage",
            "sft",
            "--format",
            "jsonl",
            "--out",
            str(out),
            "--review",
            "in_progress",
            "--prompt-variant",
            variant,
            "--image-scale",
            "1",
        ],
    )
    assert exported.exit_code == 0, exported.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["prompt_variant"] == variant == manifest["options"]["prompt_variant"]
    first = json.loads((out / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert system_text(first["messages"]) == asked[0]  # at the size the agent saw (a halved export names its own)


@pytest.mark.parametrize("variant", sorted(set(PROMPT_VARIANTS) - set(MOBILE_R1_VARIANTS)))
def test_collecting_with_a_papers_variant_is_refused(tmp_path: Path, variant: str) -> None:
    result = CliRunner(env={"ANNOTATOR_DATA_DIR": str(tmp_path / "data")}).invoke(
        cli,
        [
            "collect",
            "--app",
            "设置",
            "--instruction",
            "开启勿扰模式",
            "--agent-url",
            "http://127.0.0.1:9/v1",
            "--agent-model",
            "m",
            "--prompt-variant",
            variant,
        ],
    )
    assert result.exit_code == 2 and f"'{variant}' is not one of" in result.output
