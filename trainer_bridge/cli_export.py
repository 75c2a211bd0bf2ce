"""`trainer-bridge export`: training datasets from a workspace."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from annotator.domain.coords import MAX_PIXELS, MIN_PIXELS
from annotator.domain.model_space import MODEL_SPACE_NAMES, model_space
from annotator.storage.workspace import Workspace
from trainer_bridge.export.formats import FORMATS
from trainer_bridge.export.run import STAGES, ExportError, ExportOptions, export
from trainer_bridge.export.source import Selection


@click.command("export")
@click.option("--stage", type=click.Choice(STAGES), required=True, help="Which training stage the data is for.")
@click.option("--format", "format_", type=click.Choice(FORMATS), required=True, help="The consumer's layout.")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="A new (or empty) folder.")
@click.option("--coords", type=click.Choice(MODEL_SPACE_NAMES), default="qwen2.5-vl", show_default=True)
@click.option("--min-pixels", type=int, default=MIN_PIXELS, show_default=True, help="The processor's min_pixels.")
@click.option("--max-pixels", type=int, default=MAX_PIXELS, show_default=True, help="The processor's max_pixels.")
@click.option("--image-scale", type=float, default=1.0, show_default=True, help="Scale first (0.5: halved).")
@click.option(
    "--history-images", type=int, default=2, show_default=True, help="W: screenshots shown, the current one too."
)
@click.option("--self-correction", is_flag=True, help="Also the steps after a wrong step (history shows the mistake).")
@click.option("--review", "reviews", multiple=True, default=("accepted",), show_default=True, help="Review states.")
@click.option("--app", "apps", multiple=True, help="Only these apps (repeat).")
@click.option("--id", "ids", type=int, multiple=True, help="Only these trajectories (repeat).")
@click.option("--judge", type=int, help="The judge whose scores are used (default: the newest).")
@click.option("--min-judge-score", type=click.IntRange(0, 4), help="Only trajectories the judge scored at least this.")
@click.option("--annotator", "annotators", multiple=True, help="Only trajectories these people labelled (repeat).")
@click.option("--data-dir", type=click.Path(path_type=Path), help="The workspace folder (as for `annotator`).")
@click.option("--db", "db_url", help="A database URL (default: ANNOTATOR_DB_URL, or the data folder's SQLite).")
def export_command(
    stage: str, format_: str, out: Path, coords: str, min_pixels: int, max_pixels: int, image_scale: float,
    history_images: int, self_correction: bool, reviews: tuple[str, ...], apps: tuple[str, ...],
    ids: tuple[int, ...], judge: int | None, min_judge_score: int | None, annotators: tuple[str, ...],
    data_dir: Path | None, db_url: str | None,
) -> None:  # fmt: skip
    """Write a training dataset of labelled steps (manifest.json says what is in it)."""
    try:
        space = model_space(coords, min_pixels=min_pixels, max_pixels=max_pixels, image_scale=image_scale)
        selection = Selection(reviews, apps, ids, judge, min_judge_score, annotators)
        options = ExportOptions(stage, format_, out, space, history_images, self_correction, selection)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    with Workspace.open(data_dir, db_url) as workspace:
        bar = click.progressbar(length=1, label="trajectories", file=sys.stderr)
        with bar:

            def progress(done: int, total: int) -> None:
                bar.length = max(total, 1)
                bar.update(done - bar.pos)

            try:
                tally = export(workspace, options, progress)
            except ExportError as error:
                raise click.ClickException(str(error)) from None
    counts = tally.as_json()
    if not counts:
        click.echo(f"Nothing to export: no labelled steps in the selected trajectories. {out} was left empty.")
        return
    for split, numbers in counts.items():
        click.echo(f"{split}: {numbers['samples']} samples from {numbers['trajectories']} trajectories")
    click.echo(f"Wrote {out} (manifest.json lists every file and count)")
