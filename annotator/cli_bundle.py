"""`annotator import bundle | aitz | gui-odyssey | androidcontrol` and `annotator export bundle`.

Loaded by cli.py's lazy table when one of these commands runs.
"""

from __future__ import annotations

from pathlib import Path

import click

from annotator.cli_common import command_workspace, progress_printer
from annotator.cli_import import dataset_commands
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.bundle_manifest import BundleError


@click.group("import")
def import_group() -> None:
    """Bring data in."""


@import_group.command("bundle")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
def import_bundle_command(path: Path) -> None:
    """Import a bundle (folder or .zip) in one transaction; importing it again adds nothing."""
    with command_workspace((BundleError,)) as workspace:
        result = import_bundle(workspace, path, progress=progress_printer("Copying blobs"))
    click.echo(
        f"Imported {result.trajectories_added} trajectories ({result.steps_added} steps, "
        f"{result.blobs_added} new blobs); {result.trajectories_skipped} were already here."
    )
    if result.judge_scores_added or result.studies_added:
        click.echo(f"Added {result.judge_scores_added} judge scores and {result.studies_added} studies.")


for command in dataset_commands:  # import aitz | gui-odyssey | androidcontrol
    import_group.add_command(command)


@click.group("export")
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
def export_bundle_command(out: Path, app: str | None, status: str | None) -> None:
    """Write a bundle to OUT: a folder, or a zip file when OUT ends in .zip."""
    with command_workspace((BundleError,), writes=False) as workspace:
        result = export_bundle(workspace, out, app=app, status=status, progress=progress_printer("Copying blobs"))
    click.echo(
        f"Wrote {result.trajectories} trajectories ({result.steps} steps, {result.blobs} blobs, "
        f"{result.bytes / 1e6:.1f} MB) to {result.path}"
    )
