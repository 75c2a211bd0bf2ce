"""Weighted combinations of rewards as data, and what TRL's GRPOTrainer takes from them.

A recipe names rewards and weights; :func:`trl_rewards` returns ``reward_funcs`` and ``reward_weights`` for
``GRPOConfig(reward_weights=...)`` / ``GRPOTrainer(reward_funcs=...)``. TRL sums the weighted rewards per
completion and skips a None, so a reward that does not apply to a row (a text reward on a click) adds nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from trainer_bridge.rewards.action import action_reward, action_type_reward
from trainer_bridge.rewards.format import format_reward, think_answer_format_reward, think_tool_call_format_reward
from trainer_bridge.rewards.grounding import continuous_grounding_reward, iou_reward, point_in_box_reward
from trainer_bridge.rewards.text import text_f1_reward
from trainer_bridge.rewards.thinking import simple_thinking_reward
from trainer_bridge.rewards.trajectory import task_outcome_reward, trajectory_format_reward

RewardFunction = Callable[..., list[Any]]

REWARDS: MappingProxyType[str, RewardFunction] = MappingProxyType(
    {
        fn.__name__: fn
        for fn in (
            format_reward,
            think_answer_format_reward,
            think_tool_call_format_reward,
            action_reward,
            action_type_reward,
            point_in_box_reward,
            iou_reward,
            text_f1_reward,
            continuous_grounding_reward,
            simple_thinking_reward,
        )
    }
)
# Rewards of a whole rollout (Mobile-R1 stage 3): a completion is a trajectory's replies, a malformed one scores -1.
TASK_REWARDS: MappingProxyType[str, RewardFunction] = MappingProxyType(
    {fn.__name__: fn for fn in (trajectory_format_reward, task_outcome_reward)}
)
_ALL = {**REWARDS, **TASK_REWARDS}
MOBILE_R1 = ("qwen2.5-vl", "mobile-r1-paper")  # annotator.domain.prompts.MOBILE_R1_VARIANTS


@dataclass(frozen=True)
class Recipe:
    """Rewards by name with their weights. ``gate``: a format reward that must be 1 for the other rewards
    to count (InfiGUI-R1 computes R_acc only when R_format = 1); the gated rewards score 0 otherwise.
    ``variants``: the prompt variants (`annotator.domain.prompts`) whose answers the rewards read: an export in
    another variant would never earn the format term, so training refuses it."""

    paper: str
    weights: tuple[tuple[str, float], ...]
    variants: tuple[str, ...] = MOBILE_R1
    gate: str | None = None
    params: dict[str, dict[str, Any]] = field(default_factory=dict)  # keyword arguments per reward name

    def __post_init__(self) -> None:
        unknown = [name for name, _ in self.weights if name not in _ALL] + (
            [self.gate] if self.gate and self.gate not in _ALL else []
        )
        if unknown:
            raise ValueError(f"unknown rewards {unknown}; known: {', '.join(_ALL)}")


RECIPES: MappingProxyType[str, Recipe] = MappingProxyType(
    {
        # Mobile-R1 eq. 3: R_action = R_Act + R_Fmt.
        "mobile-r1": Recipe("Mobile-R1 eq. 3", (("action_reward", 1.0), ("format_reward", 1.0))),
        # Mobile-R1 stage 3: R_task = R_Fmt (the rollout's, in [-1, 1]) + R_judge (judge / 4, or the task's check);
        # bind the judge with configured(task_outcome_reward, judge=RolloutJudge(...)) when rollouts need one.
        "mobile-r1-task": Recipe(
            "Mobile-R1 4.2.3 (stage 3)", (("trajectory_format_reward", 1.0), ("task_outcome_reward", 1.0))
        ),
        # UI-R1 eq. 2: R = R_T + R_C + R_F.
        "ui-r1": Recipe(
            "UI-R1 eq. 2",
            (("action_type_reward", 1.0), ("point_in_box_reward", 1.0), ("think_answer_format_reward", 1.0)),
            variants=("ui-r1",),
        ),
        # GUI-R1 3.2: R_o = alpha R_f + beta R_acc, R_acc = R_act + R_point + R_text; alpha 0.2, beta 0.8.
        "gui-r1": Recipe(
            "GUI-R1 3.2 (alpha 0.2, beta 0.8)",
            (
                ("think_answer_format_reward", 0.2),
                ("action_type_reward", 0.8),
                ("point_in_box_reward", 0.8),
                ("text_f1_reward", 0.8),
            ),
            variants=("gui-r1",),
        ),
        # UI-AGILE 3.1-3.2: R = R_think (the "Simple Thinking" length reward, counted when the grounding is right) +
        # R_ground (the continuous grounding reward, 1 + exp(-4 d^2) inside the box).
        "ui-agile": Recipe("UI-AGILE 3.1-3.2", (("continuous_grounding_reward", 1.0), ("simple_thinking_reward", 1.0))),
        # InfiGUI-R1 3.2.1 and 4.1: w_f 0.1 R_format + w_a 0.9 R_acc, R_acc = w_t 0.2 R_type + w_p 0.8 R_param,
        # computed only when R_format = 1 (`<think>` then the mobile_use call, as its AndroidControl evaluation
        # reads). R_param is R_Act's exact argument / point-in-box check. With the sub-goal term (w_s R_subgoal
        # when R_param = 0), R_acc is subgoal.infigui_agent_reward_with(scorer): it needs a scoring LLM, so it is
        # built with one rather than named here.
        "infigui-r1": Recipe(
            "InfiGUI-R1 3.2.1 (w_f 0.1, w_a 0.9; w_t 0.2, w_p 0.8)",
            (("think_tool_call_format_reward", 0.1), ("action_type_reward", 0.18), ("action_reward", 0.72)),
            variants=("infigui-r1",),
            gate="think_tool_call_format_reward",
        ),
    }
)


def variant_problem(recipe: str | None, variant: str) -> str | None:
    """Why a run of reward recipe `recipe` cannot learn from an export whose answers are in prompt variant
    `variant` (its manifest's: one the recipe's format reward never pays for), or None.

    >>> variant_problem("infigui-r1", "mobile-r1-paper")
    "reward recipe infigui-r1 reads answers in the infigui-r1 prompt variant; this export's is mobile-r1-paper: export with --preset infigui-r1 (or --prompt-variant infigui-r1)"
    """  # noqa: E501
    name = recipe or "mobile-r1"
    if name not in RECIPES:
        return None  # an unknown recipe is refused on its own, naming the known ones
    wanted = RECIPES[name].variants
    if variant in wanted:
        return None
    hint = (
        f"--preset {wanted[0]} (or --prompt-variant {wanted[0]})"
        if len(wanted) == 1
        else f"--prompt-variant {' or '.join(wanted)}"
    )
    return (
        f"reward recipe {name} reads answers in the {' or '.join(wanted)} prompt variant; this export's is "
        f"{variant}: export with {hint}"
    )


def configured(fn: RewardFunction, name: str | None = None, **params: Any) -> RewardFunction:
    """``fn`` with keyword parameters bound, under a name TRL can log (a ``functools.partial`` has none).

    >>> configured(iou_reward, iou_threshold=0.5).__name__
    'iou_reward'
    """

    @functools.wraps(fn)
    def reward(completions: Sequence[Any], **columns: Any) -> list[Any]:
        return fn(completions, **params, **columns)

    reward.__name__ = reward.__qualname__ = name or fn.__name__
    return reward


def gated(fn: RewardFunction, gate: RewardFunction) -> RewardFunction:
    """``fn``'s scores where ``gate`` scores 1, 0 elsewhere (None stays None: the reward does not apply)."""

    @functools.wraps(fn)
    def reward(completions: Sequence[Any], **columns: Any) -> list[Any]:
        passes = gate(completions, **columns)
        scores = fn(completions, **columns)
        return [s if s is None or ok == 1.0 else 0.0 for s, ok in zip(scores, passes, strict=True)]

    return reward


def trl_rewards(recipe: str | Recipe) -> tuple[list[RewardFunction], list[float]]:
    """``(reward_funcs, reward_weights)`` of a recipe (by name from :data:`RECIPES`, or a Recipe).

    >>> funcs, weights = trl_rewards("gui-r1")
    >>> [fn.__name__ for fn in funcs]
    ['think_answer_format_reward', 'action_type_reward', 'point_in_box_reward', 'text_f1_reward']
    >>> weights
    [0.2, 0.8, 0.8, 0.8]
    """
    if isinstance(recipe, str):
        if recipe not in RECIPES:
            raise ValueError(f"unknown recipe {recipe!r}; known: {', '.join(RECIPES)}")
        recipe = RECIPES[recipe]
    gate = _ALL[recipe.gate] if recipe.gate else None
    funcs = []
    for name, _ in recipe.weights:
        fn = configured(_ALL[name], **recipe.params.get(name, {}))
        funcs.append(gated(fn, gate) if gate is not None and name != recipe.gate else fn)
    return funcs, [weight for _, weight in recipe.weights]
