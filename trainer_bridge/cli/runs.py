"""`trainer-bridge runs`: the training runs recorded in the workspace: list, show (with the newest events copied
in from the run's folder), follow, cancel (the whole process group) and resume (from the last checkpoint)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import click

from annotator.storage import training_runs
from annotator.storage.training_runs import RunInfo, RunNotFoundError
from annotator.storage.workspace import Workspace
from trainer_bridge.cli.options import workspace_options
from trainer_bridge.launch.process import GRACE_S
from trainer_bridge.launch.run import cancel, follow, resume, sync
from trainer_bridge.launch.text import event_line, run_lines, run_row


def _json(run: RunInfo, **extra: Any) -> str:
    return json.dumps(asdict(run) | extra, ensure_ascii=False, default=str)


def _get(workspace: Workspace, run_id: int) -> RunInfo:
    try:
        return training_runs.get_run(workspace.database, run_id)
    except RunNotFoundError as error:
        raise click.ClickException(str(error)) from None


@click.group("runs")
def runs_command() -> None:
    """List, show, follow, cancel and resume training runs."""


@runs_command.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@workspace_options
def list_command(as_json: bool, data_dir: Any, db_url: str | None) -> None:
    """The workspace's training runs, newest first."""
    with Workspace.open(data_dir, db_url) as workspace:
        for run in training_runs.list_runs(workspace.database, training_runs.LIVE):
            sync(workspace.database, run.id)  # the live ones as far as their events go
        runs = training_runs.list_runs(workspace.database)
    if as_json:
        for run in runs:
            click.echo(_json(run))
        return
    if not runs:
        click.echo("No training runs yet: `trainer-bridge train RECIPE --data EXPORT` starts one.")
    for run in runs:
        click.echo(run_row(run))


@runs_command.command("show")
@click.argument("run_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="One JSON object, with the run's events.")
@workspace_options
def show_command(run_id: int, as_json: bool, data_dir: Any, db_url: str | None) -> None:
    """One run: status, recipe, last step, loss or reward, output folder, and the log's tail if it failed."""
    with Workspace.open(data_dir, db_url) as workspace:
        if _get(workspace, run_id).live:
            sync(workspace.database, run_id)
        run = training_runs.get_run(workspace.database, run_id)
        events = training_runs.run_events(workspace.database, run_id) if as_json else []
    if as_json:
        click.echo(_json(run, events=[asdict(e) for e in events]))
        return
    for line in run_lines(run):
        click.echo(line)


@runs_command.command("follow")
@click.argument("run_id", type=int)
@workspace_options
def follow_command(run_id: int, data_dir: Any, db_url: str | None) -> None:
    """Print a live run's events as they come until it ends (Ctrl+C cancels it)."""
    with Workspace.open(data_dir, db_url) as workspace:
        run = _get(workspace, run_id)
        if run.live:
            run = follow(workspace.database, run_id, on_events=_printer(run))
    for line in run_lines(run):
        click.echo(line)


@runs_command.command("cancel")
@click.argument("run_id", type=int)
@click.option(
    "--grace",
    type=click.FloatRange(min=0),
    default=GRACE_S,
    show_default=True,
    help="Seconds the processes get to end after SIGTERM, before SIGKILL.",
)
@workspace_options
def cancel_command(run_id: int, grace: float, data_dir: Any, db_url: str | None) -> None:
    """Stop a run's whole process group (terminate, wait, kill) and mark it cancelled."""
    with Workspace.open(data_dir, db_url) as workspace:
        run = _get(workspace, run_id)
        if not run.live:
            raise click.ClickException(f"training run {run_id} is {run.status} already")
        run = cancel(workspace.database, run_id, grace)
    click.echo(f"Training run {run_id} is {run.status}.")


@runs_command.command("resume")
@click.argument("run_id", type=int)
@click.option("--detach", is_flag=True, help="Return once the run is recorded; a background process follows it.")
@workspace_options
def resume_command(run_id: int, detach: bool, data_dir: Any, db_url: str | None) -> None:
    """Launch an ended run again with the same configuration; it goes on from its last checkpoint."""
    from trainer_bridge.cli.train import start_follower

    with Workspace.open(data_dir, db_url) as workspace:
        _get(workspace, run_id)
        try:
            new_id, process = resume(workspace.database, run_id)
        except ValueError as error:
            raise click.ClickException(str(error)) from None
        click.echo(f"Training run {new_id} resumes run {run_id} (pid {process.pid}).")
        if detach:
            start_follower(new_id, workspace)
            return
        run = follow(workspace.database, new_id, process, on_events=_printer(_get(workspace, new_id)))
    for line in run_lines(run):
        click.echo(line)
    if run.status != "complete":
        raise SystemExit(1)


def _printer(run: RunInfo) -> Any:
    def show(events: list[Any]) -> None:
        for record in events:
            line = event_line(record, run.config.get("max_steps"))
            if line:
                click.echo(line)

    return show
