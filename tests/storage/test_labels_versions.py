"""Label versions: every change counts once, a save from an older read is refused with both sides, a locked SQLite
database is waited out (or reported), never turned into a lost edit."""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from annotator.storage import labels, models
from annotator.storage.database import open_database
from annotator.storage.labels import StaleLabelError
from annotator.storage.workspace import Workspace
from annotator.storage.writing import DatabaseBusyError, retrying
from tests.factories import add_trajectory, step_ids

WHO: dict[str, Any] = {"person": "小王", "role": "annotator"}


def stored(workspace: Workspace, step_id: int) -> tuple[str | None, int, int]:
    """The step's think, its label version and how many revisions it has."""
    with workspace.database.session() as session:
        step = session.get(models.Step, step_id)
        assert step is not None
        R = models.LabelRevision
        count = len(session.scalars(select(R.id).where(R.step_id == step_id)).all())
        return step.think, step.label_version, count


@pytest.fixture
def one_step(workspace: Workspace) -> tuple[int, int]:
    trajectory_id = add_trajectory(workspace, "淘宝", "打开淘宝", 2, label=False)
    return trajectory_id, step_ids(workspace)[0]


def test_each_change_raises_the_version_once_and_a_no_op_not_at_all(
    workspace: Workspace, one_step: tuple[int, int]
) -> None:
    trajectory_id, step_id = one_step
    db = workspace.database
    first = labels.write_step_label(db, trajectory_id, step_id, {"think": "一", "verdict": "correct"}, **WHO)
    assert first is not None and first.version == 1  # two fields, one save: one version
    assert labels.write_step_label(db, trajectory_id, step_id, {"think": "一"}, expected_version=1, **WHO) is None
    assert labels.update_label(db, step_id, {"think": "二"}, person="小李") == 1  # no base given: not checked
    assert stored(workspace, step_id) == ("二", 2, 3)
    outcome = labels.write_outcome(db, trajectory_id, "success", expected_version=0, **WHO)
    assert outcome is not None and outcome.version == 1
    assert labels.label_versions(db, trajectory_id) == labels.LabelVersions(1, {step_id: 2, step_ids(workspace)[1]: 0})


def test_a_save_from_an_older_version_is_refused_with_theirs_and_mine(
    workspace: Workspace, one_step: tuple[int, int]
) -> None:
    trajectory_id, step_id = one_step
    db = workspace.database
    labels.write_step_label(db, trajectory_id, step_id, {"think": "他的"}, person="小李", role="reviewer")
    with pytest.raises(StaleLabelError) as refused:
        labels.write_step_label(
            db, trajectory_id, step_id, {"think": "我的", "verdict": "wrong"}, expected_version=0, **WHO
        )
    stale = refused.value
    assert (stale.step_id, stale.my_version, stale.their_version) == (step_id, 0, 1)
    assert stale.mine == {"think": "我的", "verdict": "wrong"} and stale.theirs == {"think": "他的", "verdict": None}
    assert stale.changed_by == "小李" and stale.changed_at is not None
    assert "小李" in str(stale) and "not saved" in str(stale)
    assert stored(workspace, step_id) == ("他的", 1, 1)  # nothing of mine was written
    # Keep mine: saved on top of theirs, with their version as the base.
    labels.write_step_label(db, trajectory_id, step_id, stale.mine, expected_version=stale.their_version, **WHO)
    assert stored(workspace, step_id) == ("我的", 2, 3)


def test_a_stale_outcome_is_refused(workspace: Workspace, one_step: tuple[int, int]) -> None:
    trajectory_id, _ = one_step
    db = workspace.database
    labels.write_outcome(db, trajectory_id, "failure", person="小李", role="annotator")
    with pytest.raises(StaleLabelError) as refused:
        labels.write_outcome(db, trajectory_id, "success", expected_version=0, **WHO)
    assert (refused.value.step_id, refused.value.theirs, refused.value.mine) == (
        None,
        {"outcome": "failure"},
        {"outcome": "success"},
    )
    assert labels.label_versions(db, trajectory_id).outcome == 1


def hold_the_write_lock(path: str, seconds: float) -> threading.Thread:
    """Another connection holds SQLite's write lock for `seconds` (a long writer), then lets go."""
    started = threading.Event()

    def hold() -> None:
        connection = sqlite3.connect(path, timeout=0, isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        started.set()
        threading.Event().wait(seconds)
        connection.execute("ROLLBACK")
        connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    started.wait()
    return thread


@pytest.mark.slow
@pytest.mark.sqlite_only
def test_a_locked_database_is_waited_out_and_the_edit_saved(workspace: Workspace, one_step: tuple[int, int]) -> None:
    """The busy timeout (short here) runs out behind a long writer: the whole transaction is tried again."""
    trajectory_id, step_id = one_step
    path = workspace.database.engine.url.database
    assert path is not None
    impatient = open_database(workspace.database.url, busy_timeout_s=0.02)
    try:
        holder = hold_the_write_lock(path, 0.5)
        change = labels.write_step_label(impatient, trajectory_id, step_id, {"think": "等过了锁"}, **WHO)
        holder.join()
        assert change is not None and stored(workspace, step_id) == ("等过了锁", 1, 1)
        holder = hold_the_write_lock(path, 1.0)  # longer than the patience: reported, nothing half-written

        def write(session: Session) -> object:
            return labels.apply_label_changes(session, session.get_one(models.Step, step_id), {"think": "没存上"}, None)

        with pytest.raises(DatabaseBusyError, match="not saved"):
            retrying(impatient, write, patience_s=0.2)
        holder.join()
        assert stored(workspace, step_id) == ("等过了锁", 1, 1)
    finally:
        impatient.dispose()
