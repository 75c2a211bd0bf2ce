"""Rule-based rewards of Mobile-R1, UI-R1, GUI-R1, InfiGUI-R1 and UI-AGILE with TRL's reward signature.

Each is ``fn(completions, **columns) -> list[float | None]`` over the `grpo-action` export's columns (None: not
applicable to the row). Pure Python and ``annotator.domain``; no torch, no database, no network. The LLM-scored
sub-goal reward (InfiGUI-R1 3.2.2) is in ``trainer_bridge.rewards.subgoal``, imported on its own: it asks an
endpoint through the project's client; so does ``trainer_bridge.rewards.rollout_judge``, the judge of Mobile-R1's
task-level reward (``trajectory_reward``).
"""

from __future__ import annotations

from trainer_bridge.rewards.action import action_reward, action_type_reward, grounding_rules
from trainer_bridge.rewards.format import format_reward, think_answer_format_reward, think_tool_call_format_reward
from trainer_bridge.rewards.grounding import continuous_grounding_reward, iou_reward, point_in_box_reward
from trainer_bridge.rewards.recipes import RECIPES, REWARDS, Recipe, configured, trl_rewards
from trainer_bridge.rewards.text import text_f1_reward
from trainer_bridge.rewards.thinking import ThinkingBounds, simple_thinking_reward
from trainer_bridge.rewards.trajectory import task_outcome_reward, trajectory_format_reward, trajectory_reward

__all__ = [
    "RECIPES",
    "REWARDS",
    "Recipe",
    "ThinkingBounds",
    "action_reward",
    "action_type_reward",
    "configured",
    "continuous_grounding_reward",
    "format_reward",
    "grounding_rules",
    "iou_reward",
    "point_in_box_reward",
    "simple_thinking_reward",
    "task_outcome_reward",
    "text_f1_reward",
    "think_answer_format_reward",
    "think_tool_call_format_reward",
    "trajectory_format_reward",
    "trajectory_reward",
    "trl_rewards",
]
