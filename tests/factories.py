"""Test data built through the real write paths: real PNG screenshots, trajectories, labels."""

from __future__ import annotations

import copy
import functools
import io

from PIL import Image, ImageDraw
from sqlalchemy import inspect, select

from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.solver import run_solution
from annotator.domain import actions as act
from annotator.domain.geometry import ScreenSize
from annotator.domain.trajectory import (
    LABEL_FIELDS,
    CollectorKind,
    Label,
    LabelledStep,
    Outcome,
    RawStep,
    ReviewStatus,
    StepOrigin,
    TrajectoryStatus,
    Verdict,
)
from annotator.storage import collection, labels, models, people
from annotator.storage.database import Database
from annotator.storage.workspace import Workspace


@functools.cache  # encoding a full-size PNG takes ~0.1 s and the same seeds come back in test after test
def make_png(width: int = 1080, height: int = 2400, seed: int = 0) -> bytes:
    """A small-but-real screenshot: distinct per seed, so blobs do not collapse into one."""
    image = Image.new("RGB", (width, height), (245, 245, 245))
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, width, 80], fill=(seed * 37 % 256, 90, 160))
    for row in range(6):
        top = 120 + row * 200
        draw.rectangle([40, top, width - 40, top + 160], outline=(200, 200, 200), width=3)
        draw.text((60, top + 60), f"item {seed}-{row}", fill=(20, 20, 20))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def click(x: int, y: int) -> dict:
    return {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}


HIERARCHY = (
    '<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><node index="0" text="搜索" '
    'resource-id="com.demo:id/search" class="android.widget.EditText" clickable="true" '
    'bounds="[40,120][1040,280]"/></hierarchy>'
).encode()


def add_trajectory(
    workspace: Workspace, app: str, instruction: str, n_steps: int, *, seed: int = 0, label: bool = True
) -> int:
    db = workspace.database
    instruction_id = collection.add_instruction(db, app, instruction)
    collection.save_device(db, "emulator-5554", {"model": "Pixel 7"}, app_packages={app: "com.demo"})
    trajectory_id = collection.start_trajectory(
        db,
        instruction_id,
        collection.Collector(CollectorKind.AGENT, agent_model="qwen2.5-vl-3b"),
        device_serial="emulator-5554",
        settings={"max_steps": 25, "history_images": 2},
    )
    for index in range(n_steps):
        tool_call = (
            click(100 + index, 200)
            if index < n_steps - 1
            else {"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}
        )
        step_id = collection.record_step(
            db,
            workspace.blobs,
            trajectory_id,
            collection.Observation(
                make_png(seed=seed * 100 + index),
                tool_call,
                hierarchy_xml=HIERARCHY,
                package="com.demo",
                model_reply=f"<think>步骤 {index}</think>",
                usage={"prompt_tokens": 900, "completion_tokens": 60, "total_tokens": 960},
                attempts=None if index else [{"reply": "胡言乱语", "problems": ["no tool call"]}],
                flags={"black_frame": False, "settled": True},
            ),
        )
        if label:
            labels.update_label(
                db,
                step_id,
                {
                    "think": f"当前在第 {index} 步",
                    "action_text": "点击搜索框",
                    "tool_call": tool_call,
                    "verdict": "correct",
                },
                person="小王",
            )
    collection.finish_trajectory(db, trajectory_id, TrajectoryStatus.COMPLETE, Outcome.SUCCESS, stop_reason="terminate")
    if label:
        labels.set_review(db, trajectory_id, ReviewStatus.ACCEPTED, reviewer="李审核", comment="好")
    return trajectory_id


def database_snapshot(workspace: Workspace) -> dict[str, list[tuple]]:
    """Every row of every table, to prove that a failed operation changed nothing."""
    snapshot = {}
    with workspace.database.engine.connect() as connection:
        for table in sorted(inspect(connection).get_table_names()):
            rows = connection.exec_driver_sql(f'SELECT * FROM "{table}"').fetchall()
            snapshot[table] = sorted(rows, key=repr)
    return snapshot


def step_ids(workspace: Workspace) -> list[int]:
    with workspace.database.session() as session:
        return list(session.scalars(select(models.Step.id).order_by(models.Step.id)))


@functools.cache  # the phone plays the same way every time; drawing its screens is most of a trajectory's cost
def _played(uid: str, actions_done: int | None) -> tuple[tuple[bytes, ...], list[dict], tuple[bytes, ...]]:
    """The screens, tool calls and UI dumps of `uid`'s solution played on a new virtual phone (see below)."""
    phone = VirtualPhone()
    screens, calls = [phone.screencap_png()], []
    dumps = [phone.hierarchy_xml().encode()]
    for _index, action in run_solution(phone, instruction_by_uid(uid)):
        if actions_done is not None and len(calls) == actions_done:
            calls.append(act.Terminate(status="failure").to_tool_call())
            break
        calls.append(action.to_tool_call())
        screens.append(phone.screencap_png())
        dumps.append(phone.hierarchy_xml().encode())
    return tuple(screens), calls, tuple(dumps)


def add_virtual_trajectory(
    workspace: Workspace, uid: str, *, actions_done: int | None = None, hierarchy: bool = False
) -> int:
    """A trajectory of the virtual phone's instruction `uid`, recorded as its solution plays out: every
    action, or only the first `actions_done` and then a terminate(failure), as an agent that gave up.
    `hierarchy`: each step keeps its screen's UI hierarchy, as collection stores it."""
    instruction = instruction_by_uid(uid)
    screens, played_calls, dumps = _played(uid, actions_done)
    calls = copy.deepcopy(played_calls)  # each trajectory its own dicts, as if it had played them itself
    db = workspace.database
    instruction_id = collection.add_instruction(db, instruction.app, instruction.text)
    trajectory_id = collection.start_trajectory(
        db, instruction_id, collection.Collector(CollectorKind.AGENT, agent_model="scripted")
    )
    for screen, call, dump in zip(screens, calls, dumps, strict=False):
        observation = collection.Observation(screen, call, hierarchy_xml=dump if hierarchy else None)
        collection.record_step(db, workspace.blobs, trajectory_id, observation)
    done = actions_done is None
    outcome = Outcome.SUCCESS if done else Outcome.FAILURE
    collection.finish_trajectory(db, trajectory_id, TrajectoryStatus.COMPLETE, outcome, stop_reason="terminate")
    return trajectory_id


def labelled_step(index: int, verdict: str | None = "correct", **changes: object) -> LabelledStep:
    """A stored-looking step of an in-memory trajectory: id 100 + index, screenshot `screen-<index>`, labelled
    completely with a click; `changes` set raw fields (raw_tool_call, model_reply, screenshot_sha256, screen),
    label fields (think, action_text, tool_call, target_box, verdict) or the step's own (inserted, removed, ...)."""
    raw_names = {
        "raw_tool_call": "tool_call",
        "screenshot_sha256": "screenshot_sha256",
        "screen": "screen",
        "model_reply": "model_reply",
        "package": "package",
        "activity": "activity",
    }
    raw = {"index": index, "screenshot_sha256": f"screen-{index}", "screen": ScreenSize(1080, 2400), "tool_call": None}
    label: dict = {
        "think": f"想法 {index}",
        "action_text": f"动作 {index}",
        "tool_call": {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [10 * index, 20]}},
        "verdict": Verdict(verdict) if verdict else None,
    }
    own: dict = {"id": 100 + index}
    for name, value in changes.items():
        if name in raw_names:
            raw[raw_names[name]] = value
        elif name in LABEL_FIELDS:
            label[name] = Verdict(value) if name == "verdict" and value else value
        elif name == "inserted":
            own["origin"] = StepOrigin.INSERTED if value else StepOrigin.COLLECTED
        else:
            own[name] = value
    return LabelledStep(raw=RawStep(**raw), label=Label(**label), **own)


def finish_labelling(workspace: Workspace, trajectory_id: int, person: str = "小王", outcome: str = "success") -> None:
    """Every stage and verdict of every step that lacks one (as collected, marked correct), and the outcome if unset:
    a trajectory that may be submitted for review."""
    from annotator.storage.trajectories import load_trajectory

    db = workspace.database
    trajectory = load_trajectory(db, trajectory_id)
    for step in trajectory.steps:
        wanted = {
            "think": step.original.think or "想",
            "action_text": step.original.action_text or "做",
            "tool_call": step.original.tool_call or step.raw.tool_call,
            "verdict": "correct",
        }
        values = {field: value for field, value in wanted.items() if getattr(step.label, field) is None}
        if values:
            labels.write_step_label(db, trajectory_id, step.id or 0, values, person=person, role="annotator")
    if trajectory.label_outcome is None:
        labels.write_outcome(db, trajectory_id, outcome, person=person, role="annotator")


def add_people(db: Database, *names: str, role: str = "annotator") -> None:
    """Put on the workspace's list whoever of `names` is not on it yet, as `annotator people add` does: a study's
    raters must be people the workspace knows."""
    for name in names:
        if people.role_of(db, name) is None:
            people.add_person(db, name, role)
