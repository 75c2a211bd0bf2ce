"""`annotator devices`, `annotator instructions import` and `annotator collect` as a new user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select

from annotator.cli.root import cli
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.storage import models
from annotator.storage.workspace import Workspace

pytestmark = pytest.mark.slow


@pytest.fixture
def adb_port(server: VirtualAdbServer) -> int:
    return server.port


def annotator(data: Path, port: int, *args: str, stdin: str | None = None) -> Result:
    environment = {"ANDROID_ADB_SERVER_PORT": str(port), "ANNOTATOR_DATA_DIR": str(data)}
    return CliRunner().invoke(cli, list(args), env=environment, input=stdin, catch_exceptions=False)


def test_devices_lists_the_virtual_phone(tmp_path: Path, adb_port: int) -> None:
    result = annotator(tmp_path, adb_port, "devices", "--json")
    assert result.exit_code == 0, result.output
    (phone,) = json.loads(result.output)
    assert phone["serial"] == "virtual-1" and (phone["width"], phone["height"], phone["density"]) == (1080, 2400, 440)
    assert "Android 14" in annotator(tmp_path, adb_port, "devices").output


def test_collect_with_the_scripted_agent_then_stats(tmp_path: Path, adb_port: int, phone: VirtualPhone) -> None:
    listing = tmp_path / "virtual.json"
    listing.write_text(annotator(tmp_path, adb_port, "virtual-phone", "instructions").output, encoding="utf-8")
    assert "Imported 43" in annotator(tmp_path, adb_port, "instructions", "import", str(listing)).output
    rows = json.loads(annotator(tmp_path, adb_port, "instructions", "list", "--app", "设置", "--json").output)
    wanted = next(row for row in rows if row["text"] == "开启勿扰模式")
    with ScriptedEndpoint(mistakes={}) as endpoint:
        result = annotator(
            tmp_path,
            adb_port,
            "collect",
            "--app",
            "设置",
            "--instruction-id",
            str(wanted["id"]),
            "--agent-url",
            endpoint.base_url,
            "--agent-model",
            "scripted",
        )
    assert result.exit_code == 0, result.output
    assert "complete, success (terminate)" in result.output and "step  3  terminate success" in result.output
    assert phone.settings["global"]["zen_mode"] == "1"
    stats = json.loads(annotator(tmp_path, adb_port, "stats", "--every-row", "--json").output)
    assert stats["trajectories"] == 1 and stats["steps"] == 4 and stats["steps_per_action"]["open"] == 1


def test_collect_with_decomposed_grounding_records_each_refinement(tmp_path: Path, adb_port: int) -> None:
    with ScriptedEndpoint(mistakes={}) as endpoint:
        result = annotator(
            tmp_path,
            adb_port,
            "collect",
            "--app",
            "设置",
            "--instruction",
            "开启勿扰模式",
            "--agent-url",
            endpoint.base_url,
            "--agent-model",
            "scripted",
            "--decomposed-grounding",
        )
    assert result.exit_code == 0, result.output
    with Workspace.open(tmp_path) as workspace, workspace.database.session() as session:
        settings = session.scalars(select(models.Trajectory.settings)).one()
        steps = session.execute(select(models.Step.raw_action, models.Step.usage)).all()
    assert settings["decomposed_grounding"] is True
    clicks = [usage for action, usage in steps if action == "click"]
    assert clicks and all("decomposed_grounding" in (usage or {}) for usage in clicks)
    teleop = annotator(tmp_path, adb_port, "collect", "--app", "设置", "--all-pending", "--decomposed-grounding")
    assert teleop.exit_code == 1 and "give --agent-url" in teleop.output


def test_collect_by_teleoperation_from_typed_commands(tmp_path: Path, adb_port: int, phone: VirtualPhone) -> None:
    table = annotator(tmp_path, adb_port, "devices", "apps", "virtual-1", "设置=com.android.settings")
    assert "设置\tcom.android.settings" in table.output
    commands = "open 设置\nclick 99999 5\nopen 微信\nswipe 540 1800 540 600\nfail\n"
    result = annotator(
        tmp_path,
        adb_port,
        "collect",
        "--app",
        "设置",
        "--instruction",
        "看看存储空间",
        "--person",
        "小王",
        stdin=commands,
    )
    assert result.exit_code == 0, result.output
    assert "is outside the 1080x2400 screen" in result.output
    assert "! no app called '微信' is known" in result.output
    assert "4 steps, complete, failure (terminate)" in result.output
    assert phone.current_activity()[0] == "com.android.settings"


def test_collect_explains_what_is_missing(tmp_path: Path, adb_port: int) -> None:
    no_task = annotator(tmp_path, adb_port, "collect", "--app", "设置")
    assert no_task.exit_code == 1 and "--instruction TEXT, --instruction-id N or --all-pending" in no_task.output
    wrong_phone = annotator(tmp_path, adb_port, "collect", "--device", "pixel-7", "--app", "设置", "--all-pending")
    assert wrong_phone.exit_code == 1 and "'pixel-7' is not connected; connected: virtual-1" in wrong_phone.output
    no_model = annotator(tmp_path, adb_port, "collect", "--app", "设置", "--agent-url", "http://127.0.0.1:9/v1")
    assert no_model.exit_code == 1 and "--agent-url needs --agent-model" in no_model.output
    many_hands = annotator(tmp_path, adb_port, "collect", "--devices", "all", "--app", "设置", "--all-pending")
    assert many_hands.exit_code == 1 and "teleoperation drives one phone" in many_hands.output
    absent = [
        "collect",
        "--devices",
        "virtual-1,pixel-7",
        "--app",
        "设置",
        "--all-pending",
        "--agent-url",
        "http://x/v1",
    ]
    absent_phone = annotator(tmp_path, adb_port, *absent, "--agent-model", "m")
    assert absent_phone.exit_code == 1
    assert "not connected or not usable: pixel-7; connected: virtual-1" in absent_phone.output
