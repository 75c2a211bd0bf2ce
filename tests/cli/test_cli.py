import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.storage.database import head_revision
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from tests.workspaces import NewWorkspace


def all_command_paths(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths, context = [prefix], click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if isinstance(command, click.Group):
            paths += all_command_paths(command, (*prefix, name))
        else:
            paths.append((*prefix, name))
    return paths


@pytest.mark.parametrize("path", all_command_paths(cli), ids=lambda p: " ".join(p) or "annotator")
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"], prog_name="annotator")
    assert result.exit_code == 0, result.output
    assert "Usage: annotator" in result.output
    assert len(result.output.splitlines()) > 3


def run(data_dir: Path, *args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], catch_exceptions=False)


@pytest.mark.slow
def test_stats_json_has_the_documented_keys(populated: Workspace) -> None:
    result = run(populated.data_dir, "stats", "--every-row", "--json")
    assert result.exit_code == 0
    stats = json.loads(result.output)
    assert {"apps", "instructions", "trajectories", "steps", "steps_per_action", "steps_per_app"} <= set(stats)
    assert (stats["apps"], stats["instructions"], stats["trajectories"], stats["steps"]) == (2, 3, 3, 7)
    assert stats["steps_per_action"] == {"click": 4, "terminate": 3}
    assert stats["steps_per_app"] == {"抖音": 2, "淘宝": 5}
    assert stats["counting"] == "rows"


def test_stats_count_as_mobile_r1_table_2_by_default(populated: Workspace) -> None:
    """The two accepted trajectories (淘宝 3 steps, 抖音 2) and their annotated steps; not the unlabelled one."""
    stats = json.loads(run(populated.data_dir, "stats", "--json").output)
    assert (stats["apps"], stats["instructions"], stats["trajectories"], stats["steps"]) == (2, 2, 2, 5)
    assert stats["counting"] == "mobile-r1" and stats["counted"].startswith("as Mobile-R1 Table 2")
    assert stats["steps_per_action"] == {"click": 3, "terminate": 2}
    text = run(populated.data_dir, "stats").output
    assert text.startswith("Counted as Mobile-R1 Table 2: accepted trajectories") and "--every-row" in text


@pytest.mark.slow
def test_stats_table_is_readable(populated: Workspace) -> None:
    output = run(populated.data_dir, "stats", "--every-row").output
    assert "trajectories: 3" in output
    assert "淘宝" in output and "click" in output


def test_db_info_counts_what_stats_counts(populated: Workspace) -> None:
    info = json.loads(run(populated.data_dir, "db", "info", "--json").output)
    stats = json.loads(run(populated.data_dir, "stats", "--every-row", "--json").output)
    totals = ("apps", "instructions", "trajectories", "steps")
    assert {key: info[key] for key in totals} == {key: stats[key] for key in totals}
    assert info["trajectories"] == 3 and info["steps"] > 0


def test_db_info_before_and_after_upgrade(tmp_path: Path) -> None:
    info = json.loads(run(tmp_path, "db", "info", "--json").output)
    assert info["schema_version"] is None and info["upgrade_needed"] is True
    assert f"Upgraded the schema from empty to {head_revision()}" in run(tmp_path, "db", "upgrade").output
    assert "up to date" in run(tmp_path, "db", "upgrade").output
    info = json.loads(run(tmp_path, "db", "info", "--json").output)
    assert info["schema_version"] == info["schema_head"] and info["steps"] == 0
    assert info["database"] == f"sqlite:///{tmp_path / 'annotator.sqlite'}"


@pytest.mark.slow
def test_export_then_import_through_the_cli(populated: Workspace, tmp_path: Path) -> None:
    bundle = tmp_path / "out.zip"
    exported = run(populated.data_dir, "export", "bundle", str(bundle), "--app", "淘宝")
    assert exported.exit_code == 0 and "Wrote 2 trajectories (5 steps" in exported.output
    imported = run(tmp_path / "other", "import", "bundle", str(bundle))
    assert "Imported 2 trajectories (5 steps" in imported.output
    again = run(tmp_path / "other", "import", "bundle", str(bundle))
    assert "Imported 0 trajectories" in again.output and "2 were already here" in again.output


def test_a_bad_bundle_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 this is not really a zip")
    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path / "d"), "import", "bundle", str(broken)])
    assert result.exit_code == 1
    assert "Error: " in result.output and "not a readable zip" in result.output
    assert "Traceback" not in result.output


def test_a_newer_database_is_refused_with_a_message(tmp_path: Path, new_workspace: NewWorkspace) -> None:
    with new_workspace(tmp_path) as workspace:
        add_trajectory(workspace, "淘宝", "打开淘宝", 1)
        with workspace.database.engine.begin() as connection:
            connection.exec_driver_sql("UPDATE alembic_version SET version_num = 'abc_future'")
    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path), "stats"])
    assert result.exit_code == 1 and "newer version" in result.output


@pytest.mark.slow
def test_data_dir_and_database_come_from_the_environment(tmp_path: Path) -> None:
    environment = {**os.environ, "ANNOTATOR_DATA_DIR": str(tmp_path / "from-env")}
    completed = subprocess.run(
        [sys.executable, "-m", "annotator", "db", "info", "--json"],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    info = json.loads(completed.stdout)
    assert info["data_dir"] == str(tmp_path / "from-env")
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite'}"
    completed = subprocess.run(
        [sys.executable, "-m", "annotator", "db", "info", "--json"],
        env={**environment, "ANNOTATOR_DB_URL": url},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert json.loads(completed.stdout)["database"] == url
