"""Two annotators in two real processes on one workspace at once, on SQLite and on PostgreSQL: edits of different
steps of one trajectory all land, each counted once in the versions and the history; two saves of the same step
from the same base: exactly one lands, the other is refused as stale with theirs, and nothing is lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from annotator.storage import models
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from tests.faults.processes import start
from tests.postgres import needs_postgres
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow

EDITS = 8  # saves of each of an annotator's own steps
PEOPLE = {"小王": [0, 1], "小李": [2, 3]}  # each annotator's own steps (places in the trajectory); the last is shared


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=needs_postgres)])
def team(request: pytest.FixtureRequest, tmp_path: Path, new_workspace: NewWorkspace) -> Workspace:
    if request.param == "postgresql":
        workspace = Workspace.open(tmp_path / "data", request.getfixturevalue("emptied_postgres_url"))
    else:
        workspace = new_workspace(tmp_path / "data")
    request.addfinalizer(workspace.close)
    return workspace


def history(workspace: Workspace, step_id: int) -> list[tuple[str, object, int]]:
    """The step's revisions in order: (who, new value, the step's version), and its version."""
    R = models.LabelRevision
    with workspace.database.session() as session:
        rows = session.execute(
            select(models.Person.name, R.new_value).join(R.person).where(R.step_id == step_id).order_by(R.id)
        )
        version = session.get_one(models.Step, step_id).label_version
        return [(name, value, version) for name, value in rows]


def test_two_annotators_at_once_lose_nothing(team: Workspace, tmp_path: Path) -> None:
    trajectory_id = add_trajectory(team, "淘宝", "打开淘宝，搜索 iPhone", 5, label=False)
    steps = [step.id for step in team_steps(team, trajectory_id)]
    shared, meeting = steps[-1], tmp_path / "meeting"
    meeting.mkdir()
    url = team.database.engine.url.render_as_string(hide_password=False)
    processes = {
        person: start(
            [
                "-m",
                "tests.faults.annotate_at_once",
                str(team.data_dir),
                url,
                str(trajectory_id),
                person,
                str(EDITS),
                ",".join(str(steps[i]) for i in places),
                str(shared),
                str(meeting),
            ]
        )
        for person, places in PEOPLE.items()
    }
    reports = {}
    for person, process in processes.items():
        stdout, stderr = process.communicate(timeout=120)
        assert process.returncode == 0, stderr
        reports[person] = json.loads(stdout)
    for person, places in PEOPLE.items():
        assert reports[person]["saved"] == EDITS * len(places)
        for place in places:  # every save landed, in order, counted once
            expected = [(person, f"{person} {n}", EDITS) for n in range(EDITS)]
            assert history(team, steps[place]) == expected
    fates = {person: report["shared"] for person, report in reports.items()}
    assert sorted(fates.values()) == ["saved", "stale"]
    winner = next(person for person, fate in fates.items() if fate == "saved")
    loser = next(person for person in PEOPLE if person != winner)
    assert history(team, shared) == [(winner, f"{winner} 的想法", 1)]  # one version: the winner's, not overwritten
    assert reports[loser]["theirs"] == {"think": f"{winner} 的想法"}  # the refused one was told, with both sides
    assert reports[loser]["mine"] == {"think": f"{loser} 的想法"}


def team_steps(workspace: Workspace, trajectory_id: int) -> list[models.Step]:
    with workspace.database.session() as session:
        query = select(models.Step).where(models.Step.trajectory_id == trajectory_id).order_by(models.Step.index)
        return list(session.scalars(query))
