"""Labelling and reviewing the demo's trajectories as a small team would, through the storage calls the app
uses (every change a revision with its author, every decision a review row with its comment).

About a third are fully labelled and accepted (the reviewer sharpens one action text first), a couple are
labelled carelessly and rejected with a comment naming the step, a couple wait for the reviewer, a couple
are half done, the rest wait for an annotator.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from annotator.demo.phone.tasks import Instruction
from annotator.demo.workspace.careful_labels import CarefulLabel, Seen, box_at, label_steps, read_steps
from annotator.domain.response import parse_response
from annotator.domain.trajectory import LabelledTrajectory, ReviewStatus, Verdict
from annotator.storage.labels import set_review, update_label
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace

ANNOTATORS = ("小王", "小李")
REVIEWER = "张审核"
VERDICT_WORDS = {Verdict.WRONG: "错误", Verdict.REDUNDANT: "多余"}


@dataclass(frozen=True)
class ToLabel:
    trajectory_id: int
    instruction: Instruction


def review_plan(count: int, seed: int) -> list[ReviewStatus]:
    """The review status each trajectory (in collection order) ends with; a seeded shuffle picks which."""
    accepted = max(1, round(count / 3))
    rejected = min(2, max(0, (count - accepted) // 2))
    in_progress = min(2, (count - accepted - rejected) // 2)
    annotated = min(2, (count - accepted - rejected - in_progress) // 2)  # waiting for the reviewer
    unlabelled = count - accepted - rejected - annotated - in_progress
    statuses = [ReviewStatus.ACCEPTED] * accepted + [ReviewStatus.REJECTED] * rejected
    statuses += [ReviewStatus.ANNOTATED] * annotated
    statuses += [ReviewStatus.IN_PROGRESS] * in_progress + [ReviewStatus.UNLABELLED] * unlabelled
    return random.Random(f"demo-review:{seed}").sample(statuses, count)


def label_all(workspace: Workspace, items: list[ToLabel], seed: int) -> list[ReviewStatus]:
    """Label and review every trajectory as the plan says; returns each one's review status."""
    plan = review_plan(len(items), seed)
    labelled = 0
    for item, status in zip(items, plan, strict=True):
        if status == ReviewStatus.UNLABELLED:
            continue
        annotator = ANNOTATORS[labelled % len(ANNOTATORS)]
        labelled += 1
        trajectory = load_trajectory(workspace.database, item.trajectory_id)
        seen = read_steps(workspace.blobs, trajectory)
        careful = label_steps(item.instruction, seen)
        if status == ReviewStatus.ACCEPTED:
            accept(workspace, trajectory, careful, annotator)
        elif status == ReviewStatus.REJECTED:
            reject(workspace, trajectory, seen, careful, annotator)
        elif status == ReviewStatus.ANNOTATED:
            write_labels(workspace, trajectory, careful, annotator)
            submit(workspace, trajectory, annotator)
        else:
            write_labels(workspace, trajectory, careful[: math.ceil(len(careful) / 2)], annotator)
            set_review(workspace.database, _id(trajectory), ReviewStatus.IN_PROGRESS, reviewer=annotator)
    return plan


def _id(trajectory: LabelledTrajectory) -> int:
    assert trajectory.id is not None, "a stored trajectory has an id"
    return trajectory.id


def write_labels(
    workspace: Workspace,
    trajectory: LabelledTrajectory,
    careful: list[CarefulLabel],
    annotator: str,
    overrides: dict[int, dict[str, Any]] | None = None,
) -> None:
    """Label steps 0..len(careful)-1, all five fields; `overrides` replaces some (a careless annotator)."""
    for index, label in enumerate(careful):
        changes = {
            "tool_call": label.tool_call,
            "target_box": label.target_box,
            "think": label.think,
            "action_text": label.action_text,
            "verdict": str(label.verdict),
        } | (overrides or {}).get(index, {})
        update_label(workspace.database, trajectory.executed[index].id or 0, changes, person=annotator)


def submit(workspace: Workspace, trajectory: LabelledTrajectory, annotator: str) -> None:
    comment = "全部步骤已标注，提交审核。"
    set_review(workspace.database, _id(trajectory), ReviewStatus.ANNOTATED, reviewer=annotator, comment=comment)


def accept(workspace: Workspace, trajectory: LabelledTrajectory, careful: list[CarefulLabel], annotator: str) -> None:
    write_labels(workspace, trajectory, careful, annotator)
    submit(workspace, trajectory, annotator)
    sharpen_one_action(workspace, trajectory, careful)
    flagged = [f"第{index + 1}步" for index, j in enumerate(careful) if j.verdict != Verdict.CORRECT]
    comment = (
        f"标注准确：{'、'.join(flagged)}的错误或多余操作已标出并改正，通过。"
        if flagged
        else "每一步的思考、动作和目标框都核对过，通过。"
    )
    set_review(workspace.database, _id(trajectory), ReviewStatus.ACCEPTED, reviewer=REVIEWER, comment=comment)


def sharpen_one_action(workspace: Workspace, trajectory: LabelledTrajectory, careful: list[CarefulLabel]) -> None:
    """The reviewer makes the first tap's action text say where on the screen it is (a second revision)."""
    for index, label in enumerate(careful):
        if label.target_box is None:
            continue
        height = trajectory.executed[index].raw.screen.height
        centre_y = (label.target_box[1] + label.target_box[3]) / 2
        region = "上方" if centre_y < height / 3 else ("中部" if centre_y < height * 2 / 3 else "下方")
        sharper = f"{label.action_text}（在屏幕{region}）"
        step_id = trajectory.executed[index].id or 0
        update_label(workspace.database, step_id, {"action_text": sharper}, person=REVIEWER, role="reviewer")
        return


def reject(
    workspace: Workspace, trajectory: LabelledTrajectory, seen: list[Seen], careful: list[CarefulLabel], annotator: str
) -> None:
    """Labelled in a hurry: a bad step passed as correct, or a tap with no box and the model's think copied."""
    bad = next((index for index, j in enumerate(careful) if j.verdict != Verdict.CORRECT), None)
    if bad is not None:
        raw_call = seen[bad].tool_call
        overrides: dict[int, dict[str, Any]] = {bad: {"verdict": str(Verdict.CORRECT), "tool_call": raw_call}}
        overrides[bad]["target_box"] = box_at(seen[bad].nodes, raw_call)
        verdict = careful[bad].verdict
        fix = "并写出正确的动作" if verdict == Verdict.WRONG else ""
        comment = (
            f"第{bad + 1}步的操作没有推进任务，应标为“{VERDICT_WORDS[verdict]}”{fix}，不能标为“正确”。"
            "请改正后重新提交。"
        )
    else:
        boxed = [index for index, j in enumerate(careful) if j.target_box is not None]
        sloppy = boxed[0] if boxed else 0
        copied = _model_think(trajectory, sloppy)
        overrides = {sloppy: {"target_box": None, "think": copied}}
        what = "思考只是照抄了模型的原文" if copied else "也没有写思考过程"
        comment = (
            f"第{sloppy + 1}步没有框出点击的目标元素，{what}，请按“当前状态→下一步→目标”改写并补上目标框后重新提交。"
        )
    write_labels(workspace, trajectory, careful, annotator, overrides)
    submit(workspace, trajectory, annotator)
    set_review(workspace.database, _id(trajectory), ReviewStatus.REJECTED, reviewer=REVIEWER, comment=comment)


def _model_think(trajectory: LabelledTrajectory, index: int) -> str | None:
    reply = trajectory.executed[index].raw.model_reply
    return parse_response(reply, strict=False).think if reply else None
