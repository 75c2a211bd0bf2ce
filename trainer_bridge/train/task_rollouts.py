"""A group of G rollouts of one instruction on the phones, for task-level GRPO (Mobile-R1 stage 3, eq. 4).

Each rollout is an online-evaluation rollout (`trainer_bridge.evaluate.online_rollout.RolloutRunner`): the phone
is put in its start state where it can be, the app restarted, and the policy acts up to the step limit, seeing
the full text history and the last W screenshots; every step is stored as a trajectory of the workspace whose
collector is the training run, so reviewers can open what the policy did. The phone's own success check says
whether the task is done where it has one; otherwise the project's judge scores the stored trajectory.

One worker per phone takes the group's rollouts from a shared queue, so the phones play at once (the paper ran
two emulators). A phone that goes away hands its rollout back to the others; when none is left the group fails
with what happened, and the training run stops there (its last checkpoint resumes it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from annotator.collect.agent import AgentDecider
from annotator.collect.dealing import Dealer, work_through
from annotator.collect.session import Settings
from annotator.device.android import AndroidDevice
from annotator.domain.coords import ResizeConfig
from annotator.domain.prompts import prompt_variant
from annotator.llm.client import LLMConfig
from annotator.storage.evaluations import RolloutRecord
from annotator.storage.workspace import Workspace
from trainer_bridge.evaluate.online_rollout import Item, OnlineJudge, RolloutJudge, RolloutRunner
from trainer_bridge.train.task_policy import Generation, PolicyChat


class RolloutError(RuntimeError):
    """The group could not be played: no phone left, or a rollout stopped for another reason than its policy."""


@dataclass(frozen=True)
class Play:
    """How rollouts are played: the collection settings and what the policy is shown."""

    max_steps: int
    history_images: int
    prompt_variant: str
    resize: ResizeConfig
    image_scale: float
    reply_retries: int

    def settings(self) -> Settings:
        return Settings(
            max_steps=self.max_steps,
            history_images=self.history_images,
            prompt_variant=self.prompt_variant,
            restart_app=True,
        )


@dataclass(frozen=True)
class PlayedRollout:
    """One rollout: its stored record (trajectory, steps, how it stopped, the check's or the judge's verdict) and
    every reply the policy generated in it, retries of unusable replies included."""

    index: int
    record: RolloutRecord
    generations: list[Generation]

    @property
    def replies(self) -> list[str]:
        return [generation.text for generation in self.generations]

    @property
    def checked_success(self) -> bool | None:
        """The phone's own check: True or False, None when the phone has none (the judge decides)."""
        return self.record.done if self.record.checked_by == "phone" else None


class _Phone:
    """One phone's runner with its own policy client (its generations are its rollout's)."""

    def __init__(
        self,
        workspace: Workspace,
        device: AndroidDevice,
        chat: PolicyChat,
        play: Play,
        policy: LLMConfig,
        stop: threading.Event,
        judged: bool,
    ) -> None:
        self.chat, self.serial = chat, device.serial
        decider = AgentDecider(
            chat,  # type: ignore[arg-type]
            history_images=play.history_images,
            resize=play.resize,
            reply_retries=play.reply_retries,
            prompt_variant=prompt_variant(play.prompt_variant),
            image_scale=play.image_scale,
        )
        self.runner = RolloutRunner(workspace, device, policy, play.settings(), stop, judged, decider=decider)


class RolloutGroups:
    """The phones, each with a worker; `play(item, count)` runs one instruction's group."""

    def __init__(
        self,
        workspace: Workspace,
        devices: list[AndroidDevice],
        make_chat: Callable[[], PolicyChat],
        play: Play,
        policy: LLMConfig,
        judge: OnlineJudge | None,
        judged_for: dict,
        *,
        judge_every: bool = False,
    ) -> None:
        if not devices:
            raise RolloutError("no phone to play the rollouts on")
        self.stop = threading.Event()
        self.phones = [
            _Phone(workspace, device, make_chat(), play, policy, self.stop, judge is not None) for device in devices
        ]
        self.judge = RolloutJudge(workspace, judge, policy, judged_for) if judge else None
        self.judge_every = judge_every  # Mobile-R1 4.2.3: the judge scores every rollout, checked or not
        self.lost: list[str] = []
        self._lost_why = ""
        self._pool = ThreadPoolExecutor(len(self.phones), "rollout-phone")

    def play(self, task: Item, count: int) -> list[PlayedRollout]:
        """`count` rollouts of the instruction, in index order; RolloutError when they cannot all be played."""
        live = [phone for phone in self.phones if phone.serial not in self.lost]
        if not live:
            raise RolloutError(f"every phone went away ({', '.join(self.lost)}); the last: {self._lost_why}")
        dealer: Dealer[int] = Dealer(range(count))  # a phone that goes away hands its rollout to the others
        played: dict[int, PlayedRollout] = {}

        def on(phone: _Phone) -> Callable[[int], str | None]:
            def one(index: int) -> str | None:
                rollout, lost = self._one(phone, task, index)
                if lost is not None:
                    self.lost.append(phone.serial)
                    self._lost_why = f"{phone.serial}: {lost}"
                elif rollout is not None:
                    played[index] = rollout
                return lost

            return one

        for future in [self._pool.submit(work_through, dealer, phone.serial, on(phone)) for phone in live]:
            future.result()
        if dealer.left():
            raise RolloutError(f"every phone went away ({', '.join(self.lost)}); the last: {self._lost_why}")
        return [played[index] for index in range(count)]

    def _one(self, phone: _Phone, task: Item, index: int) -> tuple[PlayedRollout | None, str | None]:
        """One rollout on `phone`: played (and judged where needed), or why the phone cannot go on."""
        phone.chat.take()  # nothing of an earlier, abandoned rollout is counted in this one
        result = phone.runner.run(replace(task, run=index))
        generations = phone.chat.take()
        if result.phone_lost is not None:
            return None, result.phone_lost
        record = result.record
        if record is None or record.error is not None:
            why = record.error if record else "nothing was played"
            raise RolloutError(f"rollout {index} of {task.text!r} on {phone.serial} did not end: {why}")
        if self.judge is not None and result.needs_judge:
            record = self.judge.verdict(record)
        elif self.judge is not None and self.judge_every:  # the phone's verdict stays; the judge's score is added
            record = replace(record, judge_score=self.judge.verdict(record).judge_score)
        return PlayedRollout(index, record, generations), None

    def close(self) -> None:
        self.stop.set()
        self._pool.shutdown(wait=True)
        for phone in self.phones:
            phone.runner.close()
