"""`annotator demo`: build a workspace with real data (the virtual phone, the scripted agent, labels and reviews)
and open the app on it, so every view has something to show before a phone is plugged in."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click
from click.core import ParameterSource

from annotator.cli.gui import load_gui
from annotator.demo.workspace.build import (
    DemoExistsError,
    DemoReport,
    build_demo,
    default_demo_dir,
    demo_db_url,
    stored_trajectories,
)
from annotator.demo.workspace.loop import Cancelled, DemoLoop, LoopFailed, LoopProgress
from annotator.storage.database import MigrationError, SchemaTooNewError


def demo_folder(context: click.Context, local: Path | None) -> Path:
    """`demo --data-dir`, else the global `annotator --data-dir` when given on the command line, else
    `<user data folder>/demo` (also when ANNOTATOR_DATA_DIR names the user's own workspace: never mix them)."""
    if local is not None:
        return local
    root = context.find_root()
    if root is not context and root.get_parameter_source("data_dir") == ParameterSource.COMMANDLINE:
        return Path(root.params["data_dir"])
    return default_demo_dir()


def summary(report: DemoReport) -> list[str]:
    runs = report.runs
    apps = Counter(run.app for run in runs)
    agent = sum(run.collector == "agent" for run in runs)
    outcomes = Counter(run.outcome or run.status for run in runs)
    reviews = Counter(run.review for run in runs)
    not_done = sum(not run.task_done for run in runs)
    return [
        f"Demo workspace: {report.data_dir}",
        f"  {report.trajectories} trajectories, {report.steps} steps: "
        + ", ".join(f"{app} {count}" for app, count in sorted(apps.items())),
        f"  collected by the scripted agent: {agent}, teleoperated: {report.trajectories - agent}",
        "  ended: "
        + ", ".join(f"{name} {count}" for name, count in sorted(outcomes.items()))
        + f" (the phone shows {not_done} task(s) not done)",
        f"  reviews: {report.accepted} accepted, {report.rejected} rejected, {reviews['annotated']} awaiting review, "
        f"{reviews['in_progress']} in progress, {reviews['unlabelled']} unlabelled",
        f"  model drafts to accept (scripted endpoint): {report.drafted} steps of an unlabelled trajectory",
        f"  built in {report.seconds:.1f} s",
    ]


@click.command("demo")
@click.option("--no-gui", is_flag=True, help="Only build the demo workspace and print a summary.")
@click.option(
    "--data-dir",
    "local_data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the demo workspace (also `annotator --data-dir DIR demo`; default: <user data folder>/demo).",
)
@click.option("--trajectories", type=click.IntRange(1, 100), default=12, show_default=True, help="How many to record.")
@click.option("--seed", type=int, default=0, show_default=True, help="Varies the tasks, the agent's mistakes, labels.")
@click.option("--replace", is_flag=True, help="Delete the folder's database and blobs first and build anew.")
@click.option(
    "--with-training",
    is_flag=True,
    help="With --no-gui: also export, train tiny-sft and tiny-grpo and evaluate, printing the progress (the app "
    "does this in the background); an existing demo workspace is then kept and only what is missing runs.",
)
@click.pass_context
def demo(
    context: click.Context,
    no_gui: bool,
    local_data_dir: Path | None,
    trajectories: int,
    seed: int,
    replace: bool,
    with_training: bool,
) -> None:
    """Build a demo workspace with real data and open the app on it.

    The demo records trajectories on the built-in virtual phone (优选商城, 趣看视频, 设置) with the scripted
    agent, which makes the mistakes real agents make, and two teleoperated runs; then annotators label part of
    them and a reviewer accepts or rejects them with comments. Same seed, same data.

    Without --no-gui an existing demo workspace is opened as it is; --replace builds it again. The demo always
    uses an SQLite database in its own folder, never the --db database. Once the window is open the app closes
    the loop in the background (a status bar line says how far it is; Cancel stops it): it exports the accepted
    trajectories, trains tiny-sft, then tiny-grpo from it, and evaluates the result, so the Runs and Models views
    have real runs and an evaluation. Steps already done are not done again.
    """
    data_dir = demo_folder(context, local_data_dir)
    if (context.find_root().obj or {}).get("db_url"):
        click.echo(f"Note: the demo keeps its own SQLite database in {data_dir}; --db is not used.", err=True)
    run_gui = None if no_gui else load_gui()
    try:
        existing = stored_trajectories(data_dir)
        keep = run_gui is not None or with_training  # the loop goes on from what an existing demo holds
        if not keep or replace or not existing:
            build(data_dir, trajectories, seed, replace)
    except (DemoExistsError, SchemaTooNewError, MigrationError) as error:
        raise click.ClickException(str(error)) from None
    if run_gui is None and with_training:
        close_the_loop(data_dir)
    if run_gui is not None and existing and not replace:
        click.echo(f"Opening the demo workspace in {data_dir} ({existing} trajectories; --replace builds it anew).")
    if run_gui is not None:
        # the demo's own database, also when ANNOTATOR_DB_URL names another one
        context.exit(int(run_gui(data_dir, db_url=demo_db_url(data_dir), demo_peers=True)))


def build(data_dir: Path, trajectories: int, seed: int, replace: bool) -> None:
    click.echo(f"Building the demo workspace in {data_dir} ...", err=True)
    if replace and stored_trajectories(data_dir):
        DemoLoop(data_dir).clear()  # else the loop would skip an export of the old data and resume its runs
    report = build_demo(
        data_dir,
        trajectories=trajectories,
        seed=seed,
        replace=replace,
        progress=lambda line: click.echo(line, err=True),
    )
    click.echo("\n".join(summary(report)))


def close_the_loop(data_dir: Path) -> None:
    """The app's background loop in the foreground: export, tiny-sft, tiny-grpo, evaluate, printing each step."""
    loop = DemoLoop(data_dir, on_progress=_print_progress)
    click.echo(f"Closing the loop in {data_dir} (commands and their output: {loop.paths.log}) ...", err=True)
    try:
        report = loop.run()
    except Cancelled:
        raise click.ClickException("cancelled; `annotator demo --no-gui --with-training` goes on") from None
    except LoopFailed as error:
        raise click.ClickException(str(error)) from None
    if report.ran:
        timings = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in report.seconds.items())
        click.echo(
            f"Loop closed in {report.total_s:.0f} s ({timings}): `trainer-bridge runs list --data-dir "
            f"{data_dir}` and `trainer-bridge eval list --data-dir {data_dir}` show the runs and the "
            "evaluation."
        )
    else:
        click.echo("The loop was closed already: every step's result is there.")


def _print_progress(progress: LoopProgress) -> None:
    where = f"[{progress.number}/{progress.total}] {progress.step}"
    if progress.state == "running" and progress.done is not None:
        unit = "step" if progress.step.startswith("tiny-") else "evaluated"
        click.echo(f"{where}: {unit} {progress.done}/{progress.of or '?'}", err=True)
    else:
        click.echo(f"{where}: {progress.state}", err=True)
