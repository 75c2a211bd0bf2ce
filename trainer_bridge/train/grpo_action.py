"""Action-level GRPO on a `grpo-action` export (Mobile-R1 stage 2, and UI-R1 / GUI-R1 / InfiGUI-R1 style runs):
TRL's `GRPOTrainer` with the rewards and weights of the recipe's `reward_recipe` (`trainer_bridge.rewards.RECIPES`).

    accelerate launch -m trainer_bridge.train.grpo_action --recipe mobile-r1-stage2 --data EXPORT --model MODEL \\
        --output_dir runs/stage2
    python -m trainer_bridge.train.grpo_action --recipe tiny-grpo --data EXPORT --output_dir runs/tiny-grpo

The export's ground-truth columns (gt_action_model, gt_bbox_model, image size, ...) reach the rewards as TRL
passes every dataset column to them. Each logged step also writes a few of its completions with every reward's
score to `events.jsonl`; vLLM generates when the recipe sets `use_vllm` and vLLM is installed, transformers
otherwise.

Two options of the papers that need more than a reward function (`ActionOptions`, recipe keys beside TRL's):
`crop_resampling` (UI-AGILE 3.3, on in `ui-agile`: `trainer_bridge.train.crop_resampling`) and `subgoal_reward`
(InfiGUI-R1 3.2.2, on in `infigui-r1`: R_agent's sub-goal term, scored by the LLM endpoint the run names).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from annotator.domain.export_manifest import ExportManifest
from trainer_bridge.rewards.completions import completion_text
from trainer_bridge.rewards.recipes import RECIPES, trl_rewards, variant_problem
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

SUBGOAL_KEYS = ("subgoal_base_url", "subgoal_model")
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


@dataclass
class ActionOptions:
    """The action-level scripts' own keys, mixed into TRL's config dataclass (so a recipe sets them like TRL's)."""

    crop_resampling: bool = field(
        default=False,
        metadata={
            "help": "UI-AGILE 3.3: a sample whose generations all "
            "score zero grounding is generated again on a crop holding the target box."
        },
    )
    crop_factor: float = field(default=0.6, metadata={"help": "UI-AGILE Table 1: each try's size / the last's."})
    crop_tries: int = field(
        default=4, metadata={"help": "UI-AGILE 4.1: sampling attempts at most per sample, the first uncropped."}
    )
    subgoal_reward: bool = field(
        default=False,
        metadata={
            "help": "InfiGUI-R1 3.2.2: R_agent with the sub-goal "
            "term (reward_recipe infigui-r1), scored by the endpoint below."
        },
    )
    subgoal_base_url: str | None = field(default=None, metadata={"help": "OpenAI-compatible URL of the scorer."})
    subgoal_model: str | None = field(default=None, metadata={"help": "The scoring model's name at that URL."})
    subgoal_api_key_env: str = field(default="OPENAI_API_KEY", metadata={"help": "Env var holding its API key."})
    subgoal_concurrency: int = field(default=8, metadata={"help": "Scoring requests at once."})


_CONFIGS: dict[str, type] = {}


def action_config(base: type) -> type:
    """TRL's config class `base` with the ActionOptions keys (a dataclass subclass: TRL's parser reads it), made
    once and named in this module (`ActionGRPOConfig`, `ActionRLOOConfig`) so the trainer can pickle it."""
    name = f"Action{base.__name__}"
    if name not in _CONFIGS:
        _CONFIGS[name] = dataclass(type(name, (base, ActionOptions), {"__module__": __name__, "__qualname__": name}))
    return _CONFIGS[name]


def __getattr__(name: str) -> Any:
    """The config classes for unpickling (a checkpoint's training_args.bin) in a process that made none yet; they
    are made on demand because making them imports TRL."""
    if name in ("ActionGRPOConfig", "ActionRLOOConfig"):
        import trl

        return action_config(getattr(trl, name.removeprefix("Action")))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_parser() -> Any:
    from trl import GRPOConfig

    return script_parser(action_config(GRPOConfig))


def subgoal_problem(settings: Mapping[str, Any]) -> str | None:
    """Why a run with `settings` (a recipe's keys) cannot score the sub-goal term, or None."""
    if not settings.get("subgoal_reward"):
        return None
    if (settings.get("reward_recipe") or "mobile-r1") != "infigui-r1":
        return "subgoal_reward is InfiGUI-R1's R_agent: it goes with reward_recipe infigui-r1"
    if not all(settings.get(key) for key in SUBGOAL_KEYS):
        return (
            "the sub-goal reward (InfiGUI-R1 3.2.2) needs a scoring LLM: set subgoal_base_url and subgoal_model "
            "(its key from $OPENAI_API_KEY or subgoal_api_key_env), or subgoal_reward false"
        )
    return None


def recipe_rewards(name: str, config: Any) -> tuple[list[Callable[..., Any]], list[float]]:
    """The reward recipe's functions and weights; with `subgoal_reward`, InfiGUI-R1's format and R_agent whose
    failed-parameter branch asks the configured endpoint (weights 0.1 and 0.9 as the recipe's own)."""
    if not getattr(config, "subgoal_reward", False):
        return trl_rewards(name)
    problem = subgoal_problem(vars(config) | {"reward_recipe": name})
    if problem:
        raise TrainingSetupError(problem)
    from trainer_bridge.rewards.subgoal import SubgoalScorer, infigui_rewards_with

    # The key is read from the environment variable the run names (the project's client: keyring, then placeholder).
    scorer = SubgoalScorer(
        config.subgoal_base_url,
        config.subgoal_model,
        api_key_env=config.subgoal_api_key_env,
        concurrency=config.subgoal_concurrency,
    )
    return infigui_rewards_with(scorer)


def reward_functions(bridge: BridgeArguments, config: Any, scored: ScoredCompletions) -> list[Callable[..., Any]]:
    """The reward recipe's functions (recorded); its weights become the config's unless the recipe set them."""
    name = bridge.reward_recipe or "mobile-r1"
    if name not in RECIPES:
        raise TrainingSetupError(f"unknown reward recipe {name!r}; known: {', '.join(RECIPES)}")
    functions, weights = recipe_rewards(name, config)
    if config.reward_weights is None:
        config.reward_weights = weights
    elif len(config.reward_weights) != len(functions):
        raise TrainingSetupError(
            f"reward_weights has {len(config.reward_weights)} values; {name} has {len(functions)} rewards"
        )
    return [scored.wrap(function) for function in functions]


def train(argv: Sequence[str] | None = None) -> None:
    from trl import GRPOTrainer

    optimise(argv, make_parser(), "grpo_action", GRPOTrainer)


def crop_trainer(trainer_class: Any, config: Any, manifest: ExportManifest) -> Any:
    """`trainer_class` with UI-AGILE's cropping-based resampling when the run asks for it, and its settings (the
    export's coordinate space and pixel limits, from the manifest: the crops are sized as the processor sizes)."""
    if not getattr(config, "crop_resampling", False):
        return trainer_class
    from trl import GRPOTrainer

    from annotator.domain.model_space import model_space
    from trainer_bridge.train.crop_resampling import CropResampling, CropSettings

    if not issubclass(trainer_class, GRPOTrainer):
        raise TrainingSetupError("crop_resampling is for the grpo_action script (TRL's GRPOTrainer)")
    try:
        space = model_space(manifest.coords, min_pixels=manifest.min_pixels, max_pixels=manifest.max_pixels)
        settings = CropSettings(config.crop_factor, config.crop_tries, space, seed=config.seed)
    except ValueError as error:
        raise TrainingSetupError(f"crop_resampling: {error}") from None
    return type("CropResamplingGRPOTrainer", (CropResampling, trainer_class), {"crop_settings": settings})


def optimise(argv: Sequence[str] | None, parser: Any, script: str, trainer_class: Any) -> None:
    """The body of the action-level scripts: GRPO here, RLOO in rloo_action (the same inputs, another advantage)."""
    bridge, config = parse(parser, argv)
    check_script(bridge, script)
    manifest = read_manifest(bridge.data, "grpo-action")  # before any model loads: a wrong folder costs nothing
    problem = variant_problem(bridge.reward_recipe, manifest.prompt_variant)
    if problem:
        raise TrainingSetupError(problem)
    scored = ScoredCompletions()
    rewards = reward_functions(bridge, config, scored)
    trainer_class = crop_trainer(trainer_class, config, manifest)  # before any model loads, as every check
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
