"""`annotator db check [--fix] [--json]`: do the blob files and the rows that point at them agree?

Registered in cli.py on the `db` group with ``db.add_command(db_check)``.
"""

from __future__ import annotations

import json
import sys

import click

from annotator.cli_common import opened_workspace
from annotator.storage import integrity

FINDINGS = (  # report field, what it counts
    ("unreferenced", "blob files no row points at"),
    ("missing", "blob rows whose file is missing"),
    ("corrupt", "blob rows whose file has another size or content"),
    ("temporaries", "leftovers of writes that never finished"),
)


@click.command("check")
@click.option(
    "--fix", is_flag=True, help="Remove the blob files no row points at and old temporary files; nothing else."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def db_check(context: click.Context, fix: bool, as_json: bool) -> None:
    """Find blob files no row points at, rows whose files are missing or corrupt, and unfinished writes' leftovers.

    Every blob file is read and hashed. The exit status is 1 while any problem remains (after --fix: rows
    without their files, which only a backup or the bundle they came from can bring back)."""
    with opened_workspace(context.find_root(), migrate=fix, writes=fix) as workspace:
        report = integrity.check(workspace.database, workspace.blobs, fix=fix)
    if as_json:
        summary = {"blob_files": report.blob_files, "blob_rows": report.blob_rows, "removed": report.removed}
        for name, _ in FINDINGS:
            found = getattr(report, name)
            summary |= {name: len(found), f"{name}_examples": found[: integrity.EXAMPLES]}
        summary["steps_without_files"] = report.steps_without_files
        click.echo(json.dumps(summary))
    else:
        _print(report, fix)
    if report.remaining_problems():
        sys.exit(1)


def _print(report: integrity.IntegrityReport, fix: bool) -> None:
    click.echo(f"{report.blob_files} blob files, {report.blob_rows} blob rows")
    for name, meaning in FINDINGS:
        found = getattr(report, name)
        examples = f": {', '.join(found[: integrity.EXAMPLES])}{' …' if len(found) > integrity.EXAMPLES else ''}"
        click.echo(f"{len(found):>8}  {meaning}{examples if found else ''}")
    click.echo(f"{report.steps_without_files:>8}  steps whose screenshot or hierarchy is missing or corrupt")
    if fix:
        click.echo(f"Removed {report.removed} files.")
    elif report.unreferenced or report.temporaries:
        click.echo("`annotator db check --fix` removes the unreferenced files and the leftovers.")
