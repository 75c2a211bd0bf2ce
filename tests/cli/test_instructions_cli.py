"""`annotator instructions ...` through click on a real workspace, with a loopback model server for generate."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.demo.phone.instructions import all_instructions
from tests.chat_server import ChatServer, Reply, chat_completion, error_body

KEY_ENV = "ANNOTATOR_TEST_CLI_KEY"


def run(data_dir: Path, *args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], catch_exceptions=False)


def listed(data_dir: Path, *args: str) -> list[dict]:
    result = run(data_dir, "instructions", "list", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_import_the_virtual_phone_list_then_list_it_as_json(tmp_path: Path) -> None:
    path = tmp_path / "instructions.json"
    path.write_text(run(tmp_path, "virtual-phone", "instructions").output, encoding="utf-8")
    result = run(tmp_path, "instructions", "import", str(path))
    count = len(all_instructions())
    assert result.exit_code == 0
    assert f"Imported {count} instruction(s) from instructions.json (virtual-phone); 0 skipped." in result.output
    assert "Imported 0 instruction(s)" in run(tmp_path, "instructions", "import", str(path)).output
    rows = listed(tmp_path)
    assert len(rows) == count
    assert set(rows[0]) == {"id", "uid", "app", "text", "source", "status"}
    assert rows[0]["uid"] == all_instructions()[0].uid and rows[0]["source"] == "imported"
    shop = listed(tmp_path, "--app", "优选商城", "--status", "active")
    assert shop and all(row["app"] == "优选商城" for row in shop) and len(shop) < count


def test_a_bad_file_is_a_one_line_error_with_the_row(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text("app,text\n淘宝,搜索耳机\n抖音,\n", encoding="utf-8")
    result = run(tmp_path, "instructions", "import", str(path))
    assert result.exit_code == 1
    assert "Error: tasks.csv: 1 bad row(s), nothing was imported" in result.output and "row 3" in result.output
    assert "No instructions match." in run(tmp_path, "instructions", "list").output


def test_generate_then_approve_and_reject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-cli-secret")
    reply = Reply(body=chat_completion("1. 在淘宝搜索“机械键盘”\n2. 关注“小米官方旗舰店”"))
    with ChatServer([reply]) as server:
        result = run(
            tmp_path,
            "instructions",
            "generate",
            "--app",
            "淘宝",
            "-n",
            "2",
            "--base-url",
            server.base_url,
            "--model",
            "gpt-4o",
            "--api-key-env",
            KEY_ENV,
        )
    assert result.exit_code == 0, result.output
    assert "Added 2 generated instruction(s) for 淘宝" in result.output and "机械键盘" in result.output
    assert server.seen[0].headers["authorization"] == "Bearer sk-cli-secret"
    assert server.seen[0].body["temperature"] == 0.7
    drafts = listed(tmp_path, "--status", "generated")
    assert [(d["source"], d["app"]) for d in drafts] == [("generated", "淘宝")] * 2
    first, second = (str(d["id"]) for d in drafts)
    assert "Approved 1 instruction(s)" in run(tmp_path, "instructions", "approve", first).output
    assert "Rejected 1 instruction(s)" in run(tmp_path, "instructions", "reject", second).output
    assert [d["status"] for d in listed(tmp_path)] == ["active", "rejected"]
    table = run(tmp_path, "instructions", "list", "--app", "淘宝").output
    assert "active" in table and "机械键盘" in table


def test_review_of_an_unknown_id_fails_cleanly(tmp_path: Path) -> None:
    result = run(tmp_path, "instructions", "approve", "41", "42")
    assert result.exit_code == 1 and "Error: no instruction with id 41, 42; nothing was changed" in result.output


@pytest.mark.slow
def test_a_refused_key_is_a_one_line_error_without_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-cli-secret")
    with ChatServer([Reply(401, error_body("bad key sk-cli-secret"))]) as server:
        result = run(
            tmp_path,
            "instructions",
            "generate",
            "--app",
            "淘宝",
            "--base-url",
            server.base_url,
            "--model",
            "gpt-4o",
            "--api-key-env",
            KEY_ENV,
        )
    assert result.exit_code == 1
    assert "refused the API key (401)" in result.output and KEY_ENV in result.output
    assert "sk-cli-secret" not in result.output
    assert listed(tmp_path) == []


def test_an_unknown_status_is_refused_by_the_option(tmp_path: Path) -> None:
    result = run(tmp_path, "instructions", "list", "--status", "done")
    assert result.exit_code == 2 and "'done' is not one of" in result.output
