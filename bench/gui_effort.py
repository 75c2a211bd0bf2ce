"""The annotator's effort, counted by driving the real window with key presses and clicks (issue 16's goals).

``add_effort_trajectory`` records a 5-step agent trajectory whose replies hold all three stages, on a screen
with two named buttons (搜索 above 评论). ``EffortDriver`` presses keys as a person would, through Qt's
shortcut map to whatever widget has the focus, and counts them:

- ``accept_step``: a correct step accepted and the next one opened (goal: 1 key);
- ``fix_click``: the click moved from 搜索 to 评论, the action text following, confirmed (goal: 1 click + 1 key);
- ``five_step_trajectory``: from the trajectory list to submitted, every step correct (goal: at most 7 keys).

bench/gui.py reports the counts as goals; tests/ui/test_annotate_effort.py asserts them.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

STEPS = 5
SEARCH = (40, 120, 1040, 280)  # the 搜索 button's bounds
COMMENTS = (40, 400, 1040, 560)  # the 评论 button's bounds
HIERARCHY = (
    '<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">'
    '<node index="0" text="搜索" resource-id="com.demo:id/search" class="android.widget.Button" clickable="true" '
    'bounds="[40,120][1040,280]"/>'
    '<node index="1" text="评论" resource-id="com.demo:id/comments" class="android.widget.Button" clickable="true" '
    'bounds="[40,400][1040,560]"/></hierarchy>'
)


def _reply(index: int, call: dict[str, Any]) -> str:
    arguments = call["arguments"]
    action = "点击“搜索”" if arguments["action"] == "click" else "任务已完成"
    think = f"当前在第 {index + 1} 屏，下一步{action}，以便继续完成任务"
    tool_call = json.dumps(call, ensure_ascii=False)
    return f"<think>{think}</think><action>{action}</action><tool_call>{tool_call}</tool_call>"


def add_effort_trajectory(workspace: Any, png: bytes, app: str = "趣看视频") -> int:
    """An unlabelled 5-step agent trajectory (4 clicks on 搜索, then done) with complete replies."""
    from annotator.domain.trajectory import CollectorKind, Outcome, TrajectoryStatus
    from annotator.storage import collection

    db = workspace.database
    instruction = collection.add_instruction(db, app, f"打开{app}，搜索并查看评论")
    trajectory = collection.start_trajectory(db, instruction, collection.Collector(CollectorKind.AGENT, "scripted"))
    for index in range(STEPS):
        arguments: dict[str, Any] = {"action": "click", "coordinate": [300 + index, 200]}
        if index == STEPS - 1:
            arguments = {"action": "terminate", "status": "success"}
        call = {"name": "mobile_use", "arguments": arguments}
        observation = collection.Observation(
            png, call, hierarchy_xml=HIERARCHY.encode(), package="com.demo", model_reply=_reply(index, call)
        )
        collection.record_step(db, workspace.blobs, trajectory, observation)
    collection.finish_trajectory(db, trajectory, TrajectoryStatus.COMPLETE, Outcome.SUCCESS, stop_reason="terminate")
    return trajectory


@dataclass
class EffortDriver:
    """Presses keys and clicks in a shown, active main window; `until(condition)` waits, processing events."""

    window: Any
    until: Callable[[Callable[[], bool]], Any]
    keys: int = 0
    clicks: int = 0
    step_ms: list[float] = field(default_factory=list)

    @property
    def view(self) -> Any:
        return self.window.annotate

    def press(self, key: Any, modifiers: Any = None) -> None:
        """One key press (a chord counts as one), sent where the keyboard focus is, as the person's would be."""
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QApplication

        self.keys += 1
        target = QApplication.focusWidget() or self.window
        QTest.keyClick(target, key, modifiers or Qt.KeyboardModifier.NoModifier)
        self.settle()

    def click_device(self, x: float, y: float) -> None:
        """A click on the screenshot at a device pixel."""
        from PySide6.QtCore import QPointF, Qt
        from PySide6.QtTest import QTest

        self.clicks += 1
        canvas = self.view.canvas
        where = canvas.viewportTransform().map(QPointF(x, y)).toPoint()
        QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, where)
        self.settle()

    def settle(self) -> None:
        view = self.view
        self.until(lambda: view.saver.idle() and not view.jobs.busy() and not self.window.browser.jobs.busy())

    def elements_known(self) -> None:
        view = self.view
        self.until(lambda: bool(view.canvas.elements()))

    # the paths --------------------------------------------------------------------------------------------------

    def accept_step(self) -> int:
        """Space on a correct step; the keys it took (the view must be on the next step afterwards)."""
        from PySide6.QtCore import Qt

        before, keys = self.view.current_step_id(), self.keys
        started = time.perf_counter()
        self.press(Qt.Key.Key_Space)
        self.until(lambda: self.view.current_step_id() != before)
        self.step_ms.append((time.perf_counter() - started) * 1000)
        return self.keys - keys

    def fix_click(self) -> tuple[int, int]:
        """Move the click from 搜索 to 评论 and confirm: (clicks, keys)."""
        from PySide6.QtCore import Qt

        self.elements_known()
        before, keys, clicks = self.view.current_step_id(), self.keys, self.clicks
        left, top, right, bottom = COMMENTS
        self.click_device((left + right) / 2, (top + bottom) / 2)
        self.press(Qt.Key.Key_Space)
        self.until(lambda: self.view.current_step_id() != before)
        return self.clicks - clicks, self.keys - keys

    def five_step_trajectory(self, trajectory_id: int) -> int:
        """From the trajectory list: open the next unlabelled one, accept every step, complete and submit."""
        from PySide6.QtCore import Qt

        keys = self.keys
        self.window.show_view("browser")
        self.press(Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)
        self.until(lambda: self.view.is_showing(trajectory_id))
        for _ in range(STEPS):
            self.press(Qt.Key.Key_Space)
        chord = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        self.press(Qt.Key.Key_Return, chord)
        self.until(lambda: self.view.record is not None and self.view.record.review_status == "annotated")
        return self.keys - keys

    def median_step_ms(self) -> float:
        return round(statistics.median(self.step_ms), 1) if self.step_ms else 0.0


def measure_effort(window: Any, until: Callable[[Callable[[], bool]], Any], png: bytes) -> dict[str, Any]:
    """In the child process, on a workspace holding one effort trajectory (id 1, the only unlabelled one): the
    whole-trajectory path from the list, then the one-step paths on two more trajectories; keys and times."""
    drive = EffortDriver(window, until)
    five_step = drive.five_step_trajectory(1)
    workspace = window.workspace
    accepting, fixing = (add_effort_trajectory(workspace, png, app) for app in ("优选商城", "设置"))
    window.open_trajectory(accepting)
    until(lambda: drive.view.is_showing(accepting))
    accept_keys = [drive.accept_step() for _ in range(STEPS - 1)]
    window.open_trajectory(fixing)
    until(lambda: drive.view.is_showing(fixing))
    clicks, keys = drive.fix_click()
    return {
        "keys_accept_step": max(accept_keys),
        "keys_fix_click": clicks + keys,
        "keys_five_step_trajectory": five_step,
        "accept_step_ms": drive.median_step_ms(),
    }
