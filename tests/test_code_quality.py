"""The test command also lints: ruff over the code, the import contracts (docs/architecture.md#layers), and mypy's
types over every package (pyproject.toml [tool.mypy]; the check is slow, so it runs in the full suite only)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# mypy's cache, kept between runs (ignored by git): a first check of everything takes ~40 s, the next a few seconds.
MYPY_CACHE = ROOT / ".mypy_cache"


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is not installed next to {sys.executable}; install the dev extra"
    return found


def test_ruff_finds_nothing() -> None:
    result = subprocess.run([tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_code_is_formatted() -> None:
    result = subprocess.run([tool("ruff"), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, "run `ruff format .`:\n" + result.stdout + result.stderr


def test_import_contracts_hold() -> None:
    result = subprocess.run([tool("lint-imports")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # cold, the quick loop's longest test by far
def test_types_hold() -> None:
    result = subprocess.run([tool("mypy"), "--cache-dir", str(MYPY_CACHE)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
