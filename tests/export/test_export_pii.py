"""PII strings are gone from every exported text, and the manifest says how many of each were scrubbed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from datasets import load_dataset, load_from_disk
from sqlalchemy import select, update

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
        workspace.database,
        first,
        {"think": f"需要联系 {EMAIL}", "action_text": f"输入 {PHONE}", "tool_call": typed, "verdict": "correct"},
        person="小王",
    )


def all_text(folder: Path) -> str:
    texts = [path.read_text(encoding="utf-8") for path in folder.rglob("*.json*")]
    for parquet in (folder / "data").glob("*.parquet"):  # easyr1
        rows = load_dataset("parquet", data_files=str(parquet))["train"].remove_columns("images")
        texts += [row["prompt"] + row["answer"] + row["instruction"] for row in rows]
    if (folder / "dataset_dict.json").is_file():  # trl: every column but the images, whatever the stage
        for split in load_from_disk(str(folder)).values():
            texts += [json.dumps(row, ensure_ascii=False, default=str) for row in split.remove_columns("images")]
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


def with_a_wrong_step_that_typed_personal_data(workspace: Workspace) -> None:
    """A wrong step that typed a phone number (its executed tool call, its model reply), then an escape and a
    correction: the executed call stays in the history of the steps after it, so it must be scrubbed too."""
    db = workspace.database
    trajectory = add_trajectory(workspace, "微信", "给妈妈发消息", 3, seed=5)
    steps = step_ids(workspace, trajectory)
    leaked = {"name": "mobile_use", "arguments": {"action": "type", "text": f"我的电话 {PHONE}"}}
    reply = f"<think>把电话 {PHONE} 发给 {EMAIL}</think><tool_call>{json.dumps(leaked)}</tool_call>"
    with db.engine.begin() as connection:  # as if collected so: the ORM refuses to change a collected step
        collected = update(models.Step.__table__).where(models.Step.id == steps[0])
        connection.execute(collected.values(raw_tool_call=leaked, raw_action="type", model_reply=reply))
    labels.update_label(db, steps[0], {"verdict": "wrong"}, person="小王")
    escape = {"think": "输错了，先返回", "action_text": "返回", "tool_call": BACK}
    labels.update_label(db, steps[1], escape, person="小王")
    corrected = labels.insert_correction(db, trajectory, steps[0], person="小王", role="annotator")
    labels.update_label(
        db,
        corrected,
        {"think": "应点击联系人", "action_text": "点击妈妈", "tool_call": TAP, "verdict": "correct"},
        person="小王",
    )


def step_ids(workspace: Workspace, trajectory: int) -> list[int]:
    with workspace.database.session() as session:
        query = select(models.Step.id).where(models.Step.trajectory_id == trajectory).order_by(models.Step.index)
        return list(session.scalars(query))


BACK = {"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}}
TAP = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [300, 400]}}


STAGES_AND_FORMATS = [
    *(("sft", fmt) for fmt in ("jsonl", "trl", "llamafactory", "easyr1")),
    *(("grpo-action", fmt) for fmt in ("jsonl", "trl", "easyr1")),
    ("grpo-task", "jsonl"),
]


@pytest.mark.parametrize(("stage", "fmt"), STAGES_AND_FORMATS, ids=[f"{s}-{f}" for s, f in STAGES_AND_FORMATS])
def test_a_wrong_steps_executed_call_is_scrubbed_from_the_history_of_every_later_sample(
    workspace: Workspace, tmp_path: Path, stage: str, fmt: str
) -> None:
    with_a_wrong_step_that_typed_personal_data(workspace)
    out = tmp_path / f"{stage}-{fmt}"
    more = {"grpo-task": {}, "grpo-action": {"error_recovery": True}}.get(stage, {})
    export(workspace, ExportOptions(stage, fmt, out, model_space("qwen2.5-vl"), after_errors=True, **more))
    text = all_text(out)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["counts"], "the export wrote samples"
    assert PHONE not in text and EMAIL not in text
    if stage != "grpo-task":  # later steps' history shows the wrong step's executed call, scrubbed
        assert "[PHONE]" in text
