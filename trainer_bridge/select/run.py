"""Running a selection: the policy answers every selected step N times at a temperature, and each answer's reward
under a chosen rule is stored with it, so that the keep rules (`filters`) can read the pass rates back.

This is UI-R1's, GUI-R1's and InfiGUI-R1's selection step: evaluate the base model on each candidate sample
and keep those whose success rate says they are worth training on. It is an offline evaluation of kind
"selection" (trainer_bridge.evaluate.offline): the same steps, prompts and images an export would make, asked
at the task level and, for InfiGUI-R1's reasoning-bottleneck rule, at the action level too. The reward name and
pass threshold are part of the run's stored settings and of its fingerprint, so the same command goes on with
the same run (answered requests are not asked again) and a changed reward or threshold is a new run.
"""

from __future__ import annotations

import inspect
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from annotator.domain.model_space import ModelSpace
from annotator.storage.selection import TrajectorySelection
from annotator.storage.workspace import Workspace
from trainer_bridge.evaluate.offline import EvalJob, EvalProgress, EvalResult, EvalSettings, OfflineEvaluation
from trainer_bridge.evaluate.policy import Policy
from trainer_bridge.export.sft import Sample
from trainer_bridge.rewards.recipes import REWARDS, RewardFunction

# The rewards that score one step's reply against the grpo-action columns (REWARDS also holds rollout-level ones).
STEP_REWARDS = tuple(
    name
    for name in (
        "action_reward",
        "action_type_reward",
        "point_in_box_reward",
        "continuous_grounding_reward",
        "iou_reward",
        "text_f1_reward",
        "format_reward",
        "think_answer_format_reward",
        "think_tool_call_format_reward",
        "simple_thinking_reward",
    )
    if name in REWARDS
)
DEFAULT_REWARD = "action_reward"  # Mobile-R1's R_Act: the action type and its argument or point are right
DEFAULT_THRESHOLD = 1.0  # a sample passes when its reward is at least this: R_Act is 0 or 1
SelectionReward = Callable[[str, Sample], float | None]


@dataclass(frozen=True)
class SelectionJob:
    """A selection as asked: who is asked is the policy's; this is how and what about."""

    name: str
    settings: EvalSettings  # its temperature, samples and levels are the selection's
    selection: TrajectorySelection = field(default_factory=TrajectorySelection)
    reward: str = DEFAULT_REWARD
    threshold: float = DEFAULT_THRESHOLD
    concurrency: int = 4
    resume: bool = True

    def __post_init__(self) -> None:
        if self.reward not in STEP_REWARDS:
            raise ValueError(f"reward {self.reward!r}: expected one of {', '.join(STEP_REWARDS)}")
        if not math.isfinite(self.threshold):
            raise ValueError(f"pass threshold: a finite number, got {self.threshold}")


def _takes_extent(fn: RewardFunction) -> bool:
    return "extent" in inspect.signature(fn).parameters


def selection_reward(name: str, space: ModelSpace) -> SelectionReward:
    """The reward `name` of one reply to one step's sample, with the columns TRL would pass it (the grpo-action
    ground truth and `image_size`) and, for a reward that takes it, the model space's coordinate `extent`, as
    offline scoring does (trainer_bridge.evaluate.scoring). None where the reward does not apply to the step."""
    fn = REWARDS[name]
    extent = _takes_extent(fn)

    def score(text: str, sample: Sample) -> float | None:
        assert sample.ground_truth is not None  # a grpo-action sample always has one
        screen = sample.record.screen
        image = space.image_size(screen)
        columns: dict[str, Any] = {key: [value] for key, value in sample.ground_truth.items()}
        columns["image_size"] = [[image.width, image.height]]
        if extent:
            columns["extent"] = space.extent(screen)
        value = fn([text], **columns)[0]
        return None if value is None else float(value)

    return score


def run_selection(
    workspace: Workspace,
    policy: Policy,
    job: SelectionJob,
    on_progress: Callable[[EvalProgress], None] | None = None,
    stop: threading.Event | None = None,
) -> EvalResult:
    """Ask, score and store (module docstring); `stop` set: the requests in flight finish, the run is kept."""
    reward = selection_reward(job.reward, job.settings.space)
    evaluation = EvalJob(
        job.name,
        job.settings,
        job.selection,
        kind="selection",
        concurrency=job.concurrency,
        resume=job.resume,
        extra={"reward": job.reward, "pass_threshold": job.threshold},
        # EvalJob types its reward as float, but stores it as PredictionRecord.reward (float | None): a reward
        # that does not apply to a step (None) is kept as no score instead of a made-up 0.
        reward=reward,
    )
    return OfflineEvaluation(workspace, policy, evaluation).run(on_progress, stop)
