"""SIGKILL in the middle of a write: the app's autosave, a bundle import and a judge run, each in a real process
killed at a point where it is writing. After the restart the database opens, what was committed is all there, and
no half-written blob passes for a stored one. (A collection killed mid-run: tests/cli/test_collect_crash.py.)"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import threading
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from annotator.cli.root import cli
from annotator.domain.trajectory import CollectorKind, Outcome, TrajectoryStatus
from annotator.services.bundle import export_bundle, import_bundle
from annotator.storage import collection, models
from annotator.storage.blobs import CHUNK
from annotator.storage.workspace import DATABASE_FILE, Workspace
from tests.chat_server import ChatServer, Reply, Seen, chat_completion
from tests.factories import add_trajectory, database_snapshot, make_png
from tests.faults.processes import db_check, kill, open_fifo_writer, start, wait_until
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow

# The autosave's save path without a window: LabelSaver hands each edit to Editor.change on its queue.
AUTOSAVE = """
import sys
from annotator.services.annotation import Editor
from annotator.storage.workspace import DATABASE_FILE, Workspace
with Workspace.open(sys.argv[1]) as workspace:
    editor = Editor(workspace, int(sys.argv[2]), "小王")
    for number in range(1_000_000):
        editor.change(int(sys.argv[3]), {"think": f"saved {number}"})
        print(number, flush=True)
"""


def test_an_autosave_killed_while_saving_leaves_the_old_or_the_new_label(populated: Workspace) -> None:
    with populated.database.session() as session:
        step_id = session.scalars(select(models.Step.id).where(models.Step.trajectory_id == 3).limit(1)).one()
    process = start(["-c", AUTOSAVE, str(populated.data_dir), "3", str(step_id)])
    assert process.stdout
    while int(process.stdout.readline() or "-1") < 20:  # saving all the time by now
        assert process.poll() is None, process.communicate()
    kill(process)
    with Workspace.open(populated.data_dir) as reopened, reopened.database.session() as session:
        think = session.get(models.Step, step_id).think
        revisions = session.scalars(
            select(models.LabelRevision.new_value)
            .where(models.LabelRevision.step_id == step_id, models.LabelRevision.field == "think")
            .order_by(models.LabelRevision.id)
        ).all()
    assert think.startswith("saved ")
    # The label and its revision are one transaction: every save, and only whole saves, are recorded.
    assert revisions == [f"saved {number}" for number in range(int(think.removeprefix("saved ")) + 1)]


def big_hierarchy(workspace: Workspace, size: int) -> str:
    """A trajectory whose UI dump is `size` bytes, hashing after every other blob (copied last by an import);
    its sha256."""
    for variant in range(10_000):
        xml = f'<hierarchy rotation="0"><node index="0" text="{variant:05d}{"页" * (size // 3)}"/></hierarchy>'
        if hashlib.sha256(xml.encode()).hexdigest().startswith("f"):
            break
    db = workspace.database
    collector = collection.Collector(CollectorKind.HUMAN)
    trajectory_id = collection.start_trajectory(db, collection.add_instruction(db, "设置", "打开蓝牙"), collector)
    collection.record_step(
        db,
        workspace.blobs,
        trajectory_id,
        collection.Observation(
            make_png(seed=9),
            {"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}},
            hierarchy_xml=xml.encode(),
        ),
    )
    collection.finish_trajectory(db, trajectory_id, TrajectoryStatus.COMPLETE, Outcome.SUCCESS)
    return hashlib.sha256(xml.encode()).hexdigest()


def test_an_import_killed_mid_blob_adds_no_rows_and_its_files_are_not_taken_for_stored(
    populated: Workspace, tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    sha256 = big_hierarchy(populated, 3 * CHUNK)
    bundle = export_bundle(populated, tmp_path / "bundle").path
    blob = bundle / "blobs" / sha256
    content = blob.read_bytes()
    blob.unlink()
    os.mkfifo(blob)  # the import reads it when the test writes it: stopped half-way through this blob
    target = tmp_path / "target"
    with new_workspace(target) as workspace:
        add_trajectory(workspace, "设置", "看看存储空间", 2, seed=7)
        before = database_snapshot(workspace)

    process = start(["-m", "annotator", "--data-dir", str(target), "import", "bundle", str(bundle)])
    writer = open_fifo_writer(blob, process)
    os.write(writer, content[: CHUNK + CHUNK // 2])
    blobs = target / "blobs"
    wait_until(lambda: any(f.stat().st_size >= CHUNK for f in blobs.rglob("*") if f.is_file()), process, "half of it")
    kill(process)
    os.close(writer)

    with Workspace.open(target) as workspace:
        assert database_snapshot(workspace) == before
    found = db_check(target)
    assert found["unreferenced"] >= 1, found  # the whole blobs copied before this one: no row points at them
    assert (found["missing"], found["corrupt"], found["steps_without_files"]) == (0, 0, 0)
    assert found["blob_files"] == found["blob_rows"] + found["unreferenced"]  # the half one is no blob file
    assert not (target / "blobs" / sha256[:2] / sha256[2:]).exists()
    assert db_check(target, fix=True)["removed"] == found["unreferenced"]
    cleaned = db_check(target)
    assert (cleaned["unreferenced"], cleaned["blob_files"]) == (0, found["blob_rows"])

    blob.unlink()
    blob.write_bytes(content)
    with Workspace.open(target) as workspace:
        assert import_bundle(workspace, bundle).trajectories_added == 4
    assert db_check(target)["unreferenced"] == 0


def judge_scores(data: Path) -> dict[int, int | None]:
    with Workspace.open(data) as workspace, workspace.database.session() as session:
        return dict(session.execute(select(models.JudgeScore.trajectory_id, models.JudgeScore.reward)).all())


def feed(fifo: Path, content: bytes, process: subprocess.Popen[str]) -> None:
    """Give the process reading `fifo` the whole of `content` (once it reads)."""
    writer = open_fifo_writer(fifo, process)
    os.write(writer, content)
    os.close(writer)


def test_an_import_killed_inside_its_transaction_leaves_the_database_as_it_was(
    populated: Workspace, tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    bundle = export_bundle(populated, tmp_path / "bundle").path
    first, last = (
        (bundle / "blobs" / min(os.listdir(bundle / "blobs"))),
        (bundle / "blobs" / max(os.listdir(bundle / "blobs"))),
    )
    contents = {fifo: fifo.read_bytes() for fifo in (first, last)}
    for fifo in contents:
        fifo.unlink()
        os.mkfifo(fifo)
    target = tmp_path / "target"
    with new_workspace(target) as workspace:
        add_trajectory(workspace, "设置", "看看存储空间", 2, seed=7)
        before = database_snapshot(workspace)
        stored_first = workspace.blobs.path(first.name)

    process = start(["-m", "annotator", "--data-dir", str(target), "import", "bundle", str(bundle)])
    feed(first, contents[first], process)  # a few blobs are copied at once: the first is stored ...
    writer = open_fifo_writer(last, process)  # ... while the last is being read
    wait_until(stored_first.exists, process, "the first blob stored")
    stored_first.unlink()  # gone before the import's transaction (as a failed import's clean-up removes its files)
    os.write(writer, contents[last])
    os.close(writer)
    writer = open_fifo_writer(first, process)  # the transaction copies it again before any row points at it
    kill(process)
    os.close(writer)

    with Workspace.open(target) as workspace:
        assert database_snapshot(workspace) == before
    assert db_check(target, fix=True)["missing"] == 0
    for fifo, content in contents.items():
        fifo.unlink()
        fifo.write_bytes(content)
    with Workspace.open(target) as workspace:
        assert import_bundle(workspace, bundle).trajectories_added == 3
    found = db_check(target)
    assert (found["unreferenced"], found["missing"], found["corrupt"]) == (0, 0, 0)


def committed_scores(data: Path) -> int:
    """How many scores the judge has committed (read straight from the file: this is polled)."""
    with closing(sqlite3.connect(data / DATABASE_FILE)) as connection:
        return connection.execute("SELECT count(*) FROM judge_scores").fetchone()[0]


def test_a_judge_run_killed_mid_run_keeps_its_scores_and_resumes_without_asking_again(populated: Workspace) -> None:
    data = populated.data_dir
    answered = threading.Semaphore(2)  # two replies, then the judge waits for ever (until it is killed)

    def respond(seen: Seen) -> Reply:
        reply = chat_completion('{"reason": "完成了任务", "reward": 4}')
        return Reply(body=reply) if answered.acquire(blocking=False) else Reply(body=reply, delay_s=600)

    args = ["--data-dir", str(data), "judge", "run", "--model", "judge", "--concurrency", "1", "--json"]
    with ChatServer([], respond=respond) as server:
        process = start(["-m", "annotator", *args, "--base-url", server.base_url])
        wait_until(lambda: len(server.seen) == 3, process, "the third request")
        wait_until(lambda: committed_scores(data) == 2, process, "two scores committed")
        kill(process)
    scored = judge_scores(data)
    assert list(scored.values()) == [4, 4]
    with ChatServer([Reply(body=chat_completion('{"reason": "没有完成", "reward": 1}'))]) as server:
        resumed = CliRunner().invoke(cli, [*args, "--base-url", server.base_url], catch_exceptions=False)
        assert len(server.seen) == 1, resumed.output  # the two scored before the kill are not paid for again
    assert resumed.exit_code == 0, resumed.output
    assert judge_scores(data) == scored | {({1, 2, 3} - set(scored)).pop(): 1}
    found = db_check(data)
    assert (found["missing"], found["corrupt"], found["unreferenced"]) == (0, 0, 0)
