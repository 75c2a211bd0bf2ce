"""`annotator import bundle | aitz | gui-odyssey | androidcontrol` and `annotator export bundle`.

Loaded by annotator/cli/root.py's lazy table when one of these commands runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from annotator.cli.common import command_workspace, progress_printer
from annotator.cli.importing import dataset_commands
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.bundle_manifest import BundleError
from annotator.services.studies import hidden_judging
from annotator.storage.studies import PERSON_ENV, HiddenJudging, person_asking


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
    if result.withheld:
        click.echo(
            f"Its writer could not see the judge results of {len(result.withheld['judge_results_of'])} trajectories "
            f"(studies {', '.join(result.withheld['open_studies'])} were being rated): they are not in it.",
            err=True,
        )


for command in dataset_commands:  # import aitz | gui-odyssey | androidcontrol
    import_group.add_command(command)


@click.group("export")
def export_group() -> None:
    """Write data out."""


@export_group.command("bundle")
@click.argument("out", type=click.Path(path_type=Path))
@click.option("--app", default=None, help="Only trajectories of this app.")
@click.option(
    "--status",
    default=None,
    help="Only trajectories with this collection status (collecting, interrupted, complete) "
    "or review status (unlabelled, in_progress, annotated, accepted, rejected).",
)
@click.option(
    "--as",
    "person",
    metavar="NAME",
    help=f"Who writes it (default: ${PERSON_ENV}, else your login name when the workspace knows it). The "
    "judge results of a study still being rated stay out of a bundle its raters, or someone "
    "unnamed, write.",
)
def export_bundle_command(out: Path, app: str | None, status: str | None, person: str | None) -> None:
    """Write a bundle to OUT: a folder, or a zip file when OUT ends in .zip."""
    with command_workspace((BundleError,), writes=False) as workspace:
        db = workspace.database
        hidden = hidden_judging(db, person_asking(db, person))
        result = export_bundle(
            workspace, out, app=app, status=status, progress=progress_printer("Copying blobs"), hidden=hidden
        )
    click.echo(
        f"Wrote {result.trajectories} trajectories ({result.steps} steps, {result.blobs} blobs, "
        f"{result.bytes / 1e6:.1f} MB) to {result.path}"
    )
    if result.withheld:
        click.echo(withheld_note(result.withheld, hidden), err=True)


def withheld_note(withheld: dict[str, Any], hidden: HiddenJudging) -> str:
    """What a bundle leaves out, for the person who wrote it."""
    count = len(withheld["judge_results_of"])
    left_out = f"the judge's scores and reasons of {count} {'trajectory' if count == 1 else 'trajectories'}"
    if withheld["studies"]:
        left_out += f" and the ratings of {', '.join(repr(name) for name in withheld['studies'])}"
    return (
        f"Left out {left_out}, since {hidden.why()}; they stay hidden until every rater has finished. The manifest "
        'says so ("withheld").'
    )
