"""`trainer-bridge train RECIPE`: check the recipe, the export and the settings, build the `accelerate launch`
command (CPU, one GPU, several, several nodes, DeepSpeed ZeRO), then print it (--dry-run) or launch it, recorded
in the workspace's database and followed there until it ends (or in the background with --detach)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import click
import yaml

from annotator.storage.workspace import DATA_DIR_ENV, DB_URL_ENV, Workspace, default_data_dir
from trainer_bridge.cli.options import workspace_options
from trainer_bridge.launch.command import DEEPSPEED, MAIN_PORT, LaunchError, Topology, shell_line
from trainer_bridge.launch.run import Plan, follow, launch
from trainer_bridge.launch.settings import (
    check_export,
    check_keys,
    check_no_credentials,
    check_reward,
    choose_generation,
    parse_sets,
    reach_global_batch,
    resolve,
    with_rollout_workspace,
)
from trainer_bridge.launch.text import event_line, run_lines


class BadInput(click.ClickException):
    """A launch that cannot start as asked: one line `Error: ...`, exit status 2 (as a usage error)."""

    exit_code = 2


@click.command("train")
@click.argument("recipe")
@click.option("--data", type=click.Path(path_type=Path), required=True, help="The export to train on.")
@click.option("--model", help="A model folder or hub id (tiny-* recipes build their own).")
@click.option(
    "--output",
    "output_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="The run's folder (default: <data folder>/runs/RECIPE-TIME).",
)
@click.option(
    "--gpus",
    type=click.IntRange(min=0),
    help="GPUs per node; 0: the CPU (default: 0 for recipes that say use_cpu, else 1).",
)
@click.option("--nodes", type=click.IntRange(min=1), default=1, show_default=True, help="Machines.")
@click.option("--node-rank", type=click.IntRange(min=0), default=0, show_default=True, help="This machine's rank.")
@click.option("--main-host", help="Several nodes: node 0's address.")
@click.option("--main-port", type=click.IntRange(1, 65535), default=MAIN_PORT, show_default=True)
@click.option("--deepspeed", type=click.Choice(DEEPSPEED), help="DeepSpeed ZeRO with the shipped config.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Change a recipe setting (repeat).")
@click.option("--dry-run", is_flag=True, help="Print the command and exit (nothing is started or recorded).")
@click.option("--detach", is_flag=True, help="Return once the run is recorded; a background process follows it.")
@workspace_options
def train_command(**given: Any) -> None:
    """Launch a training recipe with accelerate, recorded and followed in the workspace's database.

    RECIPE is a shipped recipe (tiny-sft, tiny-grpo, tiny-grpo-task, mobile-r1-stage1|2|3, ui-r1, gui-r1, ui-agile,
    infigui-r1) or a YAML file. The run's folder gets recipe.yaml (the recipe with --set applied), train.log,
    events.jsonl and the checkpoints; tiny-grpo-task stores its rollouts in the workspace.
    Ctrl+C cancels the run (its whole process group); `trainer-bridge runs` lists, shows, cancels and resumes."""
    plan = _plan(given)
    for note in plan.notes:
        click.echo(f"# {note}", err=True)
    if given["dry_run"]:
        click.echo(shell_line(plan.argv()))
        click.echo(f"# {plan.output_dir / 'recipe.yaml'} (written at launch):", err=True)
        for line in yaml.safe_dump(plan.config, allow_unicode=True, sort_keys=False).splitlines():
            click.echo(f"#   {line}", err=True)
        return
    with Workspace.open(given["data_dir"], given["db_url"]) as workspace:
        run_id, process = launch(workspace.database, plan)
        click.echo(f"Training run {run_id} started (pid {process.pid}); log: {plan.output_dir / 'train.log'}")
        if given["detach"]:
            start_follower(run_id, workspace)
            click.echo(f"Following it in the background: `trainer-bridge runs show {run_id}`")
            return
        run = follow(workspace.database, run_id, process, on_events=_printer(plan))
    for line in run_lines(run):
        click.echo(line)
    if run.status != "complete":
        raise SystemExit(1)


def _plan(given: dict[str, Any]) -> Plan:
    """The checked launch: every bad input is one line (exit status 2) before anything starts."""
    try:
        sets = parse_sets(given["sets"])
        config = resolve(given["recipe"], sets)
        manifest = check_export(given["data"], config)
        check_reward(config, manifest)
        check_no_credentials(config)
        check_keys(given["recipe"], config, sets)
        gpus = given["gpus"] if given["gpus"] is not None else (0 if config.get("use_cpu") else 1)
        topology = Topology(
            gpus, given["nodes"], given["node_rank"], given["main_host"], given["main_port"], given["deepspeed"]
        )
        topology.check()
        workspace_dir = Path(given["data_dir"] or default_data_dir()).resolve()
        config = with_rollout_workspace(config, topology, workspace_dir, given["db_url"])
    except LaunchError as error:
        raise BadInput(str(error)) from None
    if gpus and config.get("use_cpu"):
        config = config | {"use_cpu": False}  # a tiny recipe asked onto GPUs runs there
    config = choose_generation(config, topology)
    config, batch = reach_global_batch(config, topology)
    output = given["output_dir"] or _default_output(given, config)
    return Plan(given["recipe"], config, given["data"].resolve(), output.resolve(), topology, given["model"], (batch,))


def _default_output(given: dict[str, Any], config: dict[str, Any]) -> Path:
    name = Path(given["recipe"]).stem
    return (given["data_dir"] or default_data_dir()) / "runs" / f"{name}-{datetime.now():%Y%m%d-%H%M%S}"


def _printer(plan: Plan) -> Any:
    def show(events: list[Any]) -> None:
        for record in events:
            line = event_line(record, plan.config.get("max_steps"))
            if line:
                click.echo(line)

    return show


def start_follower(run_id: int, workspace: Workspace) -> None:
    """A background process (its own session: it outlives this command and a closed terminal) that follows the run."""
    env = os.environ | {DATA_DIR_ENV: str(workspace.data_dir), DB_URL_ENV: workspace.database.url}
    subprocess.Popen(
        [sys.executable, "-m", "trainer_bridge.launch.follower", str(run_id)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
