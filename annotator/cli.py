"""The `annotator` command: workspace, database, bundles and statistics."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from annotator import __version__
from annotator.cli_agreement import agreement
from annotator.cli_collect import collect, devices
from annotator.cli_common import opened_workspace, progress_printer
from annotator.cli_db import db_check
from annotator.cli_demo import demo, load_gui
from annotator.cli_import import dataset_commands
from annotator.cli_instructions import instructions
from annotator.cli_judge import judge
from annotator.cli_study import study
from annotator.cli_virtual import scripted_endpoint, virtual_phone
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.stats import dataset_stats
from annotator.storage.workspace import DATA_DIR_ENV, DB_URL_ENV, default_data_dir, resolve_db_url


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--data-dir", type=click.Path(file_okay=False, path_type=Path), envvar=DATA_DIR_ENV, default=None,
    help=f"Folder for the database and blobs (env {DATA_DIR_ENV}; default: the user data folder).",
)  # fmt: skip
@click.option("--db", "db_url", envvar=DB_URL_ENV, default=None, help=f"Database URL (env {DB_URL_ENV}).")
@click.version_option(__version__, prog_name="annotator")
@click.pass_context
def cli(context: click.Context, data_dir: Path | None, db_url: str | None) -> None:
    """Turn Android phone sessions into GUI-agent training data (Mobile-R1 style).

    Without a command, opens the desktop app on the workspace (`annotator gui`)."""
    context.obj = {"data_dir": data_dir or default_data_dir(), "db_url": db_url}
    if context.invoked_subcommand is None:  # plain `annotator`: the desktop app on the user's workspace
        context.invoke(gui)


@cli.group()
def db() -> None:
    """Database information and upgrades."""


@db.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def db_info(context: click.Context, as_json: bool) -> None:
    """Show where the data is, the schema version and counts."""
    with opened_workspace(context, migrate=False, writes=False) as workspace:
        schema = workspace.database.schema
        info: dict[str, Any] = {
            "data_dir": str(workspace.data_dir),
            "database": resolve_db_url(workspace.data_dir, context.obj["db_url"]),
            "blobs": str(workspace.blobs.root),
            "schema_version": schema.current,
            "schema_head": schema.head,
            "upgrade_needed": schema.current != schema.head,
        }
        if not info["upgrade_needed"]:
            stats = dataset_stats(workspace.database)
            info.update({k: stats[k] for k in ("apps", "instructions", "trajectories", "steps")})
    if as_json:
        click.echo(json.dumps(info, ensure_ascii=False))
        return
    for key, value in info.items():
        click.echo(f"{key:>15}: {value}")
    if info["upgrade_needed"]:
        click.echo("Run `annotator db upgrade` (any other command also upgrades, after a backup).")


@db.command("upgrade")
@click.pass_context
def db_upgrade(context: click.Context) -> None:
    """Back up the database and upgrade its schema to this version (also done on every open)."""
    with opened_workspace(context, migrate=False) as workspace:
        before = workspace.database.schema.current
    with opened_workspace(context) as workspace:
        schema = workspace.database.schema
        if before == schema.current:
            click.echo(f"The schema is up to date ({schema.current}).")
        else:
            click.echo(f"Upgraded the schema from {before or 'empty'} to {schema.current}.")
            if schema.backup:
                click.echo(f"Backup of the old database: {schema.backup}")


db.add_command(db_check)


@cli.group("import")
def import_group() -> None:
    """Bring data in."""


@import_group.command("bundle")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.pass_context
def import_bundle_command(context: click.Context, path: Path) -> None:
    """Import a bundle (folder or .zip) in one transaction; importing it again adds nothing."""
    with opened_workspace(context) as workspace:
        result = import_bundle(workspace, path, progress=progress_printer("Copying blobs"))
    click.echo(
        f"Imported {result.trajectories_added} trajectories ({result.steps_added} steps, "
        f"{result.blobs_added} new blobs); {result.trajectories_skipped} were already here."
    )
    if result.judge_scores_added or result.studies_added:
        click.echo(f"Added {result.judge_scores_added} judge scores and {result.studies_added} studies.")


@cli.group("export")
def export_group() -> None:
    """Write data out."""


@export_group.command("bundle")
@click.argument("out", type=click.Path(path_type=Path))
@click.option("--app", default=None, help="Only trajectories of this app.")
@click.option(
    "--status", default=None,
    help="Only trajectories with this collection status (collecting, interrupted, complete) "
    "or review status (unlabelled, in_progress, annotated, accepted, rejected).",
)  # fmt: skip
@click.pass_context
def export_bundle_command(context: click.Context, out: Path, app: str | None, status: str | None) -> None:
    """Write a bundle to OUT: a folder, or a zip file when OUT ends in .zip."""
    with opened_workspace(context, writes=False) as workspace:
        result = export_bundle(workspace, out, app=app, status=status, progress=progress_printer("Copying blobs"))
    click.echo(
        f"Wrote {result.trajectories} trajectories ({result.steps} steps, {result.blobs} blobs, "
        f"{result.bytes / 1e6:.1f} MB) to {result.path}"
    )


@cli.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def stats_command(context: click.Context, as_json: bool) -> None:
    """Counts of apps, instructions, trajectories and steps, per action and per app."""
    with opened_workspace(context, writes=False) as workspace:
        stats = dataset_stats(workspace.database)
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False))
        return
    for key in ("apps", "instructions", "trajectories", "steps"):
        click.echo(f"{key:>13}: {stats[key]}")
    click.echo("\nSteps per action:")
    for name, count in stats["steps_per_action"].items():
        click.echo(f"  {name:<15} {count:>8}")
    click.echo("\nPer app:            instructions  trajectories     steps")
    for name, row in stats["per_app"].items():
        click.echo(f"  {name:<18} {row['instructions']:>12} {row['trajectories']:>13} {row['steps']:>9}")


cli.add_command(instructions)


@cli.command("gui")
@click.pass_context
def gui(context: click.Context) -> None:
    """Open the desktop app on the workspace (--data-dir / --db)."""
    run_gui = load_gui()  # by name: the other commands never load Qt
    sys.exit(run_gui(context.obj["data_dir"], db_url=context.obj["db_url"]))


cli.add_command(demo)
cli.add_command(devices)
cli.add_command(collect)
cli.add_command(virtual_phone)
cli.add_command(scripted_endpoint)
cli.add_command(judge)
cli.add_command(agreement)
cli.add_command(study)
for command in dataset_commands:  # import aitz | gui-odyssey | androidcontrol
    import_group.add_command(command)


def main() -> None:
    cli(prog_name="annotator")
