"""The `accelerate launch` command of a training run, as accelerate 1.x documents its flags:

    CPU         accelerate launch --cpu --num_processes 1 -m SCRIPT ...
    1 GPU       accelerate launch --num_processes 1 -m SCRIPT ...
    N GPUs      accelerate launch --multi_gpu --num_processes N -m SCRIPT ...
    M nodes     accelerate launch --multi_gpu --num_machines M --num_processes M*N --machine_rank R
                    --main_process_ip HOST --main_process_port PORT -m SCRIPT ...
    DeepSpeed   --use_deepspeed --deepspeed_config_file configs/zero2.json|zero3.json in place of --multi_gpu
                    (with --deepspeed_multinode_launcher standard on several nodes)

`--num_processes` counts every process of every node. The shipped DeepSpeed files leave batch sizes, gradient
accumulation, clipping and precision "auto", which the trainer fills from the recipe, so the recipe stays the one
place that says them.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

DEEPSPEED = ("zero2", "zero3")
MAIN_PORT = 29500  # accelerate's (and torch.distributed's) default rendezvous port
SCRIPT_PACKAGE = "trainer_bridge.train"


class LaunchError(ValueError):
    """The launch cannot be built as asked; one line says why."""


@dataclass(frozen=True)
class Topology:
    """Where the processes run: `gpus` per node (0: the CPU), `nodes` machines, this one's rank."""

    gpus: int = 0
    nodes: int = 1
    node_rank: int = 0
    main_host: str | None = None
    main_port: int = MAIN_PORT
    deepspeed: str | None = None

    def check(self) -> None:
        if self.gpus < 0 or self.nodes < 1:
            raise LaunchError("--gpus is 0 (the CPU) or more, --nodes 1 or more")
        if self.deepspeed is not None and self.deepspeed not in DEEPSPEED:
            raise LaunchError(f"--deepspeed is one of {', '.join(DEEPSPEED)}, not {self.deepspeed!r}")
        if self.gpus == 0 and (self.nodes > 1 or self.deepspeed):
            raise LaunchError("several nodes and DeepSpeed need GPUs: give --gpus N")
        if self.nodes > 1 and not self.main_host:
            raise LaunchError("several nodes need --main-host (the address of node 0, reachable from every node)")
        if not 0 <= self.node_rank < self.nodes:
            raise LaunchError(f"--node-rank is 0 to {self.nodes - 1} for {self.nodes} node(s), not {self.node_rank}")

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def deepspeed_config(name: str) -> Path:
    """The shipped DeepSpeed config `name` (zero2, zero3)."""
    return Path(str(resources.files(__package__) / "configs" / f"{name}.json"))


def accelerate_flags(topology: Topology) -> list[str]:
    """The flags of `accelerate launch` for `topology` (checked)."""
    topology.check()
    if topology.gpus == 0:
        return ["--cpu", "--num_processes", "1"]
    processes = topology.gpus * topology.nodes
    flags: list[str] = []
    if topology.deepspeed:
        flags += ["--use_deepspeed", "--deepspeed_config_file", str(deepspeed_config(topology.deepspeed))]
        if topology.nodes > 1:
            flags += ["--deepspeed_multinode_launcher", "standard"]
    elif processes > 1:
        flags.append("--multi_gpu")
    if topology.nodes > 1:
        flags += [
            "--num_machines",
            str(topology.nodes),
            "--num_processes",
            str(processes),
            "--machine_rank",
            str(topology.node_rank),
            "--main_process_ip",
            str(topology.main_host),
            "--main_process_port",
            str(topology.main_port),
        ]
    else:
        flags += ["--num_processes", str(processes)]
    return flags


def script_arguments(config: Path, data: str, output_dir: str, model: str | None) -> list[str]:
    """The training script's arguments: the resolved recipe file, the export, the output folder, the model."""
    arguments = ["--config", str(config), "--data", data, "--output_dir", output_dir]
    return arguments + (["--model", model] if model else [])


def launch_argv(
    topology: Topology,
    script: str,
    config: Path,
    data: str,
    output_dir: str,
    model: str | None,
    accelerate: tuple[str, ...] = ("accelerate", "launch"),
) -> list[str]:
    """The whole command: `accelerate` (a program and its subcommand) with the flags, then `-m` the script."""
    module = f"{SCRIPT_PACKAGE}.{script}"
    return [*accelerate, *accelerate_flags(topology), "-m", module, *script_arguments(config, data, output_dir, model)]


def shell_line(argv: list[str]) -> str:
    """The command as one line to paste into a shell."""
    return shlex.join(argv)
