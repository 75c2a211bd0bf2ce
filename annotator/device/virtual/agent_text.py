"""The scripted agent's words: Chinese <think> (state -> next action -> goal) and <action> texts."""

from __future__ import annotations

from dataclasses import dataclass

from annotator.device.virtual.agent_policy import Progress, screen_key
from annotator.device.virtual.phone import VirtualPhone
from annotator.device.virtual.tasks import Instruction, Scroll, Tap
from annotator.domain import actions as act

BUTTON_WORDS = {"Back": "返回键", "Home": "主屏幕键", "Enter": "回车键", "Menu": "菜单键"}


@dataclass
class Turn:
    """One reply: what the agent thinks, says it does, and calls (in phone pixels until scaled)."""

    think: str
    action_text: str
    action: act.Action


def where(phone: VirtualPhone) -> str:
    """The screen in words: the app and the title of its top bar when it has one."""
    app = phone.current
    if app.package == phone.launcher_package:
        return "手机桌面"
    titles = [node.text for node, _, _ in phone.find(lambda n: n.text != "" and n.style.size >= 50 and n.style.bold)]
    return f"“{app.label}”的“{titles[0]}”页面" if titles else f"“{app.label}”"


def _doing(instruction: Instruction, progress: Progress, action: act.Action) -> str:
    """The low-level instruction for `action`, naming the element it aims at."""
    step = instruction.steps[progress.step] if progress.step < len(instruction.steps) else None
    match action:
        case act.Open(text=name):
            return f"打开“{name}”应用"
        case act.Click() if isinstance(step, Tap):
            return f"点击“{step.target.describe()}”"
        case act.LongPress() if isinstance(step, Tap):
            return f"长按“{step.target.describe()}”"
        case act.Swipe() if isinstance(step, Tap):
            return f"向上滑动列表，寻找“{step.target.describe()}”"
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
    doing = _doing(instruction, progress, action)
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
