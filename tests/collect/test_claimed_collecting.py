"""Two `annotator collect --all-pending` processes on one workspace, each with a phone of its own, on SQLite and on
PostgreSQL: each pending instruction is collected once in all, since each run is claimed in the database first
(storage.claims); a claim left by a process that died is taken over."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
from sqlalchemy import func, select

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.storage import claims, collection, models
from annotator.storage.models_team import WorkClaim
from annotator.storage.owners import Owner
from annotator.storage.workspace import Workspace
from tests.faults.processes import start
from tests.postgres import needs_postgres
from tests.storage.test_run_owners import ended_process

pytestmark = pytest.mark.slow

UIDS = (
    "settings-zen-on",
    "settings-wifi-off",
    "settings-bluetooth-on",
    "settings-dark-mode",
    "settings-font-large",
    "settings-battery-saver",
)


def prepared(data: Path, url: str | None, phones: list[VirtualPhone]) -> list[int]:
    """The pending instructions (their ids), the phones' apps known; the first instruction's run claimed by a
    process that has died since."""
    with Workspace.open(data, url) as workspace:
        db = workspace.database
        for phone in phones:
            collection.save_device(db, phone.serial, {}, app_packages={a.label: p for p, a in phone.apps.items()})
        ids = [collection.add_instruction(db, "设置", instruction_by_uid(uid).text) for uid in UIDS]
        dead = Owner(socket.gethostname(), *ended_process())
        assert claims.take(db, claims.collect_key(ids[0], 1), owner=dead).claim is not None
    return ids


def runs_per_instruction(data: Path, url: str | None) -> dict[int, list[str]]:
    with Workspace.open(data, url) as workspace, workspace.database.session() as session:
        T = models.Trajectory
        rows = session.execute(select(T.instruction_id, T.status).order_by(T.id)).all()
        assert session.scalar(select(func.count()).select_from(models.Step)) > 0
    found: dict[int, list[str]] = {}
    for instruction_id, status in rows:
        found.setdefault(instruction_id, []).append(status)
    return found


def collecting(data: Path, url: str | None, serial: str, port: int, agent_url: str) -> list[str]:
    """`annotator collect` of every pending instruction once, on the phone `serial` (argv after python)."""
    database = ["--db", url] if url else []
    return [
        "-m",
        "annotator",
        "--data-dir",
        str(data),
        *database,
        "collect",
        "--devices",
        serial,
        "--app",
        "设置",
        "--all-pending",
        "--runs",
        "1",
        "--agent-url",
        agent_url,
        "--agent-model",
        "scripted",
        "--port",
        str(port),
    ]


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=needs_postgres)])
def test_two_processes_collect_each_pending_instruction_once(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("postgres_url") if backend == "postgresql" else None
    data = tmp_path / "data"
    phones = [VirtualPhone(serial=f"proc-{number}") for number in (1, 2)]
    ids = prepared(data, url, phones)
    with VirtualAdbServer(phones) as server, ScriptedEndpoint(mistakes={}) as scripted:
        processes = [start(collecting(data, url, phone.serial, server.port, scripted.base_url)) for phone in phones]
        outputs = [process.communicate(timeout=300) for process in processes]
    for process, (stdout, stderr) in zip(processes, outputs, strict=True):
        assert process.returncode == 0 and "Traceback" not in stdout + stderr, stdout + stderr
    assert runs_per_instruction(data, url) == {instruction_id: ["complete"] for instruction_id in ids}
    printed = "".join(stdout for stdout, _ in outputs)
    complete = sum(int(n) for n in re.findall(r"^done: (\d+) runs complete", printed, re.MULTILINE))
    skipped = re.findall(r"^\[proc-\d\] run 1 of “.*”: skipped \((.*)\)$", printed, re.MULTILINE)
    assert complete == len(ids) and len(skipped) == len(ids), printed  # each process did or skipped each run
    # the dead process's claim: both may find it lapsed at once, and the one whose take-over comes second says so
    reasons = r"pid \d+ on .* is on it \(claimed .*\)|it has 1 complete run already|another process took it over first"
    assert all(re.fullmatch(reasons, why) for why in skipped), skipped
    with Workspace.open(data, url) as workspace, workspace.database.session() as session:
        assert session.scalar(select(func.count()).select_from(WorkClaim)) == 0  # all released
