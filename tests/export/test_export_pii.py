"""PII strings are gone from every exported text, and the manifest says how many of each were scrubbed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from datasets import load_dataset, load_from_disk
from sqlalchemy import select

from annotator.domain.model_space import model_space
from annotator.storage import labels, models
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from trainer_bridge.export.run import ExportOptions, export

pytestmark = pytest.mark.slow

PHONE, EMAIL, ID_CARD = "13812345678", "xiaowang@example.com", "11010519491231002X"


def with_personal_data(workspace: Workspace) -> None:
    trajectory = add_trajectory(workspace, "微信", f"给 {PHONE} 发消息", 2, seed=4)
    with workspace.database.session() as session:
        first = session.scalars(select(models.Step.id).where(models.Step.trajectory_id == trajectory)).first()
    typed = {"name": "mobile_use", "arguments": {"action": "type", "text": f"我的身份证 {ID_CARD}"}}
    labels.update_label(
        workspace.database, first,
        {"think": f"需要联系 {EMAIL}", "action_text": f"输入 {PHONE}", "tool_call": typed, "verdict": "correct"},
        person="小王",
    )  # fmt: skip


def all_text(folder: Path) -> str:
    texts = [path.read_text(encoding="utf-8") for path in folder.rglob("*.json*")]
    for parquet in (folder / "data").glob("*.parquet"):  # easyr1
        rows = load_dataset("parquet", data_files=str(parquet))["train"].remove_columns("images")
        texts += [row["prompt"] + row["answer"] + row["instruction"] for row in rows]
    if (folder / "dataset_dict.json").is_file():
        for split in load_from_disk(str(folder)).values():
            texts += [json.dumps(row["prompt"] + row["completion"], ensure_ascii=False) + row["instruction"]
                      for row in split.remove_columns("images")]  # fmt: skip
    return "\n".join(texts)


def test_phone_email_and_id_numbers_are_scrubbed_from_every_format(workspace: Workspace, tmp_path: Path) -> None:
    with_personal_data(workspace)
    for fmt in ("jsonl", "trl", "llamafactory", "easyr1"):
        export(workspace, ExportOptions("sft", fmt, tmp_path / fmt, model_space("qwen2.5-vl")))
        text = all_text(tmp_path / fmt)
        assert "[PHONE]" in text and "[EMAIL]" in text and "[ID_CARD]" in text
        assert not any(secret in text for secret in (PHONE, EMAIL, ID_CARD))
        manifest = json.loads((tmp_path / fmt / "manifest.json").read_text(encoding="utf-8"))
        # the instruction and the action text hold the phone number; think the e-mail; the tool call the ID
        assert manifest["pii_scrubbed"] == {"phone": 2, "id_card": 1, "bank_card": 0, "email": 1}


def test_keep_pii_leaves_the_texts_as_labelled(workspace: Workspace, tmp_path: Path) -> None:
    with_personal_data(workspace)
    export(workspace, ExportOptions("sft", "jsonl", tmp_path / "raw", model_space("qwen2.5-vl"), keep_pii=True))
    assert PHONE in all_text(tmp_path / "raw")
