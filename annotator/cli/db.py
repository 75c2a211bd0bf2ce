"""`annotator db info | upgrade | check` and `annotator stats`: where the data is, its schema, whether its files
and rows agree, and what it holds.

Loaded by annotator/cli/root.py's lazy table when one of these commands runs.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from annotator.cli.common import opened_workspace
from annotator.domain.counting import Counting
from annotator.services.stats import dataset_stats
from annotator.services.target_boxes import suggest_missing_boxes
from annotator.storage import integrity
from annotator.storage.owners import reap_abandoned
from annotator.storage.trajectories import stored_counts
from annotator.storage.workspace import Workspace, resolve_db_url


@click.group()
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
            info.update(stored_counts(workspace.database))
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
        filled = suggest_missing_boxes(workspace)
        if filled:
            click.echo(f"Suggested target boxes from the stored UI hierarchies for {filled} steps.")


FINDINGS = (  # report field, what it counts
    ("unreferenced", "blob files no row points at"),
    ("missing", "blob rows whose file is missing"),
    ("corrupt", "blob rows whose file has another size or content"),
    ("temporaries", "leftovers of writes that never finished"),
)


@db.command("check")
@click.option(
    "--fix", is_flag=True, help="Remove the blob files no row points at and old temporary files; nothing else."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def db_check(context: click.Context, fix: bool, as_json: bool) -> None:
    """Find blob files no row points at, rows whose files are missing or corrupt, and unfinished writes' leftovers.

    Every blob file is read and hashed. The exit status is 1 while any problem remains (after --fix: rows
    without their files, which only a backup or the bundle they came from can bring back). Runs left running by a
    process that is gone are marked as they are (interrupted, stopped, failed), as every command that writes does."""
    with opened_workspace(context.find_root(), migrate=fix, writes=fix) as workspace:
        reaped = list(workspace.reaped) or _reap(workspace)
        report = integrity.check(workspace.database, workspace.blobs, fix=fix)
    if as_json:
        summary: dict[str, Any] = {"blob_files": report.blob_files, "blob_rows": report.blob_rows}
        summary |= {"removed": report.removed, "reaped": len(reaped), "reaped_runs": reaped}
        for name, _ in FINDINGS:
            found = getattr(report, name)
            summary |= {name: len(found), f"{name}_examples": found[: integrity.EXAMPLES]}
        summary["steps_without_files"] = report.steps_without_files
        click.echo(json.dumps(summary))
    else:
        _print(report, fix, reaped)
    if report.remaining_problems():
        sys.exit(1)


def _reap(workspace: Workspace) -> list[str]:
    """Mark the runs whose process is gone as what they are, as opening a workspace for writing does (a check
    without --fix opens it without upgrading, which leaves them); not in a read-only folder, nor in a schema
    older than this version's (its run rows may lack the owner columns)."""
    schema = workspace.database.schema
    if workspace.read_only or schema.current != schema.head:
        return []
    return reap_abandoned(workspace.database)


def _print(report: integrity.IntegrityReport, fix: bool, reaped: list[str]) -> None:
    click.echo(f"{report.blob_files} blob files, {report.blob_rows} blob rows")
    for name, meaning in FINDINGS:
        found = getattr(report, name)
        examples = f": {', '.join(found[: integrity.EXAMPLES])}{' …' if len(found) > integrity.EXAMPLES else ''}"
        click.echo(f"{len(found):>8}  {meaning}{examples if found else ''}")
    click.echo(f"{report.steps_without_files:>8}  steps whose screenshot or hierarchy is missing or corrupt")
    click.echo(f"{len(reaped):>8}  runs left running by a process that is gone, marked now as what they are")
    for line in reaped:
        click.echo(f"          {line}")
    if fix:
        click.echo(f"Removed {report.removed} files.")
    elif report.unreferenced or report.temporaries:
        click.echo("`annotator db check --fix` removes the unreferenced files and the leftovers.")


@click.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--every-row",
    is_flag=True,
    help="Count every trajectory and every step row. By default the figures are Mobile-R1 Table 2's: the "
    "accepted trajectories and their annotated steps.",
)
@click.pass_context
def stats_command(context: click.Context, as_json: bool, every_row: bool) -> None:
    """Counts of apps, instructions, trajectories and steps, per action and per app."""
    counting = Counting.ROWS if every_row else Counting.PAPER
    with opened_workspace(context, writes=False) as workspace:
        stats = dataset_stats(workspace.database, counting)
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False))
        return
    click.echo(f"Counted {stats['counted']}.")
    if counting is Counting.PAPER:
        click.echo("(`annotator stats --every-row` counts every trajectory and step row.)")
    click.echo()
    for key in ("apps", "instructions", "trajectories", "steps"):
        click.echo(f"{key:>13}: {stats[key]}")
    click.echo("\nSteps per action:")
    for name, count in stats["steps_per_action"].items():
        click.echo(f"  {name:<15} {count:>8}")
    click.echo("\nPer app:            instructions  trajectories     steps")
    for name, row in stats["per_app"].items():
        click.echo(f"  {name:<18} {row['instructions']:>12} {row['trajectories']:>13} {row['steps']:>9}")
    click.echo("\nTrajectories per review state (all of them):")
    for status, count in stats["trajectories_per_review_status"].items():
        click.echo(f"  {status:<15} {count:>8}")
    _echo_drafts(stats["drafts"])


def _echo_drafts(drafts: dict[str, Any]) -> None:
    if not drafts["drafts"]:
        return
    click.echo(
        f"\nModel drafts (all of them): {drafts['steps_with_drafts']} steps drafted, "
        f"{drafts['steps_with_matched_drafts']} with a matching draft; {drafts['flagged']} drafts flagged; "
        f"{drafts['labels_from_drafts']} steps took a draft into their label"
    )
    for stage, row in drafts["per_stage"].items():
        if row["accepted"]:
            edits = f", mean edit ratio {row['mean_edit_ratio']:.2f}" if row.get("mean_edit_ratio") is not None else ""
            click.echo(f"  {stage:<15} {row['accepted']:>6} taken, {row['changed']} changed since{edits}")
