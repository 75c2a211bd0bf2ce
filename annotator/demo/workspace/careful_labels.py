"""What a careful annotator makes of each step of a demo trajectory, judged against the scripted solution.

The virtual phone's instructions come with their solutions, so the demo can label like an annotator who
knows the task: replay the steps before this one on a fresh phone, ask what the solution does from here,
and compare. A step that does what the solution does is `correct`; a wait the solution did not need is
`redundant`; anything else (a tap on the wrong element, an early "done") is `wrong`, and its label shows
the move that should have been made. The texts follow Mobile-R1's stages: the <think> as current state ->
next move -> goal, the <action> as one clear low-level instruction naming the element by what the step's
UI hierarchy says it is; the target box is that element's bounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from annotator.demo.phone.agent_policy import Progress, planned_action, replay, same_action, screen_key
from annotator.demo.phone.agent_text import describe, where
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.tasks import Instruction
from annotator.device.hierarchy import UiNode, element_at, parse_hierarchy
from annotator.domain import actions as act
from annotator.domain.trajectory import LabelledTrajectory, Verdict
from annotator.storage.blobs import BlobStore

POINTED = {"click": "点击", "long_press": "长按"}
# Pages whose biggest bold text is not their title (a banner, a price): what a person calls them instead.
PAGE_WORDS = {
    ("优选商城", "home"): "首页",
    ("优选商城", "mine"): "“我的”页面",
    ("优选商城", "search"): "搜索页",
    ("趣看视频", "comments"): "评论区",
    ("趣看视频", "following"): "关注列表",
    ("趣看视频", "search"): "搜索页",
    ("趣看视频", "share"): "分享面板",
    ("趣看视频", "video"): "视频播放页",
}


@dataclass(frozen=True)
class Seen:
    """What the annotator has of one step: the action that was done and the screen's UI hierarchy."""

    tool_call: dict[str, Any] | None
    nodes: list[UiNode]  # empty when the step has no hierarchy dump


@dataclass(frozen=True)
class CarefulLabel:
    """One step's label: the verdict on what was done and the three stages of the move that was right."""

    verdict: Verdict
    think: str
    action_text: str
    tool_call: dict[str, Any] | None
    target_box: list[int] | None


def read_steps(blobs: BlobStore, trajectory: LabelledTrajectory) -> list[Seen]:
    seen = []
    for step in trajectory.executed:
        sha = step.raw.hierarchy_sha256
        nodes = parse_hierarchy(blobs.read_bytes(sha).decode("utf-8")) if sha else []
        seen.append(Seen(step.raw.tool_call, nodes))
    return seen


def _action(tool_call: dict[str, Any] | None) -> act.Action | None:
    try:
        return act.action_from_tool_call(tool_call) if tool_call is not None else None
    except act.ActionError:
        return None  # a malformed call did nothing on the phone


def label_steps(instruction: Instruction, steps: list[Seen]) -> list[CarefulLabel]:
    """A careful label per step; the phone before step i is a fresh phone that replayed steps 0..i-1."""
    actions = [_action(step.tool_call) for step in steps]
    labels = []
    for index, step in enumerate(steps):
        phone = VirtualPhone()
        progress = replay(phone, instruction, [done for done in actions[:index] if done is not None])
        labels.append(_label_step(phone, instruction, progress, actions[index], step))
    return labels


def _label_step(
    phone: VirtualPhone, instruction: Instruction, progress: Progress, done: act.Action | None, step: Seen
) -> CarefulLabel:
    screen = screen_words(phone)
    wanted = None if progress.terminated else planned_action(phone, instruction, progress)
    if wanted is None:  # the solution cannot go on from here: giving up is the honest move
        think = (
            f"当前状态：{screen}，找不到完成任务“{instruction.text}”需要的元素。下一步：结束任务。目标：如实报告失败。"
        )
        give_up = act.Terminate(status="failure")
        verdict = Verdict.CORRECT if done == give_up else Verdict.WRONG
        return CarefulLabel(verdict, think, "无法完成任务，结束", give_up.to_tool_call(), None)
    if isinstance(done, act.Wait) and not same_action(phone, done, wanted):
        seconds = f"{done.time:g}"
        think = (
            f"当前状态：{screen}，页面已经加载完成。下一步：等待{seconds}秒。"
            f"目标：这一步并不推进任务“{instruction.text}”，是多余的。"
        )
        return CarefulLabel(Verdict.REDUNDANT, think, f"等待{seconds}秒", step.tool_call, None)
    right = done is not None and same_action(phone, done, wanted)
    call = step.tool_call if right else wanted.to_tool_call()
    doing = pointed_text(step.nodes, call) or describe(phone, instruction, progress, wanted).action_text
    think = _think(phone, screen, instruction, progress, wanted, doing)
    verdict = Verdict.CORRECT if right else Verdict.WRONG
    return CarefulLabel(verdict, think, doing, call, box_at(step.nodes, call))


def _think(
    phone: VirtualPhone, screen: str, instruction: Instruction, progress: Progress, wanted: act.Action, doing: str
) -> str:
    task = instruction.text
    if isinstance(wanted, act.Terminate):
        return f"当前状态：{screen}，任务“{task}”要求的操作都已完成。下一步：结束任务。目标：报告任务成功。"
    if screen_key(phone) != progress.expected_screen:
        return (
            f"当前状态：{screen}，这是上一步误点进入的页面，不是完成任务需要的页面。"
            f"下一步：按返回键回到上一页。目标：回到正确的页面，继续完成任务“{task}”。"
        )
    last = progress.step == len(instruction.steps) - 1
    goal = f"做完这一步，任务“{task}”就完成了" if last else f"一步步完成任务“{task}”"
    return f"当前状态：{screen}。下一步：{doing}。目标：{goal}。"


def screen_words(phone: VirtualPhone) -> str:
    """The screen as a person names it: the app and the page."""
    app, page = phone.current, phone.current.page
    if app.package == phone.launcher_package:
        return "手机桌面"
    if app.label == "优选商城" and page.name == "results":
        return f"“优选商城”里“{page.params.get('query', '')}”的商品列表"
    word = PAGE_WORDS.get((app.label, page.name))
    return f"“{app.label}”的{word}" if word else where(phone)


def _target(nodes: list[UiNode], tool_call: dict[str, Any] | None) -> tuple[str, UiNode] | None:
    arguments = (tool_call or {}).get("arguments") or {}
    if arguments.get("action") not in POINTED or not nodes:
        return None
    node = element_at(nodes, *arguments["coordinate"])
    return (arguments["action"], node) if node is not None else None


def box_at(nodes: list[UiNode], tool_call: dict[str, Any] | None) -> list[int] | None:
    """The bounds of the UI element under the call's point (click, long press), from the step's hierarchy."""
    found = _target(nodes, tool_call)
    return list(found[1].bounds) if found else None


def pointed_text(nodes: list[UiNode], tool_call: dict[str, Any] | None) -> str | None:
    """ "点击“加入购物车”": the action on the element under the point, named by its text, description or label."""
    found = _target(nodes, tool_call)
    if found is None:
        return None
    verb, node = POINTED[found[0]], found[1]
    if node.class_name.endswith("Switch"):
        label = _row_label(nodes, node)
        return f"{verb}“{label}”的开关" if label else None
    name = node.text or node.content_desc or _inner_text(nodes, node)
    return f"{verb}“{name}”" if name else None


def _inner_text(nodes: list[UiNode], node: UiNode) -> str:
    """The first text inside an unnamed element (a list row, a product card)."""
    left, top, right, bottom = node.bounds
    for inner in nodes:
        box = inner.bounds
        inside = box[0] >= left and box[1] >= top and box[2] <= right and box[3] <= bottom
        if inner.order > node.order and inside and (inner.text or inner.content_desc):
            return inner.text or inner.content_desc
    return ""


def _row_label(nodes: list[UiNode], switch: UiNode) -> str:
    """The text to the left of a switch on its row (a switch's own text is only 开启 / 关闭)."""
    _, y = switch.center
    row = [n for n in nodes if n.text and n.bounds[2] <= switch.bounds[0] and n.bounds[1] <= y <= n.bounds[3]]
    return row[0].text if row else ""
