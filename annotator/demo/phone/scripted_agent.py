"""The scripted agent: reads a chat request as a model would and answers in the Mobile-R1 format.

It knows the virtual phone's instructions and their solutions, replays the history's tool calls on its
own phone, writes Chinese <think>/<action> text, and now and then makes the mistakes real agents make:
a tap on the wrong element, a redundant step, or an early terminate. Same request, same reply. Asked for a
step's draft (the request lists the screen's elements), it answers as a careful teacher: the plan's own move.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

from annotator.demo.phone import agent_text
from annotator.demo.phone.agent_policy import Progress, planned_action, replay, screen_key
from annotator.demo.phone.agent_text import Turn
from annotator.demo.phone.chat_request import (
    RequestError,
    Scale,
    history_actions,
    message_parts,
    message_texts,
    screenshot_size,
    tool_calls_in,
)
from annotator.demo.phone.instructions import instruction_by_text
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_grounding import grounding_reply
from annotator.demo.phone.scripted_judge import ScriptedJudge, is_judge_request
from annotator.demo.phone.scripted_subgoal import subgoal_reply
from annotator.demo.phone.solver import apply_action
from annotator.demo.phone.tasks import Instruction
from annotator.domain import actions as act
from annotator.domain.draft_prompt import draft_marker
from annotator.domain.response import format_response
from annotator.domain.subgoal_prompt import read_subgoal_request

TASK_LINE = re.compile(r"User Task:\s*(.+)")
MISTAKES = {"wrong_element": 0.08, "redundant": 0.05, "early_terminate": 0.03}


@dataclasses.dataclass
class Request:
    task: str
    history: list[dict[str, Any]]  # tool calls, in the coordinate space of the screenshots
    image_size: tuple[int, int] | None


def read_request(messages: list[dict[str, Any]]) -> Request:
    """The task, the history of tool calls and the latest screenshot's size, from chat messages."""
    task, history, size = None, [], None
    for message in messages:
        for text in message_texts(message):
            tasks = TASK_LINE.findall(text)
            if tasks:  # the prompt above the task line describes the tool; only what follows is history
                task, text = tasks[-1].strip(), text.rsplit("User Task:", 1)[-1]
            history += tool_calls_in(text)
        for part in message_parts(message):
            if part.get("type") == "image_url":
                size = screenshot_size(str((part.get("image_url") or {}).get("url", "")))
    if task is None:
        raise RequestError("no 'User Task:' line in the messages; send the mobile agent prompt")
    return Request(task, history, size)


def is_draft_request(messages: list[dict[str, Any]]) -> bool:
    """A request for a step's draft (annotator.llm.drafts): it lists the screen's elements after the screenshot."""
    marker = draft_marker()
    return any(marker in text for message in messages for text in message_texts(message))


class ScriptedAgent:
    """Answers agent prompts for the virtual phone's instruction set. `seed` varies the mistakes."""

    def __init__(self, seed: int = 0, mistakes: dict[str, float] | None = None) -> None:
        self.seed = seed
        self.mistakes = MISTAKES if mistakes is None else mistakes

    def reply(self, messages: list[dict[str, Any]]) -> str:
        scoring = read_subgoal_request(messages)
        if scoring is not None:  # a reward's scoring LLM (InfiGUI-R1's sub-goal guidance)
            return subgoal_reply(*scoring)
        if (grounding := grounding_reply(messages)) is not None:  # UI-AGILE 3.4: a tile's point, a crop's yes/no
            return grounding
        if is_judge_request(messages):  # one endpoint serves the agent and the judge, as one model would
            return ScriptedJudge(self.seed).reply(messages)
        if is_draft_request(messages) and self.mistakes:  # a teacher drafting labels: the plan's move, no slips
            return ScriptedAgent(self.seed, mistakes={}).reply(messages)
        request = read_request(messages)
        instruction = instruction_by_text(request.task)
        if instruction is None:
            return format_response(
                f"任务“{request.task}”不在虚拟手机的指令集中，我不知道该怎么完成它。",
                "结束任务，标记为失败",
                act.Terminate(status="failure"),
            )
        turn = self.next_turn(instruction, request)
        scale = Scale(VirtualPhone(), request.image_size)
        return format_response(turn.think, turn.action_text, scale.to_image(turn.action))

    def next_turn(self, instruction: Instruction, request: Request) -> Turn:
        phone = VirtualPhone()
        history = history_actions(request.history, Scale(phone, request.image_size))
        progress = replay(phone, instruction, history)
        wanted = planned_action(phone, instruction, progress)
        if progress.terminated or wanted is None:
            return agent_text.give_up(instruction)
        on_plan = screen_key(phone) == progress.expected_screen
        if history and on_plan and not isinstance(wanted, act.Terminate | act.SystemButton):
            mistake = self._mistake(instruction, history, progress, wanted)
            if mistake is not None:
                return mistake
        return agent_text.describe(phone, instruction, progress, wanted)

    def _mistake(
        self, instruction: Instruction, history: list[act.Action], progress: Progress, wanted: act.Action
    ) -> Turn | None:
        """Sometimes, deterministically for this request, a realistic mistake instead of the right move."""
        roll = random.Random(f"{self.seed}:{instruction.uid}:{len(history)}").random()
        wrong, redundant = self.mistakes.get("wrong_element", 0), self.mistakes.get("redundant", 0)
        early = self.mistakes.get("early_terminate", 0)
        if roll < wrong:
            target = wrong_target(instruction, history, wanted) if isinstance(wanted, act.Click) else None
            return None if target is None else agent_text.wrong_tap(target)
        if roll < wrong + redundant:
            return agent_text.redundant_wait()
        if roll < wrong + redundant + early and progress.step >= 2:
            return agent_text.early_terminate(instruction)
        return None


def fresh_replay(instruction: Instruction, history: list[act.Action]) -> tuple[VirtualPhone, Progress]:
    phone = VirtualPhone()
    return phone, replay(phone, instruction, history)


def wrong_target(instruction: Instruction, history: list[act.Action], wanted: act.Click) -> act.Click | None:
    """The clickable element nearest the right one whose tap only navigates (Back undoes it)."""
    phone, progress = fresh_replay(instruction, history)
    here = screen_key(phone)
    cx, cy = wanted.coordinate
    candidates = phone.find(lambda node: node.on_tap is not None and node.field_key is None)
    points = sorted(
        {((r[0] + r[2]) // 2, (r[1] + r[3]) // 2) for _, r, _ in candidates},
        key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2,
    )
    for point in points[1:6]:
        trial, _ = fresh_replay(instruction, history)
        state_before = instruction.check(trial)
        apply_action(trial, act.Click(coordinate=point))
        moved = screen_key(trial) not in (here, progress.expected_screen) and trial.foreground == phone.foreground
        apply_action(trial, act.SystemButton(button="Back"))
        if moved and screen_key(trial) == here and instruction.check(trial) == state_before:
            return act.Click(coordinate=point)
    return None
