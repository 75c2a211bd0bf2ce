"""Blob files a failed write leaves are removed, except those a row needs; `annotator db check` finds what disagrees."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.services.bundle import export_bundle, import_bundle
from annotator.storage import integrity
from annotator.storage.collection import PNG, store_blob
from annotator.storage.workspace import Workspace
from tests.factories import make_png
from tests.postgres import database_url
from tests.workspaces import NewWorkspace


def db(workspace: Workspace, *args: str):  # type: ignore[no-untyped-def]
    where = ["--data-dir", str(workspace.data_dir), "--db", database_url(workspace)]
    return CliRunner().invoke(cli, [*where, "db", *args], catch_exceptions=False)


def test_a_failed_writes_files_go_unless_a_row_points_at_them_by_now(workspace: Workspace) -> None:
    needed, orphan = make_png(seed=1), make_png(seed=2)
    written = {workspace.blobs.put_bytes(needed).sha256, workspace.blobs.put_bytes(orphan).sha256}
    with workspace.database.session() as session, session.begin():  # another writer stored the same screenshot
        kept = store_blob(session, workspace.blobs, needed, PNG)
    assert integrity.remove_written_blobs(workspace.database, workspace.blobs, written) == 1
    assert list(workspace.blobs.all_hashes()) == [kept]


def test_an_import_copies_again_what_a_clean_up_removed_while_it_ran(
    populated: Workspace, tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    bundle = export_bundle(populated, tmp_path / "bundle").path
    with new_workspace(tmp_path / "target") as target:

        def clean_up_when_copied(done: int, total: int) -> None:
            if done == total:  # every blob copied, no row yet: a `db check --fix` now removes them all
                assert integrity.check(target.database, target.blobs, fix=True).removed == total

        result = import_bundle(target, bundle, progress=clean_up_when_copied)
        report = integrity.check(target.database, target.blobs)
    assert result.trajectories_added == 3 and report.remaining_problems() == 0 and report.blob_files == 8


def test_db_check_reports_then_fix_removes_only_unreferenced_files_and_old_leftovers(populated: Workspace) -> None:
    blobs = populated.blobs
    orphan = blobs.put_bytes(b"written by an import that died").sha256
    # the first two screenshots of the first trajectory (tests.factories: seed 1, steps 0 and 1)
    missing, corrupt = (hashlib.sha256(make_png(seed=100 + index)).hexdigest() for index in range(2))
    blobs.path(missing).unlink()
    blobs.path(corrupt).write_bytes(b"bit rot")
    (blobs.root / "tmp").mkdir(exist_ok=True)
    old, fresh = blobs.root / "tmp" / "incoming-old", blobs.root / "tmp" / "incoming-now"
    old.write_bytes(b"half"), fresh.write_bytes(b"being written")
    os.utime(old, (time.time() - 2 * integrity.TEMPORARY_GRACE_S,) * 2)

    found = db(populated, "check", "--json")
    assert found.exit_code == 1
    report = json.loads(found.output)
    assert (report["unreferenced"], report["missing"], report["corrupt"], report["temporaries"]) == (1, 1, 1, 1)
    assert report["unreferenced_examples"] == [orphan] and report["missing_examples"] == [missing]
    assert report["steps_without_files"] == 2

    fixed = db(populated, "check", "--fix")
    assert fixed.exit_code == 1 and "Removed 2 files." in fixed.output  # the rows without files remain
    assert not blobs.exists(orphan) and not old.exists() and fresh.exists()
    assert blobs.path(corrupt).read_bytes() == b"bit rot"  # --fix removes nothing a row points at
    again = json.loads(db(populated, "check", "--json").output)
    assert (again["unreferenced"], again["temporaries"], again["missing"], again["corrupt"]) == (0, 0, 1, 1)


def test_a_healthy_workspace_checks_clean(populated: Workspace) -> None:
    result = db(populated, "check")
    assert result.exit_code == 0 and result.output.startswith("8 blob files, 8 blob rows")
