"""`trainer-bridge eval` as a user runs it: against the scripted endpoint on a workspace of accepted virtual-phone
trajectories, with --json, the reports, list / show / compare, a training export's manifest, and a run killed
with SIGKILL that the same command finishes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.storage import evaluations
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, chat_completion
from tests.evaluate.test_offline import A_CLICK, TASKS, accepted
from tests.evaluate.test_online import import_instructions
from trainer_bridge.cli.root import cli

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
HEADLINE = ("step_accuracy", "task_success", "type_match", "exact_match", "grounding_accuracy", "step_success_rate")


@pytest.fixture
def held_out(workspace: Workspace) -> Workspace:
    for uid in TASKS:
        accepted(workspace, uid)
    return workspace


def bridge(workspace: Workspace, *args: str) -> Result:
    return CliRunner().invoke(cli, [*args, "--data-dir", str(workspace.data_dir)])


def last_json(result: Result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.output.strip().splitlines()[-1])


def test_eval_json_gives_the_summary_and_writes_the_reports(held_out: Workspace) -> None:
    with ScriptedEndpoint(mistakes={}) as endpoint:
        found = last_json(bridge(held_out, "eval", "--base-url", endpoint.base_url, "--model", "scripted", "--json"))
    summary = found["summary"]
    assert all(0 <= summary[name] <= 1 for name in HEADLINE) and summary["step_accuracy"] == 1.0
    assert set(summary["per_app"]) == {"优选商城", "趣看视频"} and found["status"] == "complete"
    json_report, html_report = (Path(path) for path in found["report"])
    assert html_report.is_file() and html_report.parent == held_out.data_dir / "reports"
    assert json.loads(json_report.read_text(encoding="utf-8"))["summary"]["steps"] == summary["steps"]
    listed = bridge(held_out, "eval", "list")
    assert f"{found['evaluation_id']:>4}  offline  complete" in listed.output and "scripted" in listed.output
    shown = bridge(held_out, "eval", "show", str(found["evaluation_id"]))
    assert "step accuracy (Acc.)" in shown.output and "100.0%" in shown.output and "优选商城" in shown.output


def test_two_evaluations_compared_name_the_steps_that_changed(held_out: Workspace, tmp_path: Path) -> None:
    with ScriptedEndpoint(mistakes={}) as good, ScriptedEndpoint(seed=3, mistakes={"wrong_element": 0.6}) as bad:
        first = last_json(bridge(held_out, "eval", "--base-url", good.base_url, "--model", "scripted", "--json"))
        second = last_json(
            bridge(held_out, "eval", "--base-url", bad.base_url, "--model", "scripted", "--name", "mistaken", "--json")
        )
    assert second["evaluation_id"] != first["evaluation_id"]  # another name: another evaluation
    ids = [str(first["evaluation_id"]), str(second["evaluation_id"])]
    compared = last_json(bridge(held_out, "eval", "compare", *ids, "--json", "--out", str(tmp_path)))
    assert compared  # the report module's JSON
    printed = bridge(held_out, "eval", "compare", *ids)
    assert "Right only in the first:" in printed.output and "step accuracy (Acc.)" in printed.output
    assert (tmp_path / f"compare-{ids[0]}-{ids[1]}.html").is_file()
    broken = printed.output.split("Right only in the first: ")[1].split("\n")[0]
    assert int(broken) >= 1


def test_the_training_exports_manifest_says_how_to_ask(held_out: Workspace, tmp_path: Path) -> None:
    export = tmp_path / "export"
    made = bridge(
        held_out,
        "export",
        "--stage",
        "grpo-action",
        "--format",
        "jsonl",
        "--out",
        str(export),
        "--image-scale",
        "1",
        "--history-images",
        "1",
        "--holdout-app",
        "趣看视频",
        "--split",
        "train=0.9,test=0.1",
        "--instruction-level",
        "action",
    )
    assert made.exit_code == 0, made.output
    with ChatServer([Reply(body=chat_completion(A_CLICK))]) as server:
        found = last_json(
            bridge(held_out, "eval", "--base-url", server.base_url, "--model", "m", "--export", str(export), "--json")
        )
        first_request = server.seen[0].body["messages"]
    info = evaluations.get_evaluation(held_out.database, found["evaluation_id"])
    assert info.settings["image_scale"] == 1 and info.settings["history_images"] == 1
    assert info.settings["levels"] == ["action"]  # asked with the step's action text, as the rows were written
    assert (
        sum(
            part.get("type") == "image_url"
            for m in first_request
            for part in m["content"]
            if isinstance(m["content"], list)
        )
        == 1
    )
    assert set(found["summary"]["per_split"]) == {"seen", "unseen"}
    assert found["summary"]["per_split"]["unseen"]["steps"] > 0  # the held-out app was not trained on


def test_usage_errors_say_what_to_give(held_out: Workspace, tmp_path: Path) -> None:
    missing = bridge(held_out, "eval")
    assert missing.exit_code == 2 and "--base-url URL --model NAME" in missing.output
    no_manifest = bridge(
        held_out, "eval", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--export", str(tmp_path)
    )
    assert no_manifest.exit_code == 2 and "manifest.json" in no_manifest.output
    unknown = bridge(held_out, "eval", "show", "99")
    assert unknown.exit_code == 1 and "no evaluation 99" in unknown.output


def test_an_evaluation_killed_mid_run_is_finished_by_the_same_command(held_out: Workspace) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANNOTATOR_")}
    with ChatServer([Reply(body=chat_completion(A_CLICK), delay_s=0.3)]) as server:
        command = [
            sys.executable,
            "-c",
            "from trainer_bridge.cli.root import main; main()",
            "eval",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            "--concurrency",
            "1",
            "--data-dir",
            str(held_out.data_dir),
        ]
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
            e.status == "running" and evaluations.prediction_counts(held_out.database, e.id)["answered"] >= 2
            for e in evaluations.list_evaluations(held_out.database)
        ):
            time.sleep(0.1)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        killed = evaluations.list_evaluations(held_out.database)[0]
        assert killed.status == "running"  # nobody could say otherwise yet
        asked_before = len(server.seen)
        finished = last_json(bridge(held_out, "eval", "--base-url", server.base_url, "--model", "m", "--json"))
    assert finished["evaluation_id"] == killed.id and finished["resumed"] and finished["status"] == "complete"
    assert finished["skipped"] >= 2
    assert len(server.seen) - asked_before == finished["requested"] - finished["skipped"]


def test_decomposed_grounding_is_another_evaluation_and_records_what_it_did(held_out: Workspace) -> None:
    with ScriptedEndpoint(mistakes={}) as endpoint:
        plain = last_json(bridge(held_out, "eval", "--base-url", endpoint.base_url, "--model", "scripted", "--json"))
        refined = last_json(
            bridge(held_out, "eval", "--base-url", endpoint.base_url, "--model", "scripted", "--decomposed", "--json")
        )
    assert refined["evaluation_id"] != plain["evaluation_id"] and refined["summary"]["step_accuracy"] == 1.0
    stored = evaluations.predictions(held_out.database, refined["evaluation_id"])
    notes = [p.record.usage["decomposed_grounding"] for p in stored if "decomposed_grounding" in (p.record.usage or {})]
    assert notes  # each click's point says what decomposed grounding did with it
    assert not any("no screenshot" in json.dumps(note, ensure_ascii=False) for note in notes)  # the runner sent it
    info = evaluations.get_evaluation(held_out.database, refined["evaluation_id"])
    assert "decomposed_grounding" in info.policy


def test_eval_online_on_two_phones_prints_a_line_per_rollout_and_the_summary(workspace: Workspace) -> None:
    import_instructions(workspace, ("settings-wifi-off", "video-like-first"))
    phones = [VirtualPhone(serial=f"virtual-{number}") for number in (1, 2)]
    with VirtualAdbServer(phones) as server, ScriptedEndpoint(mistakes={}) as endpoint:
        result = CliRunner().invoke(
            cli,
            [
                "eval",
                "--online",
                "--base-url",
                endpoint.base_url,
                "--model",
                "scripted",
                "--app",
                "设置",
                "--app",
                "趣看视频",
                "--adb-port",
                str(server.port),
                "--json",
                "--data-dir",
                str(workspace.data_dir),
            ],
        )
    found = last_json(result)
    assert found["kind"] == "online" and found["status"] == "complete" and found["requested"] == 2
    assert found["summary"]["claimed_and_done"] == found["summary"]["tail_success"] == 1.0
    assert found["summary"]["checked_by"]["phone"] == 2
    assert result.output.count("claimed success, done (checked by phone)") == 2  # a line per rollout
    assert "tail success" in result.output and Path(found["report"][1]).is_file()
