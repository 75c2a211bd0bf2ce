"""Small datasets in the layouts AITZ, GUI-Odyssey and AndroidControl are published in, made by the tests.

Screenshots are solid PNGs with one red target box, so a test can check that a click lands on the target
(its pixel in the stored screenshot is red), not only that a number came out.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

from PIL import Image
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from annotator.importers.tfrecord import build_example, frame
from annotator.services.importing import episode_uid
from annotator.storage import models
from annotator.storage.workspace import Workspace

RED = (220, 20, 20)
SIZE = (540, 1200)
TARGET = (250, 280, 290, 320)  # x1, y1, x2, y2 around (270, 300): 0.5 x 0.25 of a 540x1200 screen


def png(size: tuple[int, int] = SIZE, shade: int = 0, target: tuple[int, int, int, int] | None = TARGET) -> bytes:
    image = Image.new("RGB", size, (230 - shade % 40, 235, 240))
    if target:
        image.paste(RED, target)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def trajectory_of(workspace: Workspace, source: str, episode_id: str) -> models.Trajectory:
    """The trajectory an episode became, with its steps (and their revisions), instruction, app and reviews."""
    T = models.Trajectory
    query = (
        select(T)
        .where(T.uid == episode_uid(source, episode_id))
        .options(
            selectinload(T.steps).selectinload(models.Step.revisions),
            selectinload(T.instruction).selectinload(models.Instruction.app),
            selectinload(T.reviews),
        )
    )
    with workspace.database.session() as session:
        return session.scalars(query).one()


def pixel(workspace: Workspace, sha256: str, point: list[int]) -> tuple[int, int, int]:
    """The colour of a stored screenshot at a point."""
    with Image.open(io.BytesIO(workspace.blobs.read_bytes(sha256))) as image:
        return image.convert("RGB").getpixel((point[0], point[1]))  # type: ignore[return-value]


# --- AITZ: <split>/<subset>/<SUBSET-id>/<SUBSET-id>.json, screenshots beside it ------------------------------


def aitz_step(step_id: int, action_type: int, touch: Any = (-1.0, -1.0), lift: Any = None, **extra: Any) -> dict:
    """One AITZ step as published: the points are JSON text "[y, x]"."""
    lift = touch if lift is None else lift
    step = {
        "step_id": step_id,
        "result_action_type": action_type,
        "result_action_text": "",
        "result_touch_yx": json.dumps(list(touch)) if isinstance(touch, (list, tuple)) else touch,
        "result_lift_yx": json.dumps(list(lift)) if isinstance(lift, (list, tuple)) else lift,
        # As published: [y, x, height, width] in the screenshot's pixels (540x1200 here): a button, the page.
        "ui_positions": json.dumps([[240.0, 216.0, 120.0, 108.0], [0.0, 0.0, 1200.0, 540.0]]),
        "coat_screen_desc": f"screen {step_id}",
        "coat_action_think": f"think {step_id}",
        "coat_action_desc": f"action {step_id}",
        "coat_action_result": f"result {step_id}",
    }
    step.update(extra)
    return step


def write_aitz(
    split: Path,
    episode_id: str,
    steps: list[dict],
    *,
    subset: str = "general",
    instruction: str = "open Clock",
    screenshots: bool = True,
) -> Path:
    name = f"{subset.upper()}-{episode_id}"
    folder = split / subset / name
    folder.mkdir(parents=True, exist_ok=True)
    records = []
    for step in steps:
        image = f"{subset}/{name}/{name}_{step['step_id']}.png"
        record = {"episode_id": episode_id, "episode_length": len(steps), "instruction": instruction}
        records.append({**record, "image_path": image, **step})
        if screenshots:
            (split / image).write_bytes(png(shade=step["step_id"]))
    file = folder / f"{name}.json"
    file.write_text(json.dumps(records, indent=2), encoding="utf-8")
    return file


def aitz_good_steps() -> list[dict]:
    """Click the target, type, swipe up, back, enter, home, complete."""
    return [
        aitz_step(0, 4, (0.25, 0.5), (0.26, 0.5)),
        aitz_step(1, 3, result_action_text="alarm 7:00"),
        aitz_step(2, 4, (0.8, 0.5), (0.2, 0.5)),
        aitz_step(3, 5),
        aitz_step(4, 7),
        aitz_step(5, 6),
        aitz_step(6, 10),
    ]


# --- GUI-Odyssey: data/annotations/<id>.json and data/screenshots/<id>_<n>.png ----------------------------------


def odyssey_step(number: int, action: str, info: Any = "", **extra: Any) -> dict:
    step = {
        "step": number,
        "screenshot": f"EP_{number}.png",
        "action": action,
        "info": info,
        "ps": "",
        "description": f"description {number}",
        "intention": f"intention {number}",
        "context": f"context {number}",
        "low_level_instruction": f"low level {number}",
        "sam2_bbox": [],
    }
    step.update(extra)
    return step


def odyssey_episode(episode_id: str, steps: list[dict], **task: Any) -> dict:
    for step in steps:
        step["screenshot"] = step["screenshot"].replace("EP", episode_id)
    return {
        "episode_id": episode_id,
        "device_info": {
            "product": "sdk_gphone64",
            "release_version": "14",
            "h": 2400,
            "w": 1080,
            "device_name": "Pixel 7 Pro",
        },
        "task_info": {
            "category": "Multi_Apps",
            "app": ["Chrome", "Tasks"],
            "meta_task": "Search {} and note it.",
            "task": "Search the weather and note it.",
            "instruction": "Use Chrome to search the weather, then note it in Tasks.",
            **task,
        },
        "step_length": len(steps),
        "steps": steps,
    }


def write_odyssey(data: Path, episodes: list[dict], *, screenshots: Path | None = None) -> Path:
    """The data folder: an annotation file per episode, the screenshots in `screenshots` (or data/screenshots)."""
    (data / "annotations").mkdir(parents=True, exist_ok=True)
    shots = screenshots or data / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    for episode in episodes:
        (data / "annotations" / f"{episode['episode_id']}.json").write_text(json.dumps(episode), encoding="utf-8")
        for step in episode["steps"]:
            (shots / step["screenshot"]).write_bytes(png(shade=step["step"]))
    return data


def odyssey_good_steps() -> list[dict]:
    box = [463, 233, 537, 267]  # the target box in 0-1000: (250, 280)-(290, 320) on 540x1200
    return [
        odyssey_step(0, "CLICK", [[500, 250], [500, 250]], sam2_bbox=box),
        odyssey_step(1, "LONG_PRESS", [[500, 250]], sam2_bbox=box),
        odyssey_step(2, "SCROLL", [[500, 800], [500, 200]]),
        odyssey_step(3, "TEXT", "weather"),
        odyssey_step(4, "CLICK", "KEY_BACK"),
        odyssey_step(5, "CLICK", "KEY_APPSELECT"),
        odyssey_step(6, "CLICK", "KEY_HOME"),
        odyssey_step(7, "COMPLETE", ""),
    ]


# --- AndroidControl: GZIP TFRecord files of tf.train.Example episodes -----------------------------------------


def ac_episode(
    episode_id: int,
    actions: list[dict],
    *,
    goal: str = "Set an alarm for 7 am",
    recorded: tuple[int, int] = SIZE,
    size: tuple[int, int] = SIZE,
    instructions: list[str] | None = None,
) -> dict[str, list]:
    """The features of one episode; `recorded` is the screen size the dataset states, `size` the PNGs' size."""
    count = len(actions) + 1
    return {
        "episode_id": [episode_id],
        "goal": [goal.encode()],
        "screenshots": [png(size, shade=n) for n in range(count)],
        "screenshot_widths": [recorded[0]] * count,
        "screenshot_heights": [recorded[1]] * count,
        "accessibility_trees": [b"\x0a\x00"] * count,
        "actions": [json.dumps(action).encode() for action in actions],
        "step_instructions": [text.encode() for text in instructions or [f"step {n}" for n in range(len(actions))]],
    }


def ac_good_actions() -> list[dict]:
    return [
        {"action_type": "open_app", "app_name": "Clock"},
        {"action_type": "click", "x": 1080 // 2, "y": 2400 // 4},
        {"action_type": "scroll", "direction": "down"},
        {"action_type": "input_text", "text": "7:00"},
        {"action_type": "navigate_back"},
        {"action_type": "long_press", "x": 540, "y": 600},
        {"action_type": "wait"},
        {"action_type": "navigate_home"},
    ]


def tfrecord_bytes(episodes: list[dict[str, list]]) -> bytes:
    return b"".join(frame(build_example(features)) for features in episodes)


def write_tfrecord(path: Path, episodes: list[dict[str, list]], *, compress: bool = True) -> Path:
    data = tfrecord_bytes(episodes)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(data) if compress else data)
    return path
