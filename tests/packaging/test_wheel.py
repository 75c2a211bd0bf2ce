"""A wheel, not only a checkout, must carry the resources and migrations and run the CLI."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from annotator.storage.database import head_revision

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = out.glob("mobile_annotator-*.whl")
    return built


def test_wheel_carries_resources_and_migrations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "annotator/resources/prompts/mobile_agent_paper.txt" in names
    assert "annotator/storage/migrations/env.py" in names
    assert any(n.startswith("annotator/storage/migrations/versions/0001") for n in names)
    assert "trainer_bridge/cli/root.py" in names
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_runs_from_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    environment = {**os.environ, "PYTHONPATH": str(target), "ANNOTATOR_DATA_DIR": str(tmp_path / "data")}
    code = (
        "import annotator, json; from annotator.domain.prompts import agent_system_prompt; "
        "print(json.dumps([annotator.__file__, agent_system_prompt('打开淘宝')[-4:]]))"
    )
    where = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    module_file, prompt_tail = json.loads(where.stdout)
    assert module_file.startswith(str(target)) and prompt_tail == "打开淘宝"
    upgraded = subprocess.run(
        [sys.executable, "-m", "annotator", "db", "upgrade"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert f"Upgraded the schema from empty to {head_revision()}" in upgraded.stdout
