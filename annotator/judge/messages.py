"""What the judge is shown of a trajectory, and the chat messages that carry it.

The system message is the judge prompt (Mobile-R1 B.3 by default). The user message gives the instruction,
then, in order, the initial screen, each step's reasoning, action and tool call, and the screen after it:
the screenshots stored with the next step (the last step has none after it). Screenshots are scaled down to
the policy's size and the tool calls' points with them, so that a point names the same pixel the judge sees.
Human raters of a study see the same `JudgedTrajectory`, without any score. The trajectory may be stored or
held only in memory (a rollout being scored): the messages come from the domain trajectory and a source of its
screenshots, nothing else.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, Protocol

from annotator.domain.coords import fit_within, scale_point
from annotator.domain.geometry import ScreenSize
from annotator.domain.judge_settings import ImagePolicy
from annotator.domain.response import tool_call_json
from annotator.domain.trajectory import LabelledTrajectory

POINT_KEYS = ("coordinate", "coordinate2")
NOTHING = "（无）"


class ScreenSource(Protocol):
    """Where the judge's screenshots come from: the workspace's kept copies, or a rollout's own images."""

    def png(self, sha256: str, original: ScreenSize, size: ScreenSize) -> bytes:
        """The screenshot `sha256` (of size `original`) as a PNG of `size`; OSError/ValueError when unreadable."""
        ...


@dataclass(frozen=True)
class JudgedStep:
    index: int  # 0-based, as stored
    think: str | None
    action: str | None
    tool_call: dict[str, Any] | None  # device pixels of this step's screenshot
    screenshot_sha256: str
    screen: ScreenSize


@dataclass(frozen=True)
class JudgedTrajectory:
    trajectory_id: int | None  # None: held only in memory
    instruction: str
    app: str
    steps: tuple[JudgedStep, ...]


def judged_trajectory(trajectory: LabelledTrajectory) -> JudgedTrajectory:
    """The trajectory as executed: the agent's own reasoning and action text (people who teleoperated wrote
    none), and the tool call that was carried out; no label a person added afterwards."""
    steps = []
    for step in trajectory.executed:
        done = step.as_collected()
        steps.append(
            JudgedStep(step.index, done.think, done.action_text, done.tool_call, step.screenshot_sha256, step.screen)
        )
    return JudgedTrajectory(trajectory.id, trajectory.instruction, trajectory.app, tuple(steps))


def shown_screens(step_count: int, policy: ImagePolicy) -> list[int]:
    """Indices of the steps whose screenshot is sent: step 0's is the initial screen, step k's (k >= 1) the
    screen after step k-1. With a cap, the first and the last ones are kept."""
    chosen = ([0] if policy.initial and step_count else []) + (
        list(range(1, step_count)) if policy.after_each_step else []
    )
    cap = policy.max_images
    if cap is None or len(chosen) <= cap:
        return chosen
    return chosen[:1] + chosen[len(chosen) - (cap - 1) :] if cap > 1 else chosen[:1]


def screen_size(step: JudgedStep, policy: ImagePolicy) -> ScreenSize:
    return fit_within(step.screen, policy.max_side)


def tool_call_in_image(step: JudgedStep, policy: ImagePolicy) -> dict[str, Any] | None:
    """The step's tool call with its points in the pixels of the screenshot as sent."""
    call = step.tool_call
    if call is None or not isinstance(call.get("arguments"), dict):
        return call
    target = screen_size(step, policy)
    arguments = dict(call["arguments"])
    for key in POINT_KEYS:
        point = arguments.get(key)
        if isinstance(point, (list, tuple)) and len(point) == 2:
            arguments[key] = list(scale_point(point, step.screen, target))
    return {**call, "arguments": arguments}


def step_text(number: int, step: JudgedStep, policy: ImagePolicy) -> str:
    call = tool_call_in_image(step, policy)
    call_text = f"<tool_call>{tool_call_json(call)}</tool_call>" if call is not None else NOTHING
    return (
        f"第 {number} 步\n推理：{(step.think or '').strip() or NOTHING}\n"
        f"动作：{(step.action or '').strip() or NOTHING}\n工具调用：{call_text}"
    )


def build_judge_messages(
    judged: JudgedTrajectory, prompt_text: str, policy: ImagePolicy, screens: ScreenSource
) -> tuple[list[dict[str, Any]], int]:
    """(chat messages, how many screenshots they hold). OSError/ValueError/BlobError when a screenshot is
    unreadable."""
    shown = set(shown_screens(len(judged.steps), policy))
    parts: list[dict[str, Any]] = [
        {"type": "text", "text": f"用户指令：{judged.instruction}\n\n动作历史（共 {len(judged.steps)} 步）："}
    ]

    def add_screen(position: int, caption: str) -> None:
        step = judged.steps[position]
        png = screens.png(step.screenshot_sha256, step.screen, screen_size(step, policy))
        url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        parts.extend([{"type": "text", "text": caption}, {"type": "image_url", "image_url": {"url": url}}])

    if 0 in shown:
        add_screen(0, "初始界面：")
    for number, step in enumerate(judged.steps, start=1):
        parts.append({"type": "text", "text": step_text(number, step, policy)})
        if number in shown:
            add_screen(number, f"第 {number} 步执行后的界面：")
    messages: list[dict[str, Any]] = [{"role": "system", "content": prompt_text}, {"role": "user", "content": parts}]
    return messages, len(shown)
