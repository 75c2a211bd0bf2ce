"""Two processes writing the same content at the same moment: both succeed, and it is stored once."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from sqlalchemy import func, select

from annotator.services.bundle import export_bundle
from annotator.storage import models
from annotator.storage.workspace import Workspace
from tests.together import at_once
from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow  # two processes that each import the app before the race


def count(workspace: Workspace, model: type[models.Base]) -> int:
    with workspace.database.session() as session:
        return session.scalar(select(func.count()).select_from(model)) or 0


def test_two_imports_of_one_bundle_at_once_both_succeed_and_add_it_once(
    populated: Workspace, backend: str, tmp_path: Path, request: pytest.FixtureRequest, new_workspace: NewWorkspace
) -> None:
    bundle = export_bundle(populated, tmp_path / "bundle.zip")
    target, target_url = tmp_path / "target", request.getfixturevalue("postgres_url") if backend != "sqlite" else None
    # created and migrated before the race
    (new_workspace(target) if target_url is None else Workspace.open(target, target_url)).close()
    results = at_once(target, "import", "bundle", str(bundle.path), db_url=target_url)
    assert [result.returncode for result in results] == [0, 0], [result.stdout for result in results]
    added = sorted(int(result.stdout.split("Imported ")[1].split()[0]) for result in results)
    assert added == [0, bundle.trajectories]  # one of them found the other's trajectories there
    with Workspace.open(target, target_url) as workspace:
        assert count(workspace, models.Trajectory) == bundle.trajectories
        assert count(workspace, models.Step) == bundle.steps
        assert count(workspace, models.Blob) == bundle.blobs == len(list(workspace.blobs.all_hashes()))


def test_two_instruction_imports_of_one_list_at_once_add_each_instruction_once(
    tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    listing = tmp_path / "instructions.csv"
    with listing.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["app", "text"])
        writer.writerows([["优选商城" if n % 2 else "设置", f"任务 {n}：打开第 {n} 个页面"] for n in range(2000)])
    data = tmp_path / "data"
    new_workspace(data).close()
    results = at_once(data, "instructions", "import", str(listing))
    assert [result.returncode for result in results] == [0, 0], [result.stdout for result in results]
    with Workspace.open(data) as workspace:
        assert count(workspace, models.Instruction) == 2000
        assert count(workspace, models.App) == 2
    assert sum(int(result.stdout.split("Imported ")[1].split()[0]) for result in results) == 2000
