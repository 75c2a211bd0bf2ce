"""Action-level GRPO on a `grpo-action` export (Mobile-R1 stage 2, and UI-R1 / GUI-R1 / InfiGUI-R1 style runs):
TRL's `GRPOTrainer` with the rewards and weights of the recipe's `reward_recipe` (`trainer_bridge.rewards.RECIPES`).

    accelerate launch -m trainer_bridge.train.grpo_action --recipe mobile-r1-stage2 --data EXPORT --model MODEL \\
        --output_dir runs/stage2
    python -m trainer_bridge.train.grpo_action --recipe tiny-grpo --data EXPORT --output_dir runs/tiny-grpo

The export's ground-truth columns (gt_action_model, gt_bbox_model, image size, ...) reach the rewards as TRL
passes every dataset column to them. Each logged step also writes a few of its completions with every reward's
score to `events.jsonl`; vLLM generates when the recipe sets `use_vllm` and vLLM is installed, transformers
otherwise.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, cast

from trainer_bridge.rewards.completions import completion_text
from trainer_bridge.rewards.recipes import RECIPES, trl_rewards
from trainer_bridge.train.common import (
    BridgeArguments,
    TrainingSetupError,
    check_script,
    fit,
    parse,
    read_manifest,
    run_main,
    script_parser,
    train_split,
)

SHOWN_COMPLETIONS = 4  # per logged step: enough to see what the policy writes, small enough to follow live
SHOWN_CHARACTERS = 600


class ScoredCompletions:
    """The latest batch's completions and each reward's scores, kept as the rewards compute them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._texts: list[str] = []
        self._scores: dict[str, list[Any]] = {}

    def wrap(self, reward: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
        """`reward`, recording what it scored (TRL logs by the function's name, which is kept)."""
        name = reward.__name__

        def recorded(completions: Sequence[Any], **columns: Any) -> list[Any]:
            scores = reward(completions, **columns)
            with self._lock:
                texts = [completion_text(completion)[:SHOWN_CHARACTERS] for completion in completions]
                if texts != self._texts:  # a new batch: the first reward TRL asks about it
                    self._texts, self._scores = texts, {}
                self._scores[name] = list(scores)
            return scores

        recorded.__name__ = recorded.__qualname__ = name
        return recorded

    def take(self) -> list[dict[str, Any]]:
        """A few rows of the latest batch (each with its completion and every reward's score), once."""
        with self._lock:
            rows = [
                {"completion": text} | {name: scores[index] for name, scores in self._scores.items()}
                for index, text in enumerate(self._texts[:SHOWN_COMPLETIONS])
            ]
            self._texts, self._scores = [], {}
        return rows


def make_parser() -> Any:
    from trl import GRPOConfig

    return script_parser(GRPOConfig)


def reward_functions(bridge: BridgeArguments, config: Any, scored: ScoredCompletions) -> list[Callable[..., Any]]:
    """The reward recipe's functions (recorded); its weights become the config's unless the recipe set them."""
    name = bridge.reward_recipe or "mobile-r1"
    if name not in RECIPES:
        raise TrainingSetupError(f"unknown reward recipe {name!r}; known: {', '.join(RECIPES)}")
    functions, weights = trl_rewards(name)
    if config.reward_weights is None:
        config.reward_weights = weights
    elif len(config.reward_weights) != len(functions):
        raise TrainingSetupError(f"reward_weights has {len(config.reward_weights)} values; {name} has {len(functions)}"
                                 " rewards")  # fmt: skip
    return [scored.wrap(function) for function in functions]


def train(argv: Sequence[str] | None = None) -> None:
    from trl import GRPOTrainer

    optimise(argv, make_parser(), "grpo_action", GRPOTrainer)


def optimise(argv: Sequence[str] | None, parser: Any, script: str, trainer_class: Any) -> None:
    """The body of the action-level scripts: GRPO here, RLOO in rloo_action (the same inputs, another advantage)."""
    bridge, config = parse(parser, argv)
    check_script(bridge, script)
    manifest = read_manifest(bridge.data, "grpo-action")  # before any model loads: a wrong folder costs nothing
    scored = ScoredCompletions()
    rewards = reward_functions(bridge, config, scored)
    dataset = train_split(bridge.data, bridge.split)

    fit(
        trainer_class,
        bridge,
        config,
        manifest,
        dataset,
        completions=scored,
        reward_funcs=cast(Any, rewards),
        processor_options={"padding_side": "left"},
    )


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(train, argv)


if __name__ == "__main__":
    sys.exit(main())
