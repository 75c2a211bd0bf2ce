"""The scripted agent's words: Chinese <think> (state -> next action -> goal) and <action> texts."""

from __future__ import annotations

from dataclasses import dataclass

from annotator.demo.phone.agent_policy import Progress, screen_key
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.tasks import Instruction, Scroll, Tap, Target
from annotator.domain import actions as act

BUTTON_WORDS = {"Back": "返回键", "Home": "主屏幕键", "Enter": "回车键", "Menu": "菜单键"}


@dataclass
class Turn:
    """One reply: what the agent thinks, says it does, and calls (in phone pixels until scaled)."""

    think: str
    action_text: str
    action: act.Action


def where(phone: VirtualPhone) -> str:
    """The screen in words: the app, and the title in its top bar when it has one."""
    app = phone.current
    if app.package == phone.launcher_package:
        return "手机桌面"
    title = _bar_title(phone)
    return f"“{app.label}”的“{title}”页面" if title and title != app.label else f"“{app.label}”"


def _bar_title(phone: VirtualPhone) -> str | None:
    """The largest text inside the top bar (`toolbar`), not a price or a count."""
    bars = [rect for node, rect, _ in phone.find(lambda n: n.rid.split("/")[-1] == "toolbar")]
    if not bars:
        return None
    left, top, right, bottom = bars[0]
    inside = [
        node
        for node, rect, _ in phone.find(lambda n: bool(n.text) and not any(ch.isdigit() for ch in n.text))
        if left <= rect[0] and rect[2] <= right and top <= rect[1] and rect[3] <= bottom
    ]
    return max(inside, key=lambda node: node.style.size).text if inside else None


def element_name(phone: VirtualPhone, target: Target) -> str:
    """What a person calls the element: its text or description; for a bare switch, its row's title."""
    if target.text or target.desc or target.contains:
        return target.describe()
    found = phone.find(target.matches)
    if not found:
        return "目标元素"
    node, rect, _ = found[0]
    if node.cls.endswith("Switch"):
        row = [
            n.text
            for n, r, _ in phone.find(lambda n: bool(n.text))
            if r[2] <= rect[0] and r[1] < rect[3] and rect[1] < r[3]
        ]
        return f"“{row[0]}”的开关" if row else "开关"
    name = node.text or node.desc or node.hint
    return f"“{name}”" if name else "目标元素"


def _doing(phone: VirtualPhone, instruction: Instruction, progress: Progress, action: act.Action) -> str:
    """The low-level instruction for `action`, naming the element it aims at."""
    step = instruction.steps[progress.step] if progress.step < len(instruction.steps) else None
    named = element_name(phone, step.target) if isinstance(step, Tap) else ""
    quoted = named if named.startswith("“") or named.endswith("开关") or named == "目标元素" else f"“{named}”"
    match action:
        case act.Open(text=name):
            return f"打开“{name}”应用"
        case act.Click() if isinstance(step, Tap):
            return f"点击{quoted}"
        case act.LongPress() if isinstance(step, Tap):
            return f"长按{quoted}"
        case act.Swipe() if isinstance(step, Tap):
            return f"向上滑动列表，寻找{quoted}"
        case act.Swipe() if isinstance(step, Scroll) and step.direction == "down":
            return "向下滑动屏幕，回到上一条内容"
        case act.Swipe():
            return "向上滑动屏幕，查看下一条内容"
        case act.Type(text=text):
            return f"在输入框中输入“{text}”"
        case act.SystemButton(button=button):
            return f"按{BUTTON_WORDS[button]}"
        case act.Wait(time=seconds):
            return f"等待{seconds:g}秒"
    return "继续操作"


def describe(phone: VirtualPhone, instruction: Instruction, progress: Progress, action: act.Action) -> Turn:
    """The right next move, explained."""
    screen = where(phone)
    if isinstance(action, act.Terminate):
        think = f"当前在{screen}，任务“{instruction.text}”要求的操作都已完成，可以结束任务。"
        return Turn(think, "任务已完成，结束", action)
    if screen_key(phone) != progress.expected_screen:
        think = f"当前在{screen}，这不是我要去的页面，上一步可能点错了。"
        think += f"先按返回键回到上一页，再继续完成任务“{instruction.text}”。"
        return Turn(think, "按返回键回到上一页", action)
    doing = _doing(phone, instruction, progress, action)
    last = progress.step == len(instruction.steps) - 1
    goal = "这样任务就完成了" if last else "以便继续完成后面的步骤"
    think = f"当前在{screen}。为了完成任务“{instruction.text}”，下一步需要{doing}，{goal}。"
    return Turn(think, doing, action)


def wrong_tap(click: act.Click) -> Turn:
    think = "当前页面上的目标看起来就在这里，我点击这个位置进入下一步。"
    return Turn(think, "点击屏幕上的目标元素", click)


def redundant_wait() -> Turn:
    think = "页面可能还没有加载完成，先等待一下再继续操作。"
    return Turn(think, "等待2秒", act.Wait(time=2))


def early_terminate(instruction: Instruction) -> Turn:
    think = f"看起来任务“{instruction.text}”已经完成了，可以结束。"
    return Turn(think, "任务已完成，结束", act.Terminate(status="success"))


def give_up(instruction: Instruction) -> Turn:
    think = f"在当前页面上找不到完成任务“{instruction.text}”需要的元素，无法继续。"
    return Turn(think, "无法完成任务，结束", act.Terminate(status="failure"))
