"""`annotator virtual-phone` and `annotator scripted-endpoint`, run as a user runs them."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import openai
import pytest
from adbutils import AdbClient
from click.testing import CliRunner

from annotator.cli.root import cli

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT (Ctrl+C) to a child process")


@contextmanager
def foreground(*args: str, stop: int = signal.SIGINT) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Start `annotator ARGS` as a child, yield it with its first line of output, then press Ctrl+C."""
    command = [sys.executable, "-m", "annotator", *args]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    try:
        yield process, process.stdout.readline()
    finally:
        process.send_signal(stop)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # it ignored the signal: the test fails, but leaves no server behind
            process.kill()
            process.wait()
            raise


def test_virtual_phone_serve_prints_serials_and_stops_on_ctrl_c() -> None:
    with foreground("virtual-phone", "serve", "--count", "2") as (process, first):
        port = int(re.search(r"127\.0\.0\.1:(\d+)", first).group(1))
        serials = [process.stdout.readline().split()[0] for _ in range(2)]
        assert serials == ["virtual-1", "virtual-2"]
        devices = AdbClient(host="127.0.0.1", port=port).device_list()
        assert sorted(device.serial for device in devices) == serials
        assert devices[0].window_size() == (1080, 2400)
    assert process.returncode == 0
    assert "stopped" in process.stdout.read()


def test_scripted_endpoint_serve_answers_the_openai_client_and_stops_on_ctrl_c() -> None:
    with foreground("scripted-endpoint", "serve") as (process, first):
        base_url = re.search(r"(http://127\.0\.0\.1:\d+/v1)", first).group(1)
        client = openai.OpenAI(base_url=base_url, api_key="x", timeout=10, max_retries=0)
        assert [model.id for model in client.models.list()] == ["scripted"]
    assert process.returncode == 0


@pytest.mark.parametrize("command", [("virtual-phone", "serve"), ("scripted-endpoint", "serve")])
def test_kill_stops_the_servers_as_cleanly_as_ctrl_c(command: tuple[str, str]) -> None:
    with foreground(*command, stop=signal.SIGTERM) as (process, first):
        assert "127.0.0.1:" in first
    assert process.returncode == 0
    assert process.stdout.read().rstrip().endswith("stopped")


def test_busy_port_is_a_clear_error() -> None:
    with foreground("scripted-endpoint", "serve") as (_, first):
        port = re.search(r":(\d+)/v1", first).group(1)
        result = CliRunner().invoke(cli, ["scripted-endpoint", "serve", "--port", port])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


def test_instructions_prints_the_instruction_set_as_json() -> None:
    result = CliRunner().invoke(cli, ["virtual-phone", "instructions"])
    assert result.exit_code == 0, result.output
    items = json.loads(result.output)
    assert len(items) >= 30
    assert {"uid", "app", "package", "text", "success", "facts"} <= items[0].keys()
    assert {item["app"] for item in items} >= {"优选商城", "趣看视频", "设置"}


def test_screenshots_saves_every_screen_of_a_solution(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["virtual-phone", "screenshots", str(tmp_path), "--instruction", "settings-zen-on"]
    )
    assert result.exit_code == 0, result.output
    shots = sorted(path.name for path in (tmp_path / "settings-zen-on").iterdir())
    assert shots[0] == "00-start.png" and shots[-1].endswith("terminate.png") and len(shots) == 5
    unknown = CliRunner().invoke(cli, ["virtual-phone", "screenshots", str(tmp_path), "--instruction", "nope"])
    assert unknown.exit_code == 1 and "no instruction nope" in unknown.output
