"""The scripted judge: answers judge prompts about virtual-phone trajectories with plausible 0-4 scores.

It reads the instruction and the tool calls from the request (the format of annotator/judge/messages.py),
replays them on a fresh virtual phone and asks the instruction's own success check, then scores as the
Mobile-R1 rubric would: 4 done without detours, 3 done with a few, 2 done with many or half-way, 1 barely
started, 0 nothing useful. Like a real judge it is sometimes a level off: a seeded roll per request moves about
a quarter of the scores by one, so a human study has disagreements to find. Same request, same reply.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from annotator.demo.phone.agent_policy import replay
from annotator.demo.phone.chat_request import (
    Scale,
    history_actions,
    message_parts,
    message_texts,
    screenshot_size,
    tool_calls_in,
)
from annotator.demo.phone.instructions import instruction_by_text
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.tasks import Instruction

INSTRUCTION_LINE = re.compile(r"用户指令：\s*(.+)")
NOISE = 0.25  # how often the judge is a level off


def is_judge_request(messages: list[dict[str, Any]]) -> bool:
    return any(INSTRUCTION_LINE.search(text) for message in messages for text in message_texts(message))


def _read(messages: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]], tuple[int, int] | None]:
    """The instruction, the tool calls in step order, and the first screenshot's size."""
    task, calls, size = "", [], None
    for message in messages:
        if message.get("role") == "system":
            continue  # the rubric's example JSON is not a step
        for text in message_texts(message):
            found = INSTRUCTION_LINE.search(text)
            if found:
                task = found.group(1).strip()
            calls += tool_calls_in(text)
        for part in message_parts(message):
            if part.get("type") == "image_url" and size is None:
                size = screenshot_size(str((part.get("image_url") or {}).get("url", "")))
    return task, calls, size


def _level(done: bool, fraction: float, extra: int) -> int:
    if done:
        return 4 if extra == 0 else 3 if extra <= 2 else 2
    if fraction >= 0.5:
        return 2
    return 1 if fraction > 0 else 0


def _reason(instruction: Instruction, done: bool, steps_done: int, extra: int, count: int) -> str:
    needed = len(instruction.steps) + 1
    coherence = f"轨迹连贯性：共 {count} 步，解决方案需要 {needed} 步，" + (
        f"多出 {extra} 步冗余或偏离的操作。" if extra else "没有明显冗余。"
    )
    completion = (
        f"任务完成情况：任务“{instruction.text}”已完成（{instruction.success}）。"
        if done
        else f"任务完成情况：任务“{instruction.text}”未完成，"
        f"只完成了 {steps_done}/{len(instruction.steps)} 个关键步骤。"
    )
    return coherence + completion


class ScriptedJudge:
    def __init__(self, seed: int = 0, noise: float = NOISE) -> None:
        self.seed, self.noise = seed, noise

    def reply(self, messages: list[dict[str, Any]]) -> str:
        task, calls, size = _read(messages)
        instruction = instruction_by_text(task)
        if instruction is None:
            reason = f"无法评估：任务“{task}”不在虚拟手机的指令集中，看不出轨迹是否朝目标前进。"
            return json.dumps({"reason": reason, "reward": 0}, ensure_ascii=False)
        actions = history_actions(calls, Scale(VirtualPhone(), size))
        phone = VirtualPhone()
        progress = replay(phone, instruction, actions)  # carries the actions out, up to a terminate
        done = instruction.check(phone)
        extra = max(0, len(actions) - (len(instruction.steps) + 1))
        level = _level(done, progress.step / max(1, len(instruction.steps)), extra)
        roll = random.Random(f"{self.seed}:{instruction.uid}:{json.dumps(calls, sort_keys=True)}")
        if roll.random() < self.noise:
            level = min(4, max(0, level + roll.choice((-1, 1))))
        reason = _reason(instruction, done, progress.step, extra, len(actions))
        return json.dumps({"reason": reason, "reward": level}, ensure_ascii=False)
