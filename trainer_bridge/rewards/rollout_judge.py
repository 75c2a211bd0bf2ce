"""The project's judge asked about a rollout held only in memory (Mobile-R1 stage 3's R_judge).

Stage 3 rollouts are scored as they finish, before (or without) being stored, so the judge gets the domain
trajectory and its screenshots as bytes (`annotator.judge.screens.MemoryScreens`) and the same prompt, image
policy and reply parsing as every other judge run (`annotator.judge.runner.judge_trajectory`). Use it as the
``judge`` of :func:`trainer_bridge.rewards.trajectory.trajectory_reward`.
"""

from __future__ import annotations

from collections.abc import Sequence

from annotator.domain.judge_settings import DEFAULT_PROMPT, JudgeSettings, builtin_prompt
from annotator.domain.trajectory import LabelledTrajectory
from annotator.judge.runner import judge_trajectory
from annotator.judge.screens import MemoryScreens
from annotator.llm.client import LLMConfig


class RolloutJudge:
    """`judge(trajectory, screenshots) -> 0-4 or None`; the reason of the last answer is kept in `last_error`."""

    def __init__(self, endpoint: LLMConfig, settings: JudgeSettings | None = None) -> None:
        self.endpoint = endpoint
        self.settings = settings or JudgeSettings(DEFAULT_PROMPT, builtin_prompt(DEFAULT_PROMPT), endpoint.model)
        self.last_error: str | None = None

    def __call__(self, trajectory: LabelledTrajectory, screenshots: Sequence[bytes]) -> int | None:
        record = judge_trajectory(trajectory, self.settings, self.endpoint, MemoryScreens.of(list(screenshots)))
        self.last_error = record.error
        return record.reward
