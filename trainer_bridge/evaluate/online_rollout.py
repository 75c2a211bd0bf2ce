"""One rollout of an online evaluation on one phone, and the judge's verdict on one where the phone cannot tell.

A rollout is a collection run like any other (`annotator.collect`): the phone is put in its start state where it
can be (the virtual phone's `reset`), the app is restarted, the policy acts through an `AgentDecider` up to the
step limit, and every step is stored in a trajectory whose collector is the policy's model, so a reviewer opens
it in the app like any agent run. Then the phone is asked whether the task is done (`task_check`); when it
cannot say, the trajectory goes to the judge.

A run that did not end (the phone went away or failed, the policy's endpoint failed, the user stopped it) says
nothing about the policy: its trajectory is closed (an evaluation never resumes one: the phone has moved on) and
its record keeps the reason in `error`, so the next run of the evaluation tries that rollout again.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, replace

from annotator.collect.agent import AgentDecider
from annotator.collect.session import CollectionRun, RunResult, Settings, StopKind, Task
from annotator.device.android import AndroidDevice
from annotator.device.errors import DeviceError
from annotator.device.success_check import reset_to_start, task_check
from annotator.domain.judge_settings import DEFAULT_PROMPT, JudgeSettings, builtin_prompt
from annotator.domain.prompts import prompt_variant
from annotator.domain.trajectory import CollectorKind, Outcome, TrajectoryStatus
from annotator.judge.runner import JudgeRunner
from annotator.judge.screens import workspace_screens
from annotator.llm.client import LLMClient, LLMConfig
from annotator.storage import collection, judging
from annotator.storage.evaluations import RolloutRecord
from annotator.storage.workspace import Workspace

DONE_SCORE = 3  # a judge score of 3 or 4: the task is done (Mobile-R1's rubric: 3 done with a few detours)


@dataclass(frozen=True)
class Item:
    """One rollout to run: an instruction and which of its runs (0, 1, ...)."""

    instruction_id: int
    text: str
    app: str
    run: int
    restart_app: bool = True  # the app opened on its start page first; False: the policy starts on the home screen

    @property
    def key(self) -> tuple[int, int]:
        return self.instruction_id, self.run


@dataclass(frozen=True)
class Rollout:
    """What one try gave: the record to store (None when nothing ran), and what it means for the worker."""

    record: RolloutRecord | None
    needs_judge: bool = False  # ended, and the phone had no check: the judge decides `done`
    phone_lost: str | None = None  # why this phone cannot go on; the item goes back to the queue
    policy_failed: bool = False  # the policy's endpoint failed after the client's retries


@dataclass(frozen=True)
class OnlineJudge:
    """The judge of the rollouts whose phone has no success check: the project's judge with its built-in prompt."""

    model: str
    base_url: str | None = None  # None: the policy's endpoint (one server may serve both, as the demo's does)
    prompt: str = DEFAULT_PROMPT

    def settings(self) -> JudgeSettings:
        return JudgeSettings(self.prompt, builtin_prompt(self.prompt), self.model)

    def endpoint(self, policy: LLMConfig) -> LLMConfig:
        return replace(policy, base_url=self.base_url or policy.base_url, model=self.model)


class RolloutRunner:
    """Runs rollouts on one phone, one at a time, with a decider of its own (its history is per run)."""

    def __init__(
        self,
        workspace: Workspace,
        device: AndroidDevice,
        endpoint: LLMConfig,
        settings: Settings,
        stop: threading.Event,
        judged: bool,
        decider: AgentDecider | None = None,
    ) -> None:
        """`decider`: the policy's own (a model being trained asks in its process); else one on `endpoint`."""
        self.workspace, self.device, self.settings, self.stop, self.judged = workspace, device, settings, stop, judged
        variant = prompt_variant(settings.prompt_variant)
        self.decider = decider or AgentDecider(
            LLMClient(endpoint), history_images=settings.history_images, prompt_variant=variant
        )
        self.collector = collection.Collector(
            CollectorKind.AGENT, agent_model=endpoint.model, agent_endpoint=endpoint.base_url
        )
        # The apps' packages the workspace knows, over which the caller's own table for this phone wins.
        self.packages = collection.device_app_packages(workspace.database, device.serial) | device.packages
        self.screens = workspace_screens(workspace)  # the judge's copy of each screenshot, made while driving

    def close(self) -> None:
        self.decider.close()
        self.decider.client.close()

    def run(self, item: Item) -> Rollout:
        try:
            reset_to_start(self.device)  # here, not by the run (reset_phone=False): a phone gone is said apart
        except DeviceError as error:
            return Rollout(None, phone_lost=f"before the rollout: {error}")
        settings = replace(self.settings, restart_app=item.restart_app, reset_phone=False)
        run = CollectionRun(
            self.workspace,
            self.device,
            self.decider,
            settings=settings,
            packages=self.packages,
            stop=self.stop,
            after_record=self.screens.prepare,
        )
        result = run.start(Task(item.instruction_id, item.text, item.app), self.collector)
        if result.status == TrajectoryStatus.INTERRUPTED:
            return self._unfinished(item, result)
        claimed = result.stop == StopKind.TERMINATED and result.outcome == Outcome.SUCCESS
        record = self._record(item, result, claimed=claimed)
        try:
            done = task_check(self.device, item.text)
        except DeviceError as error:  # the trajectory ended and stays complete; the rollout is tried again
            failed = replace(record, error=f"the phone's success check failed: {error}")
            return Rollout(failed, phone_lost=f"after the rollout: {error}")
        if done is not None:
            return Rollout(replace(record, checked_by="phone", done=done))
        if self.judged:
            return Rollout(replace(record, checked_by="judge"), needs_judge=True)
        return Rollout(replace(record, checked_by="none"))

    def _record(
        self, item: Item, result: RunResult, *, claimed: bool | None, error: str | None = None
    ) -> RolloutRecord:
        return RolloutRecord(
            item.instruction_id,
            item.run,
            result.trajectory_id,
            self.device.serial,
            result.steps,
            str(result.stop),
            claimed_success=claimed,
            checked_by=None,
            done=None,
            judge_score=None,
            error=error,
        )

    def _unfinished(self, item: Item, result: RunResult) -> Rollout:
        """The run stopped before it ended: close its trajectory (kept for review) and say why."""
        with contextlib.suppress(ValueError, LookupError):  # already closed or taken: it stays as it is
            collection.close_trajectory(self.workspace.database, result.trajectory_id)
        record = self._record(item, result, claimed=None, error=result.stop_reason)
        lost = result.stop_reason if result.stop.phone_lost else None
        return Rollout(record, phone_lost=lost, policy_failed=result.stop == StopKind.DECIDER_FAILED)


class RolloutJudge:
    """Scores ended rollouts' trajectories with the project's judge (stored like any judge run's scores)."""

    def __init__(self, workspace: Workspace, judge: OnlineJudge, policy: LLMConfig, selection: dict) -> None:
        """`selection`: what the judge run is recorded as judging for (an evaluation, a training run)."""
        self.workspace, self.selection = workspace, selection
        self.runner = JudgeRunner(workspace, judge.settings(), judge.endpoint(policy))

    def verdict(self, record: RolloutRecord) -> RolloutRecord:
        """The record with the judge's score and `done` (score >= 3), or with the judge's error and `done` None."""
        assert record.trajectory_id is not None  # only ended rollouts, which have their trajectory, are judged
        selection = self.selection | {"trajectory_ids": [record.trajectory_id]}
        summary = self.runner.run([record.trajectory_id], concurrency=1, selection=selection)
        answers = judging.answers_about(self.workspace.database, record.trajectory_id)
        answer = next((found for found in answers if found.config_id == self.runner.config_id), None)
        if answer is None or answer.reward is None:
            why = (answer.error if answer else None) or summary.message or "no usable score"
            return replace(record, checked_by="judge", done=None, judge_score=None, error=f"judge: {why}")
        return replace(
            record, checked_by="judge", done=answer.reward >= DONE_SCORE, judge_score=answer.reward, error=None
        )
