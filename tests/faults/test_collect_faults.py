"""Collection when what it depends on fails for real: the agent's endpoint hangs (the run gives up after
`--timeout`, not minutes later), or the disk fills while two phones collect (each phone ends with one line saying
what happened and what was kept, then a NOT DONE line; no traceback, and the steps stored stay)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from annotator.cli.root import cli
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.storage import collection, models
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, chat_completion
from tests.faults.processes import annotator, assert_checks_clean
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow

OPEN_SETTINGS = (
    "<think>先打开设置</think><action>打开设置</action><tool_call>"
    '{"name": "mobile_use", "arguments": {"action": "open", "text": "设置"}}</tool_call>'
)
UIDS = ("settings-zen-on", "settings-wifi-off", "settings-bluetooth-on", "settings-dark-mode")
LIMIT = 400 * 1024  # bytes a file of the collecting process may hold: a few runs fit in the database, not four


def test_collect_gives_up_on_a_hung_agent_after_its_timeout(tmp_path: Path) -> None:
    phone = VirtualPhone(serial="hung-1")
    with (
        VirtualAdbServer([phone]) as server,
        ChatServer([Reply(body=chat_completion(OPEN_SETTINGS)), Reply(delay_s=120)]) as agent,
    ):
        began = time.monotonic()
        result = CliRunner().invoke(
            cli,
            [
                "--data-dir",
                str(tmp_path),
                "collect",
                "--app",
                "设置",
                "--instruction",
                "打开蓝牙",
                "--agent-url",
                agent.base_url,
                "--agent-model",
                "m",
                "--timeout",
                "1",
                "--retries",
                "1",
                "--port",
                str(server.port),
            ],
        )
        took = time.monotonic() - began
    assert result.exit_code == 1, result.output
    assert took < 30, f"{took:.0f} s: two tries of 1 s, the phone's steps and a backoff"
    lines = result.output.strip().splitlines()
    assert lines[-1] == "NOT DONE: interrupted: 1 (--resume ID goes on, --close ID closes)", result.output
    reason = f"decider: {agent.base_url} did not answer within 1 s, after 2 tries"
    assert lines[-2].startswith(f"run 1 of “打开蓝牙”: trajectory 1, 1 steps, interrupted ({reason}"), lines[-2]
    with Workspace.open(tmp_path) as workspace, workspace.database.session() as session:
        run = session.get(models.Trajectory, 1)
        assert run is not None and run.status == "interrupted" and run.stop_reason.startswith(reason)
        assert len(run.steps) == 1  # the step before the hang is kept
    assert_checks_clean(tmp_path)


def stored(data: Path) -> dict[str, list[tuple[int, str, int]]]:
    """Each phone's trajectories (id, status, steps), as the next command finds them."""
    with Workspace.open(data) as workspace, workspace.database.session() as session:
        T, S = models.Trajectory, models.Step
        steps = select(func.count()).where(S.trajectory_id == T.id).scalar_subquery()
        rows = session.execute(select(models.Device.serial, T.id, T.status, steps).join(T.device).order_by(T.id))
        found: dict[str, list[tuple[int, str, int]]] = {}
        for serial, trajectory_id, status, count in rows:
            found.setdefault(serial, []).append((trajectory_id, status, count))
    return found


def test_a_disk_filling_while_two_phones_collect_ends_with_a_line_per_phone(
    tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    data, phones = tmp_path / "data", [VirtualPhone(serial=f"full-{number}") for number in (1, 2)]
    with new_workspace(data) as workspace:
        for phone in phones:
            packages = {app.label: package for package, app in phone.apps.items()}
            collection.save_device(workspace.database, phone.serial, {}, app_packages=packages)
        for uid in UIDS:
            collection.add_instruction(workspace.database, "设置", instruction_by_uid(uid).text)
    with VirtualAdbServer(phones) as server, ScriptedEndpoint(mistakes={}) as scripted:
        result = annotator(
            data,
            "collect",
            "--devices",
            "all",
            "--app",
            "设置",
            "--all-pending",
            "--agent-url",
            scripted.base_url,
            "--agent-model",
            "scripted",
            "--port",
            str(server.port),
            file_limit=LIMIT,
        )
    printed = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in printed and "nothing was changed" not in printed, printed
    *_, first, second = result.stdout.strip().splitlines()
    (last,) = result.stderr.strip().splitlines()
    assert last.startswith("NOT DONE: ") and "stopped dealing: could not write " in last, last
    runs = stored(data)
    for line in (first, second):  # what each phone's line says is what is stored
        found = re.fullmatch(
            r"(full-\d): (\d) of \d runs complete, (\d+) steps( kept)?(, interrupted ([\d, ]+))?(.*)", line
        )
        assert found is not None, line
        serial, interrupted = found[1], [int(n) for n in (found[6] or "").split(", ") if n]
        assert int(found[2]) == sum(status == "complete" for _, status, _ in runs[serial]), line
        assert interrupted == [tid for tid, status, _ in runs[serial] if status == "interrupted"], line
        assert int(found[3]) == sum(steps for _, _, steps in runs[serial]), line
        assert all(str(tid) in last for tid in interrupted)
    assert "; stopped: could not write " in first + second  # what happened, on the phone that met it
    assert {status for phone in runs.values() for _, status, _ in phone} == {"complete", "interrupted"}
    assert_checks_clean(data)
