"""Instruction use cases on a real SQLite workspace: import CSV/JSON/virtual-phone lists, list, review, generate."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.demo.phone.instructions import all_instructions
from annotator.llm import LLMClient, LLMConfig
from annotator.services import instructions as service
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, chat_completion
from tests.factories import database_snapshot

CSV_TEXT = (
    "app,text,package,uid,status,notes\n"
    "淘宝,打开淘宝，搜索“蓝牙耳机”,com.taobao.taobao,,,第一条\n"
    "\n"
    '淘宝,"把白色L码的T恤加入购物车，数量为2",,tb-0002,archived,\n'
    "抖音,关注第一个视频的作者,,,,\n"
)


def write(path: Path, text: str, *, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def virtual_phone_file(tmp_path: Path) -> Path:
    """What `annotator virtual-phone instructions > instructions.json` writes."""
    result = CliRunner().invoke(cli, ["virtual-phone", "instructions"], catch_exceptions=False)
    return write(tmp_path / "instructions.json", result.output)


def test_csv_with_a_bom_imports_and_a_second_import_adds_nothing(workspace: Workspace, tmp_path: Path) -> None:
    path = write(tmp_path / "tasks.csv", "\ufeff" + CSV_TEXT)
    report = service.import_instructions(workspace.database, path)
    assert (report.added, report.skipped, report.format) == (3, 0, "csv")
    rows = service.list_instructions(workspace.database)
    assert [(r.app, r.text, r.status, r.source) for r in rows] == [
        ("淘宝", "打开淘宝，搜索“蓝牙耳机”", "active", "imported"),
        ("淘宝", "把白色L码的T恤加入购物车，数量为2", "archived", "imported"),
        ("抖音", "关注第一个视频的作者", "active", "imported"),
    ]
    assert rows[0].package == "com.taobao.taobao" and rows[1].uid == "tb-0002"
    again = service.import_instructions(workspace.database, write(tmp_path / "again.csv", CSV_TEXT))
    assert (again.added, again.skipped) == (0, 3)
    assert len(service.list_instructions(workspace.database)) == 3


def test_the_virtual_phone_list_imports_with_its_uids_once(workspace: Workspace, tmp_path: Path) -> None:
    path = virtual_phone_file(tmp_path)
    report = service.import_instructions(workspace.database, path)
    expected = all_instructions()
    assert (report.added, report.skipped, report.format) == (len(expected), 0, "virtual-phone")
    rows = service.list_instructions(workspace.database)
    assert {(r.uid, r.app, r.text) for r in rows} == {(i.uid, i.app, i.text) for i in expected}
    assert {r.package for r in rows if r.app == "优选商城"} == {"com.virtual.shop"}
    assert service.import_instructions(workspace.database, path).added == 0
    # The same task typed into a spreadsheet (no uid) is recognised by its app and text.
    first = expected[0]
    csv_path = write(tmp_path / "same.csv", f"app,text\n{first.app},{first.text}\n")
    assert service.import_instructions(workspace.database, csv_path).skipped == 1


def test_a_json_array_imports_whatever_its_file_is_called(workspace: Workspace, tmp_path: Path) -> None:
    items = [
        {"app": "设置", "text": "打开蓝牙"},
        {"app": "设置", "text": "打开蓝牙"},
        {"app": "设置", "text": "关闭WLAN"},
    ]
    path = write(tmp_path / "tasks.txt", json.dumps(items, ensure_ascii=False))
    report = service.import_instructions(workspace.database, path)
    assert (report.added, report.skipped, report.format) == (2, 1, "json")


def test_bad_rows_are_all_named_and_nothing_is_imported(workspace: Workspace, tmp_path: Path) -> None:
    service.import_instructions(workspace.database, write(tmp_path / "ok.csv", CSV_TEXT))
    before = database_snapshot(workspace)
    text = "app,text,status\n淘宝,搜索耳机,\n淘宝,,\n抖音,点赞,finished\n,关注作者,\n"
    with pytest.raises(service.InstructionImportError) as raised:
        service.import_instructions(workspace.database, write(tmp_path / "bad.csv", text))
    message = str(raised.value)
    assert "bad.csv: 3 bad row(s), nothing was imported" in message
    assert "row 3: text is missing or empty" in message
    assert "row 4: unknown status 'finished'; expected one of active, archived, generated, rejected" in message
    assert "row 5: app is missing or empty" in message
    assert database_snapshot(workspace) == before


@pytest.mark.slow
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('[{"app": "设置", "text": "打开蓝牙"}, {"app": "设置"}, "打开WLAN"]', "item 2: text is missing"),
        ('[{"app": "设置", "text": 5}]', "item 1: text must be non-empty text, got 5"),
        (
            '[{"app": "设置", "text": "打开蓝牙",}]',
            "not valid JSON: Expecting property name enclosed in double quotes at line 1 column 31",
        ),
        ('{"app": "设置"}', "expected a JSON array"),
        ("application,task\n设置,打开蓝牙\n", "no app and no text column (found: application, task)"),
        ("app,text\n设置,打开蓝牙,多余\n", "row 2: 3 fields but the header has 2"),
        (f"app,text,uid\n设置,打开蓝牙,{'x' * 37}\n", "longer than 36 characters"),
        ("app,text,uid\n设置,打开蓝牙,u1\n设置,关闭蓝牙,u1\n", "uid 'u1' is used for two different instructions"),
        ("  \n", "the file is empty"),
    ],
    ids=[
        "json-missing",
        "json-type",
        "json-syntax",
        "json-object",
        "header",
        "fields",
        "uid-long",
        "uid-twice",
        "empty",
    ],
)
def test_files_that_cannot_be_imported(workspace: Workspace, tmp_path: Path, content: str, expected: str) -> None:
    with pytest.raises(service.InstructionImportError, match=re.escape(expected)):
        service.import_instructions(workspace.database, write(tmp_path / "in.csv", content))
    assert service.list_instructions(workspace.database) == []


def test_a_file_saved_in_gbk_is_refused_with_advice(workspace: Workspace, tmp_path: Path) -> None:
    path = write(tmp_path / "excel.csv", "app,text\n淘宝,搜索耳机\n", encoding="gbk")
    with pytest.raises(service.InstructionImportError, match=r"not UTF-8.*CSV UTF-8"):
        service.import_instructions(workspace.database, path)


def test_listing_filters_by_app_and_status(workspace: Workspace, tmp_path: Path) -> None:
    service.import_instructions(workspace.database, write(tmp_path / "t.csv", CSV_TEXT))
    db = workspace.database
    assert [r.text for r in service.list_instructions(db, app="抖音")] == ["关注第一个视频的作者"]
    assert [r.uid for r in service.list_instructions(db, app="淘宝", status="archived")] == ["tb-0002"]
    assert service.list_instructions(db, app="微信") == []
    with pytest.raises(ValueError, match="unknown status 'done'"):
        service.list_instructions(db, status="done")


def test_approve_and_reject_change_status_and_unknown_ids_change_nothing(workspace: Workspace, tmp_path: Path) -> None:
    service.import_instructions(workspace.database, write(tmp_path / "t.csv", CSV_TEXT))
    db = workspace.database
    ids = [r.id for r in service.list_instructions(db)]
    assert service.reject(db, ids[:2]) == 2
    assert service.approve(db, [ids[1]]) == 1
    assert [r.status for r in service.list_instructions(db)] == ["rejected", "active", "active"]
    with pytest.raises(LookupError, match="no instruction with id 999; nothing was changed"):
        service.reject(db, [ids[2], 999])
    assert service.list_instructions(db)[2].status == "active"


GENERATED = "1. 在淘宝搜索“机械键盘”并按销量排序\n2. 关注“小米官方旗舰店”\n3. 把“每日坚果”加入购物车"


def test_generated_instructions_wait_for_review_and_are_not_generated_twice(workspace: Workspace) -> None:
    db = workspace.database
    server = ChatServer([Reply(body=chat_completion(GENERATED))])
    with server, LLMClient(LLMConfig(server.base_url, "gpt-4o", max_retries=0)) as client:
        first = service.generate(db, client, "淘宝", 3, package="com.taobao.taobao")
        service.reject(db, [first.added[0].id])
        second = service.generate(db, client, "淘宝", 3)
    assert [r.text for r in first.added] == [
        "在淘宝搜索“机械键盘”并按销量排序",
        "关注“小米官方旗舰店”",
        "把“每日坚果”加入购物车",
    ]
    assert {(r.source, r.status, r.package) for r in first.added} == {("generated", "generated", "com.taobao.taobao")}
    assert (second.added, second.skipped) == ([], 3)  # a rejected task stays rejected
    assert [r.text for r in service.list_instructions(db, status="generated")] == [r.text for r in first.added[1:]]
    assert "淘宝" in server.seen[0].body["messages"][0]["content"]
