"""The demo workspace: real data for every view of the app (collect, browse, annotate, review, statistics).

`build_demo` fills a folder the way people would: it imports the virtual phone's instruction list, records
trajectories on the virtual phone (the scripted agent with its usual mistakes, and two teleoperated runs),
then labels and reviews part of them. Everything goes through the code a user's own data takes, so what
the demo shows is what the app does. The same seed gives the same trajectories and labels.

The demo always uses an SQLite database inside its folder (never ANNOTATOR_DB_URL), so it cannot mix with a
team's database, and it refuses to touch a folder that already holds trajectories unless told to replace
them; replacing removes only the database and the blobs, nothing else in the folder.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from annotator.demo.workspace.drafts import draft_one_unlabelled
from annotator.demo.workspace.labels import ToLabel, label_all
from annotator.demo.workspace.runs import collect_runs, plan_runs
from annotator.domain.trajectory import ReviewStatus
from annotator.services.instructions import import_phone_instructions
from annotator.storage.database import open_database, sqlite_url
from annotator.storage.trajectories import count_trajectories
from annotator.storage.workspace import BLOBS_FOLDER, DATABASE_FILE, Workspace, default_data_dir

DEMO_FOLDER = "demo"
DATABASE_COMPANIONS = ("-wal", "-shm", "-journal")
LABELLED = (ReviewStatus.ACCEPTED, ReviewStatus.REJECTED, ReviewStatus.ANNOTATED, ReviewStatus.IN_PROGRESS)


class DemoExistsError(FileExistsError):
    """The folder already holds trajectories; nothing was changed."""


@dataclass(frozen=True)
class DemoRun:
    """One trajectory of the demo, as the progress and the summary tell it."""

    trajectory_id: int
    instruction_uid: str
    app: str
    collector: str  # "agent" or "human"
    person: str | None
    status: str  # complete or interrupted
    outcome: str | None  # what the agent (or person) said at the end: success or failure
    task_done: bool  # whether the phone really passed the instruction's check afterwards
    steps: int
    review: str


@dataclass(frozen=True)
class DemoReport:
    data_dir: Path
    trajectories: int
    steps: int
    labelled: int  # trajectories with labels: accepted, rejected, awaiting review or in progress
    accepted: int
    rejected: int
    seconds: float
    runs: tuple[DemoRun, ...] = ()
    drafted: int = 0  # steps of an unlabelled trajectory with a model draft (the scripted endpoint's)


def default_demo_dir() -> Path:
    """`<user data folder>/demo`: a demo never mixes with the user's own workspace."""
    return default_data_dir() / DEMO_FOLDER


def demo_db_url(data_dir: Path) -> str:
    return sqlite_url(Path(data_dir) / DATABASE_FILE)


def stored_trajectories(data_dir: Path) -> int:
    """How many trajectories the folder's database holds (0 without one), read without migrating anything."""
    if not (Path(data_dir) / DATABASE_FILE).is_file():
        return 0
    database = open_database(demo_db_url(data_dir), migrate=False)
    try:
        if database.schema.current is None:
            return 0
        return count_trajectories(database)
    finally:
        database.dispose()


def clear_workspace(data_dir: Path) -> None:
    """Remove the workspace's database (with its SQLite side files) and blobs; leave anything else alone."""
    folder = Path(data_dir)
    for suffix in ("", *DATABASE_COMPANIONS):
        (folder / f"{DATABASE_FILE}{suffix}").unlink(missing_ok=True)
    if (folder / BLOBS_FOLDER).is_dir():
        shutil.rmtree(folder / BLOBS_FOLDER)


def build_demo(
    data_dir: Path,
    *,
    trajectories: int = 12,
    seed: int = 0,
    replace: bool = False,
    progress: Callable[[str], None] | None = None,
) -> DemoReport:
    """Build the demo workspace in `data_dir` with `trajectories` trajectories (two of them teleoperated).

    DemoExistsError, with nothing changed, when the folder already holds trajectories and `replace` is False.
    `progress` gets one line per recorded trajectory.
    """
    if trajectories < 1:
        raise ValueError(f"trajectories: expected at least 1, got {trajectories}")
    started = time.perf_counter()
    folder = Path(data_dir)
    existing = stored_trajectories(folder)
    if existing and not replace:
        raise DemoExistsError(
            f"{folder} already holds a workspace with {existing} trajectories; nothing was changed. "
            "Replace it with --replace (this deletes its database and blobs) or pick another --data-dir."
        )
    if replace:
        clear_workspace(folder)
    with Workspace.open(folder, demo_db_url(folder)) as workspace:
        instruction_ids = import_phone_instructions(workspace.database)
        collected = collect_runs(workspace, plan_runs(trajectories, seed), instruction_ids, seed, progress or _quiet)
        items = [ToLabel(run.result.trajectory_id, run.planned.instruction) for run in collected]
        reviews = label_all(workspace, items, seed)
        drafted = draft_one_unlabelled(workspace, items, reviews)
    runs = tuple(
        DemoRun(
            trajectory_id=run.result.trajectory_id,
            instruction_uid=run.planned.instruction.uid,
            app=run.planned.instruction.app,
            collector="agent" if run.planned.person is None else "human",
            person=run.planned.person,
            status=str(run.result.status),
            outcome=str(run.result.outcome) if run.result.outcome else None,
            task_done=run.task_done,
            steps=run.result.steps,
            review=str(review),
        )
        for run, review in zip(collected, reviews, strict=True)
    )
    return DemoReport(
        data_dir=folder,
        trajectories=len(runs),
        steps=sum(run.steps for run in runs),
        labelled=sum(run.review in LABELLED for run in runs),
        accepted=sum(run.review == ReviewStatus.ACCEPTED for run in runs),
        rejected=sum(run.review == ReviewStatus.REJECTED for run in runs),
        seconds=round(time.perf_counter() - started, 1),
        runs=runs,
        drafted=drafted,
    )


def _quiet(_line: str) -> None:
    pass
