"""The annotation part of bench/gui.py: a workspace of 25-step trajectories with real virtual-phone screens.

``build_annotation_workspace`` records one 25-step trajectory through the real write path (screenshots and
UI hierarchies rendered by the virtual phone as it scrolls and taps through the shop), then copies its rows
with Core bulk inserts into as many trajectories as asked (the blobs are shared: content-addressed), so that
a 25,000-step workspace builds in seconds. ``measure_annotation`` runs in the child process.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

STEPS = 25


def _record_real_trajectory(workspace: Any) -> int:
    from annotator.demo.phone.phone import VirtualPhone
    from annotator.domain.trajectory import CollectorKind, Outcome, TrajectoryStatus
    from annotator.storage import collection, labels

    phone = VirtualPhone(serial="bench-1")
    shop = next(p for p in phone.packages() if "shop" in p)
    phone.start_app(shop)
    db = workspace.database
    instruction = collection.add_instruction(db, "优选商城", "打开优选商城，浏览推荐商品并查看第一件的详情")
    trajectory = collection.start_trajectory(db, instruction, collection.Collector(CollectorKind.AGENT, "scripted"))
    for index in range(STEPS):
        x, y = 540, 1500 - 20 * index
        tool_call = {
            "name": "mobile_use",
            "arguments": {"action": "swipe", "coordinate": [x, y], "coordinate2": [x, y - 700]},
        }
        reply = f"<think>当前在推荐页第 {index} 屏，向上滑动，以便看到更多商品</think><action>向上滑动页面</action>"
        observation = collection.Observation(
            phone.screencap_png(),
            tool_call,
            hierarchy_xml=phone.hierarchy_xml().encode(),
            package=shop,
            model_reply=reply,
        )
        step_id = collection.record_step(db, workspace.blobs, trajectory, observation)
        if index % 2 == 0:
            labels.update_label(
                db,
                step_id,
                {
                    "think": f"当前在第 {index} 屏，向上滑动，以便浏览更多商品",
                    "tool_call": tool_call,
                    "target_box": [0, 300, 1080, 2200],
                    "verdict": "correct",
                },
                person="小王",
            )
        phone.swipe(x, y, x, y - 700) if index % 5 != 4 else phone.keyevent("KEYCODE_BACK")
    collection.finish_trajectory(db, trajectory, TrajectoryStatus.COMPLETE, Outcome.SUCCESS, stop_reason="bench")
    return trajectory


def _copy_trajectory(workspace: Any, source: int, copies: int) -> None:
    from sqlalchemy import func, insert, select

    from annotator.storage import models

    with workspace.database.engine.begin() as connection:
        trajectory = (
            connection.execute(select(models.Trajectory).where(models.Trajectory.id == source)).mappings().one()
        )
        steps = connection.execute(select(models.Step).where(models.Step.trajectory_id == source)).mappings().all()
        next_step = connection.execute(select(func.max(models.Step.id))).scalar_one() + 1
        for copy in range(1, copies):
            new_id = source + copy
            row = dict(trajectory) | {"id": new_id, "uid": f"bench-{copy}"}
            connection.execute(insert(models.Trajectory), [row])
            connection.execute(
                insert(models.Step),
                [dict(step) | {"id": next_step + n, "trajectory_id": new_id} for n, step in enumerate(steps)],
            )
            next_step += len(steps)


def build_annotation_workspace(data_dir: Path, trajectories: int) -> dict[str, int]:
    from annotator.storage.workspace import Workspace

    with Workspace.open(data_dir) as workspace:
        source = _record_real_trajectory(workspace)
        _copy_trajectory(workspace, source, trajectories)
    return {"annotation_trajectories": trajectories, "annotation_steps": trajectories * STEPS}


def measure_annotation(window: Any, until: Callable[..., float], repeats: int) -> dict[str, Any]:
    """Open 25-step trajectories in the annotation view and move through their steps; milliseconds."""
    view = window.annotate
    opens, switches = [], []
    for trajectory_id in range(1, repeats + 2):
        started = time.perf_counter()
        window.open_trajectory(trajectory_id)
        until(lambda t=trajectory_id: view.is_showing(t))
        opens.append((time.perf_counter() - started) * 1000)
        remaining = len(view.order) - 1 - view.order.index(view.current_step_id())  # it opens at the first unlabelled
        for _ in range(remaining):
            started = time.perf_counter()
            before = view.current_step_id()
            view.next_step()
            until(lambda b=before, t=trajectory_id: view.current_step_id() != b and view.is_showing(t))
            switches.append((time.perf_counter() - started) * 1000)
    return {
        "open_trajectory_ms": round(statistics.median(opens[1:]), 1),  # the first one also warms caches
        "open_trajectory_first_ms": round(opens[0], 1),
        "switch_step_ms": round(statistics.median(switches), 1),
        "switch_step_p90_ms": round(sorted(switches)[int(len(switches) * 0.9)], 1),
    }
