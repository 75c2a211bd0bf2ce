"""Task-level online GRPO on phones (Mobile-R1 stage 3, eq. 4-5) on a `grpo-task` export (any format): one row per
instruction.

    accelerate launch -m trainer_bridge.train.grpo_task --recipe mobile-r1-stage3 --data EXPORT --model STAGE2 \\
        --output_dir runs/stage3 --workspace_dir DATA --adb_port 5037
    python -m trainer_bridge.train.grpo_task --recipe tiny-grpo-task --data EXPORT --output_dir runs/tiny-task \\
        --workspace_dir DATA

For each instruction the policy plays `num_generations` rollouts (G; the paper's 4) on the phones, up to
`max_rollout_steps` actions (14), seeing the full text history and the last W screenshots, each scaled by the
export's image scale (the paper halves them). W, the prompt variant, the pixel limits and the image scale are the
export's (its manifest), as `trainer-bridge eval --export` asks: the recipe's `history_images` is used only for a
manifest that does not say W, with a note; the rollouts are stored as trajectories of the
workspace (`--workspace_dir` / `--workspace_db`, which `trainer-bridge train` fills with its own), whose
collector is the run, for reviewers to audit. The phones: those named (`--devices`, on `--adb_port`'s server),
every usable one of that server, or, with `virtual_phones: N` and none named, N built-in virtual phones started
by the run itself (the tiny recipe's two). Instructions without a success check on the phone are judged by
`judge_model` at `judge_base_url`; without a judge they take no part in their group.

On several processes each takes its share of the phones (or starts its own virtual ones).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from transformers import TrainingArguments

from annotator.domain.export_manifest import MANIFEST_FILE, ExportManifest
from trainer_bridge.rewards.recipes import variant_problem
from trainer_bridge.rewards.trajectory import OUTCOME_BY_JUDGE, outcome_problem
from trainer_bridge.train.common import (
    TrainingSetupError,
    check_script,
    fit,
    parse,
    read_manifest,
    run_main,
    script_parser,
    train_split,
)

COLUMNS = ("id", "app", "instruction", "package")
TASK_RECIPE = "mobile-r1-task"


@dataclass
class TaskGRPOConfig(TrainingArguments):
    """transformers' training arguments and the rollouts' (Mobile-R1 Appendix E for the defaults)."""

    num_generations: int = field(default=4, metadata={"help": "G: rollouts per instruction (the paper's 4)."})
    temperature: float = field(default=1.0, metadata={"help": "Sampling temperature of the rollouts."})
    max_completion_length: int = field(default=512, metadata={"help": "Tokens per reply at most."})
    epsilon: float = field(default=0.2, metadata={"help": "Eq. 1's clip (the paper gives none: TRL's 0.2)."})
    max_rollout_steps: int = field(default=14, metadata={"help": "Actions per rollout at most (the paper's 14)."})
    history_images: int = field(
        default=2,
        metadata={
            "help": "W: screenshots shown, the current one included; the export's manifest says it "
            "(this is used only for a manifest that does not)."
        },
    )
    reply_retries: int = field(default=2, metadata={"help": "Unusable replies asked again before a run ends."})
    workspace_dir: str | None = field(default=None, metadata={"help": "The workspace that stores the rollouts."})
    workspace_db: str | None = field(default=None, metadata={"help": "Its database URL (else its folder's)."})
    adb_port: int | None = field(default=None, metadata={"help": "The adb server of the phones (else 5037)."})
    devices: list[str] = field(default_factory=list, metadata={"help": "Serials to play on (else every one)."})
    virtual_phones: int = field(default=0, metadata={"help": "Start this many virtual phones when none is named."})
    judge_model: str | None = field(default=None, metadata={"help": "Judge of instructions the phone can't check."})
    judge_base_url: str | None = field(default=None, metadata={"help": "The judge's OpenAI-compatible endpoint."})
    outcome_by: str = field(
        default=OUTCOME_BY_JUDGE,
        metadata={
            "help": "R_Traj: 'judge' scores every rollout (Mobile-R1 4.2.3); 'check' takes the phone's own "
            "success check where it has one, the judge elsewhere."
        },
    )
    remove_unused_columns: bool = False  # the rows are instructions to play, not model inputs


def make_parser() -> Any:
    return script_parser(TaskGRPOConfig)


def task_rewards(name: str | None) -> tuple[list[Any], list[float]]:
    """The reward recipe's functions and weights; each must score whole rollouts (rewards.TASK_REWARDS)."""
    from trainer_bridge.rewards.recipes import RECIPES, TASK_REWARDS, trl_rewards

    chosen = name or TASK_RECIPE
    if chosen not in RECIPES:
        raise TrainingSetupError(f"unknown reward recipe {chosen!r}; known: {', '.join(RECIPES)}")
    per_step = [reward for reward, _ in RECIPES[chosen].weights if reward not in TASK_REWARDS]
    if per_step:
        raise TrainingSetupError(
            f"reward recipe {chosen!r} scores steps ({', '.join(per_step)}), not rollouts: use {TASK_RECIPE}"
        )
    return trl_rewards(chosen)


def task_rows(data: str, split: str) -> Any:
    """The export's instructions, in any format: the trl folder, or `data/<split>.parquet` (easyr1) or `.jsonl`."""
    folder = Path(data)
    if (folder / "dataset_dict.json").is_file():
        return train_split(data, split)
    from datasets import load_dataset

    for suffix, builder in ((".parquet", "parquet"), (".jsonl", "json")):
        if (folder / "data" / f"{split}{suffix}").is_file():
            return load_dataset(builder, data_files=str(folder / "data" / f"{split}{suffix}"), split="train")
    raise TrainingSetupError(f"{data} has no {split!r} split (data/{split}.jsonl or .parquet, or the trl format)")


def check_rollouts(config: TaskGRPOConfig) -> None:
    if config.num_generations < 2:
        raise TrainingSetupError("num_generations must be 2 or more: advantages compare rollouts within a group")
    if min(config.max_rollout_steps, config.history_images, config.max_completion_length) < 1:
        raise TrainingSetupError("max_rollout_steps, history_images and max_completion_length: at least 1")
    if config.judge_model and not config.judge_base_url:
        raise TrainingSetupError("judge_model needs judge_base_url: the judge's OpenAI-compatible endpoint")
    problem = outcome_problem(config.outcome_by, config.judge_model, config.judge_base_url)
    if problem:
        raise TrainingSetupError(problem)


@contextlib.contextmanager
def phones(config: TaskGRPOConfig) -> Iterator[list[Any]]:
    """The phones this process plays on: started virtual ones, or its share of the adb server's."""
    from annotator.device.adb import adb_client
    from annotator.device.android import AndroidDevice

    if config.virtual_phones and not config.devices and config.adb_port is None:
        from annotator.demo.phone.adb_server import VirtualAdbServer
        from annotator.demo.phone.phone import VirtualPhone

        started = [VirtualPhone(serial=f"virtual-{number}") for number in range(1, config.virtual_phones + 1)]
        with VirtualAdbServer(started) as server:
            yield [
                AndroidDevice(
                    adb_client(port=server.port),
                    phone.serial,
                    packages={app.label: package for package, app in phone.apps.items()},
                )
                for phone in started
            ]
        return
    from trainer_bridge.evaluate.online_command import OnlineError, choose_devices

    try:
        chosen = choose_devices(tuple(config.devices), config.adb_port)
    except OnlineError as error:
        raise TrainingSetupError(str(error)) from None
    rank, world = int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))
    if len(chosen) < world:
        raise TrainingSetupError(f"{len(chosen)} phone(s) for {world} processes: each process needs one")
    yield chosen[rank::world]


def train(argv: Sequence[str] | None = None) -> None:
    bridge, config = parse(make_parser(), argv)
    check_script(bridge, "grpo_task")
    manifest = read_manifest(bridge.data, "grpo-task")  # before any model loads: a wrong folder costs nothing
    problem = variant_problem(bridge.reward_recipe, manifest.prompt_variant)
    if problem:
        raise TrainingSetupError(problem)
    check_rollouts(config)
    rewards = task_rewards(bridge.reward_recipe)
    dataset = task_rows(bridge.data, bridge.split)
    missing = [name for name in COLUMNS if name not in dataset.column_names]
    if missing:
        raise TrainingSetupError(f"{bridge.data} has no {', '.join(missing)} column: export it again")
    from annotator.storage.failures import WorkspaceError
    from annotator.storage.workspace import Workspace

    try:
        workspace = Workspace.open(Path(config.workspace_dir) if config.workspace_dir else None, config.workspace_db)
    except WorkspaceError as error:
        raise TrainingSetupError(str(error)) from None
    with workspace, phones(config) as devices:
        history = history_window(config, manifest, bridge.data)  # its note after every refusal: those are one line
        # restart_app: how the instruction's reference run started (exports before it have none: in the app)
        rows = dataset.select_columns([name for name in (*COLUMNS, "restart_app") if name in dataset.column_names])
        _play_and_train(bridge, config, manifest, history, rows, workspace, devices, rewards)


def history_window(config: TaskGRPOConfig, manifest: ExportManifest, data: str) -> int:
    """W: the export's, so that the rollouts show what evaluation with its manifest shows; the recipe's only when
    the manifest does not say (a note either way the two differ)."""
    if manifest.history_images is None:
        note(f"{Path(data) / MANIFEST_FILE} does not say history_images; the recipe's {config.history_images} is used")
        return config.history_images
    if manifest.history_images != config.history_images:
        note(
            f"history_images {manifest.history_images}, the export's (its manifest), not the recipe's "
            f"{config.history_images}"
        )
    return manifest.history_images


def note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr)


def _play_and_train(
    bridge: Any,
    config: TaskGRPOConfig,
    manifest: ExportManifest,
    history: int,
    dataset: Any,
    workspace: Any,
    devices: list[Any],
    rewards: tuple[list[Any], list[float]],
) -> None:
    from annotator.domain.coords import ResizeConfig
    from annotator.llm.client import LLMConfig
    from annotator.storage import collection
    from trainer_bridge.evaluate.online_command import remember_device
    from trainer_bridge.evaluate.online_rollout import OnlineJudge
    from trainer_bridge.train.task_rollouts import Play, RolloutGroups
    from trainer_bridge.train.task_trainer import KeptRollouts, TaskGRPOTrainer

    def instruction_id(row: dict[str, Any]) -> dict[str, int]:  # the workspace's own id of the same words
        return {
            "instruction_id": collection.add_instruction(
                workspace.database, row["app"], row["instruction"], source="training", package=row["package"]
            )
        }

    for device in devices:
        device.packages = remember_device(workspace, device) | device.packages
    play = Play(
        config.max_rollout_steps,
        history,
        manifest.prompt_variant,
        ResizeConfig(min_pixels=manifest.min_pixels, max_pixels=manifest.max_pixels),
        manifest.image_scale,
        config.reply_retries,
    )
    output = Path(str(config.output_dir)).resolve()
    policy = LLMConfig(
        base_url=f"in-process:{output}",
        model=f"grpo-task:{output.name}",
        temperature=config.temperature,
        max_tokens=config.max_completion_length,
    )
    judge = OnlineJudge(config.judge_model, config.judge_base_url) if config.judge_model else None
    made: list[RolloutGroups] = []

    def make_groups(make_chat: Any) -> RolloutGroups:
        made.append(
            RolloutGroups(
                workspace,
                devices,
                make_chat,
                play,
                policy,
                judge,
                {"training_run": str(output)},
                judge_every=config.outcome_by == OUTCOME_BY_JUDGE,
            )
        )
        return made[-1]

    kept = KeptRollouts()
    try:
        fit(
            TaskGRPOTrainer,
            bridge,
            config,
            manifest,
            dataset.map(instruction_id),
            completions=kept,
            make_groups=make_groups,
            kept=kept,
            rewards=rewards,
        )
    finally:
        for groups in made:
            groups.close()


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(train, argv)


if __name__ == "__main__":
    sys.exit(main())
