"""An API key from the environment and a password written into the endpoint's URL are used by collection and the
judge, and then found nowhere: not in the database, the blobs, the caches, a bundle or a training export."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select

from annotator.cli.root import cli
from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.domain.trajectory import ReviewStatus
from annotator.storage import labels, models
from annotator.storage.workspace import Workspace
from tests.factories import finish_labelling
from tests.workspaces import NewWorkspace
from trainer_bridge.cli.root import cli as trainer_cli

pytestmark = pytest.mark.slow

KEY_ENV = "ANNOTATOR_SECRET_PROBE_KEY"
KEY = "sk-probe-5f1e9b27c4d8a0"
PASSWORD = "pw-probe-8d3a61"
SECRETS = (KEY.encode(), PASSWORD.encode())


def annotator(data: Path, adb_port: int, *args: str) -> Result:
    environment = {"ANDROID_ADB_SERVER_PORT": str(adb_port), "ANNOTATOR_DATA_DIR": str(data), KEY_ENV: KEY}
    return CliRunner().invoke(cli, list(args), env=environment)


def holding_a_secret(folder: Path) -> list[str]:
    """Every file under `folder` (and every member of a zip there) whose bytes hold the key or the password."""
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        contents = [path.read_bytes()]
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                contents += [archive.read(name) for name in archive.namelist()]
        if any(secret in content for content in contents for secret in SECRETS):
            found.append(str(path.relative_to(folder)))
    return found


def test_no_key_or_url_password_is_stored_exported_or_shown(tmp_path: Path, server: VirtualAdbServer) -> None:
    data = tmp_path / "data"
    with ScriptedEndpoint(mistakes={}) as endpoint:
        url = endpoint.base_url.replace("http://", f"http://annotator:{PASSWORD}@")
        key = ["--api-key-env", KEY_ENV]
        collected = annotator(
            data,
            server.port,
            "collect",
            "--app",
            "设置",
            "--instruction",
            "开启勿扰模式",
            "--agent-url",
            url,
            "--agent-model",
            "scripted",
            *key,
        )
        assert collected.exit_code == 0, collected.output
        judged = annotator(data, server.port, "judge", "run", "--base-url", url, "--model", "scripted", *key)
        assert judged.exit_code == 0, judged.output
    # the endpoint is gone now: the failure's text is stored with the score, and printed
    failed = annotator(data, server.port, "judge", "run", "--base-url", url, "--model", "other", "--retries", "0")
    assert failed.exit_code == 1

    with Workspace.open(data) as workspace:
        (trajectory_id,) = workspace.database.session().scalars(select(models.Trajectory.id)).all()
        finish_labelling(workspace, trajectory_id)
        labels.set_review(workspace.database, trajectory_id, ReviewStatus.ACCEPTED, reviewer="李审核", comment="好")
        with workspace.database.session() as session:
            endpoints = session.scalars(select(models.Trajectory.agent_endpoint)).all()
            judge_urls = session.scalars(select(models.JudgeRun.base_url)).all()
            errors = session.scalars(select(models.JudgeScore.error).where(models.JudgeScore.error.is_not(None))).all()
    assert endpoints == [endpoint.base_url] and set(judge_urls) == {endpoint.base_url}
    assert [error.startswith(f"cannot connect to {endpoint.base_url}") for error in errors] == [True]
    bundle = tmp_path / "out" / "all.zip"
    exported = annotator(data, server.port, "export", "bundle", str(bundle))
    assert exported.exit_code == 0, exported.output
    arguments = ["export", "--stage", "sft", "--format", "jsonl", "--out", str(tmp_path / "out" / "sft")]
    sft = CliRunner().invoke(trainer_cli, [*arguments, "--data-dir", str(data)])
    assert sft.exit_code == 0, sft.output

    printed = collected.output + judged.output + failed.output + exported.output + sft.output
    assert KEY not in printed and PASSWORD not in printed
    assert holding_a_secret(tmp_path) == []


def test_a_url_stored_with_its_password_before_is_exported_without_it(
    tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    with new_workspace(tmp_path / "data") as workspace:
        from tests.factories import add_trajectory

        trajectory_id = add_trajectory(workspace, "设置", "打开蓝牙", 2)
        with workspace.database.session() as session:  # a row an older version wrote
            row = session.get(models.Trajectory, trajectory_id)
            assert row is not None
            row.agent_endpoint = f"http://annotator:{PASSWORD}@10.0.0.5:8000/v1?api_key={KEY}"
            session.commit()
    bundle = tmp_path / "out" / "old.zip"
    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path / "data"), "export", "bundle", str(bundle)])
    assert result.exit_code == 0, result.output
    assert holding_a_secret(tmp_path / "out") == []
    with zipfile.ZipFile(bundle) as archive:
        assert any(b"http://10.0.0.5:8000/v1" in archive.read(name) for name in archive.namelist())
