"""What the judge is shown of a trajectory, and the chat messages that carry it.

The system message is the judge prompt (Mobile-R1 B.3 by default). The user message gives the instruction,
then, in order, the initial screen, each step's reasoning, action and tool call, and the screen after it:
the screenshots stored with the next step, and after the last step the final screen a run that stopped without
terminating keeps (a terminate changes no screen). A cap on the screenshots keeps the first and the last ones and
says how many it left out (`JudgeMessages.dropped`). Screenshots are scaled down to
the policy's size and the tool calls' points with them, so that a point names the same pixel the judge sees.
Human raters of a study see the same `JudgedTrajectory`, without any score. The trajectory may be stored or
held only in memory (a rollout being scored): the messages come from the domain trajectory and a source of its
screenshots, nothing else.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from annotator.domain.coords import fit_within, scale_point
from annotator.domain.geometry import ScreenSize
from annotator.domain.judge_settings import ImagePolicy
from annotator.domain.response import tool_call_json
from annotator.domain.trajectory import LabelledTrajectory, Screenshot

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
    final_screen: Screenshot | None = None  # the screen after the last step, when the run kept one

    def screen(self, number: int) -> Screenshot:
        """Screen `number`: 0 the initial one, k the one after step k (1-based): the next step's screenshot, or the
        final screen after the last step."""
        if number < len(self.steps):
            step = self.steps[number]
            return Screenshot(step.screenshot_sha256, step.screen)
        assert self.final_screen is not None and number == len(self.steps)
        return self.final_screen


class JudgeMessages(NamedTuple):
    messages: list[dict[str, Any]]
    images: int  # screenshots sent
    dropped: int  # screenshots the image cap left out


def judged_trajectory(trajectory: LabelledTrajectory) -> JudgedTrajectory:
    """The trajectory as executed: the agent's own reasoning and action text (people who teleoperated wrote
    none), and the tool call that was carried out; no label a person added afterwards."""
    steps = []
    for step in trajectory.executed:
        done = step.as_collected()
        steps.append(
            JudgedStep(step.index, done.think, done.action_text, done.tool_call, step.screenshot_sha256, step.screen)
        )
    final = trajectory.final_screen
    return JudgedTrajectory(trajectory.id, trajectory.instruction, trajectory.app, tuple(steps), final)


def shown_screens(step_count: int, policy: ImagePolicy, *, final: bool = False) -> list[int]:
    """The screens sent: 0 is the initial screen, k (k >= 1) the screen after step k (the last step has one only
    with a `final` screen). With a cap, the first and the last ones are kept."""
    chosen = available_screens(step_count, policy, final=final)
    cap = policy.max_images
    if cap is None or len(chosen) <= cap:
        return chosen
    return chosen[:1] + chosen[len(chosen) - (cap - 1) :] if cap > 1 else chosen[:1]


def available_screens(step_count: int, policy: ImagePolicy, *, final: bool = False) -> list[int]:
    """The screens the policy would send without its cap."""
    last = step_count if final else step_count - 1
    initial = [0] if policy.initial and step_count else []
    return initial + (list(range(1, last + 1)) if policy.after_each_step else [])


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
) -> JudgeMessages:
    """The chat messages, how many screenshots they hold and how many the cap left out. OSError/ValueError/
    BlobError when a screenshot is unreadable."""
    final = judged.final_screen is not None
    shown = set(shown_screens(len(judged.steps), policy, final=final))
    dropped = len(available_screens(len(judged.steps), policy, final=final)) - len(shown)
    parts: list[dict[str, Any]] = [
        {"type": "text", "text": f"用户指令：{judged.instruction}\n\n动作历史（共 {len(judged.steps)} 步）："}
    ]

    def add_screen(position: int, caption: str) -> None:
        shot = judged.screen(position)
        png = screens.png(shot.sha256, shot.screen, fit_within(shot.screen, policy.max_side))
        url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        parts.extend([{"type": "text", "text": caption}, {"type": "image_url", "image_url": {"url": url}}])

    if 0 in shown:
        add_screen(0, "初始界面：")
    for number, step in enumerate(judged.steps, start=1):
        parts.append({"type": "text", "text": step_text(number, step, policy)})
        if number in shown:
            add_screen(number, f"第 {number} 步执行后的界面：")
    messages: list[dict[str, Any]] = [{"role": "system", "content": prompt_text}, {"role": "user", "content": parts}]
    return JudgeMessages(messages, len(shown), dropped)
