"""`annotator db info | upgrade` and `annotator stats`: where the data is, its schema, and what it holds.

Loaded by cli.py's lazy table when one of these commands runs.
"""

from __future__ import annotations

import json
from typing import Any

import click

from annotator.cli_common import opened_workspace
from annotator.services.stats import dataset_stats
from annotator.storage.workspace import resolve_db_url


@click.group()
def db() -> None:
    """Database information and upgrades."""


@db.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def db_info(context: click.Context, as_json: bool) -> None:
    """Show where the data is, the schema version and counts."""
    with opened_workspace(context, migrate=False) as workspace:
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


@click.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def stats_command(context: click.Context, as_json: bool) -> None:
    """Counts of apps, instructions, trajectories and steps, per action and per app."""
    with opened_workspace(context) as workspace:
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
