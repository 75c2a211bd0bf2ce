"""Test data for data selection: trajectories whose steps each type a text, and a real OpenAI-style server on
loopback that answers each step right on a planned number of its requests and wrong on the rest.

The server tells the steps apart as a model would see them: the task line of the prompt and the number of the
current step (the task level), or the step's own action text as the first step (the action level). Requests
of one step are counted, so a step asked N times with `right` planned is right exactly `right` times, whatever
order concurrent requests arrive in: its pass rate is right / N, computed by hand in the tests.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from annotator.domain import actions as act
from annotator.domain.response import format_response
from annotator.domain.trajectory import CollectorKind, Outcome, ReviewStatus, TrajectoryStatus
from annotator.storage import collection, labels
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, Seen, chat_completion, error_body
from tests.factories import make_png

TASK_LINE = re.compile(r"User Task:\s*(.+)")
CURRENT = re.compile(r"Step (\d+) \(current screen\)")
NO_ANSWER = -1  # planned `right` of a step whose every request fails (an empty reply)


@dataclass(frozen=True)
class Step:
    text: str  # what the step types (its labelled tool call)
    task_right: int  # answers right out of the requests with the task instruction
    action_right: int = 0  # answers right out of the requests with the step's action text


def action_text(text: str) -> str:
    return f"在搜索框输入“{text}”"


def add_typing_trajectory(
    workspace: Workspace,
    instruction: str,
    steps: list[Step],
    *,
    seed: int,
    review: ReviewStatus = ReviewStatus.ACCEPTED,
    wrong_at: int | None = None,
) -> list[int]:
    """A labelled, reviewed trajectory whose step i types steps[i].text; its step ids in order. `wrong_at`: that
    step is marked wrong and a correction (typing the text with "改" added) is inserted after it."""
    db = workspace.database
    instruction_id = collection.add_instruction(db, "淘宝", instruction)
    trajectory_id = collection.start_trajectory(db, instruction_id, collection.Collector(CollectorKind.HUMAN))
    ids = []
    for index, step in enumerate(steps):
        call = act.Type(text=step.text).to_tool_call()
        observation = collection.Observation(make_png(seed=seed * 100 + index), call)
        step_id = collection.record_step(db, workspace.blobs, trajectory_id, observation)
        values = {
            "think": f"第 {index} 步",
            "action_text": action_text(step.text),
            "tool_call": call,
            "verdict": "correct",
        }
        labels.update_label(db, step_id, values, person="小王")
        ids.append(step_id)
    collection.finish_trajectory(db, trajectory_id, TrajectoryStatus.COMPLETE, Outcome.SUCCESS, stop_reason="terminate")
    if wrong_at is not None:
        labels.update_label(db, ids[wrong_at], {"verdict": "wrong"}, person="小王")
        fixed = labels.insert_correction(db, trajectory_id, ids[wrong_at], person="小王", role="annotator")
        call = act.Type(text=steps[wrong_at].text + "改").to_tool_call()
        values = {
            "think": "改正",
            "action_text": action_text(steps[wrong_at].text + "改"),
            "tool_call": call,
            "verdict": "correct",
        }
        labels.update_label(db, fixed, values, person="小王")
    labels.set_review(db, trajectory_id, review, reviewer="李审核", comment="")
    return ids


def _texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    return [part.get("text", "") for part in content or [] if part.get("type") == "text"]


def step_key(body: dict[str, Any]) -> tuple[str, int]:
    """(the instruction the request asks, the current step's place: 0 for the first)."""
    texts = [text for message in body["messages"] for text in _texts(message)]
    tasks = [task for text in texts for task in TASK_LINE.findall(text)]
    current = [int(number) for text in texts for number in CURRENT.findall(text)]
    return tasks[-1].strip(), current[-1] - 1


class PlannedModel(ChatServer):
    """`with PlannedModel({instruction: [Step, ...]}) as model: ... model.base_url, model.asked`."""

    def __init__(self, plan: dict[str, list[Step]]) -> None:
        super().__init__([], respond=self._respond)
        self.plan: dict[tuple[str, int], tuple[str, int]] = {}
        for instruction, steps in plan.items():
            for index, step in enumerate(steps):
                self.plan[(instruction, index)] = (step.text, step.task_right)
                self.plan[(action_text(step.text), index)] = (step.text, step.action_right)
        self.asked: Counter[tuple[str, int]] = Counter()
        self.temperatures: set[float] = set()

    @property
    def requests(self) -> int:
        return sum(self.asked.values())

    def _respond(self, seen: Seen) -> Reply:
        key = step_key(seen.body)
        self.asked[key] += 1  # ChatServer.take holds its lock around this
        self.temperatures.add(seen.body.get("temperature"))
        if key not in self.plan:  # refused (400): the run ends at once and says why, instead of retrying
            return Reply(status=400, body=error_body(f"no planned answer for {key}"))
        text, right = self.plan[key]
        if right == NO_ANSWER:
            return Reply(body=chat_completion(""))  # a choice without text: a failed request, asked again later
        typed = text if self.asked[key] <= right else "不对"
        return Reply(body=chat_completion(format_response("想一想", "输入", act.Type(text=typed))))
