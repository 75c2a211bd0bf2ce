"""Action-level RLOO on a `grpo-action` export: TRL's `RLOOTrainer`, whose advantage is each completion's reward
against the mean of the group's others (leave-one-out), with the same rewards, data and events as grpo_action.
InfiGUI-R1 optimises its stage 2 with RLOO (section 3.2.1); the `infigui-r1` recipe runs this script, with the
sub-goal term of R_agent (3.2.2) scored by the endpoint the run names (`--subgoal_base_url`, `--subgoal_model`).

    accelerate launch -m trainer_bridge.train.rloo_action --recipe infigui-r1 --data EXPORT --model MODEL \\
        --output_dir runs/infigui
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from trainer_bridge.train.common import run_main, script_parser
from trainer_bridge.train.grpo_action import action_config, optimise


def make_parser() -> Any:
    from trl import RLOOConfig

    return script_parser(action_config(RLOOConfig))


def train(argv: Sequence[str] | None = None) -> None:
    from trl import RLOOTrainer

    optimise(argv, make_parser(), "rloo_action", RLOOTrainer)


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(train, argv)


if __name__ == "__main__":
    sys.exit(main())
