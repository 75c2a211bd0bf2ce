"""`trainer-bridge stats`: the shape of a selection and of its splits, as Mobile-R1 reports its dataset.

The numbers come from ``annotator.storage.statistics``, the module the app's statistics view counts with, and
the selection and split options are `trainer-bridge export`'s own (trainer_bridge.cli.options), so a split's
statistics describe exactly the trajectories an export with the same options puts in it. What is counted is
`annotator stats`'s definition (``annotator.domain.counting``): by default Mobile-R1 Table 2's dataset (the
accepted trajectories of the selection and their annotated steps), with --every-row every trajectory of the
selection in every review state and every step row, and then the tables do not say "Table 2".

A selection by judge score (--min-judge-score) leaves out the trajectories whose judge results are hidden from
whoever runs it (annotator.storage.studies.hidden_judging: the items of a study still being rated, for its
raters and for someone who did not say who they are), and says so: whether such a trajectory is counted would
tell its score.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import click
import pandas as pd

from annotator.domain.counting import Counting
from annotator.storage.database import Database
from annotator.storage.selection import TrajectorySelection, selected_ids, selected_keys
from annotator.storage.statistics import WHOLE, DatasetShape, load_facts, split_shapes, totals_table, write_tables
from annotator.storage.studies import PERSON_ENV, HiddenJudging, hidden_judging, person_asking
from trainer_bridge.cli.options import (
    opened_workspace,
    selection,
    selection_options,
    split_options,
    split_plan,
    workspace_options,
)
from trainer_bridge.export.splits import SplitPlan, assign_splits

TOTALS_FILE = "totals.csv"
TITLES = {Counting.PAPER: ("Table 2 (Mobile-R1)", "Table 6 (Mobile-R1)"), Counting.ROWS: ("Totals", "Counts")}


@click.command("stats")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write CSV and PNG files into this folder (files of the same name are replaced).",
)
@split_options(default=None)
@selection_options(
    reviews=(), review_help="Review states (repeat; default: every state, of which Table 2 counts the accepted)."
)
@click.option(
    "--every-row",
    is_flag=True,
    help="Count every trajectory and every step row. By default the figures are Mobile-R1 Table 2's: the "
    "accepted trajectories and their annotated steps (as `annotator stats`).",
)
@click.option(
    "--as",
    "person",
    metavar="NAME",
    help=f"Who asks (default: ${PERSON_ENV}, else your login name when the workspace knows it): a study's "
    "raters get no judge-score selection of its trajectories while it is being rated.",
)
@workspace_options
def stats_command(**given: Any) -> None:
    """Dataset statistics per split: Mobile-R1 Table 2 and Table 6, trajectory lengths, action types.

    Selection and split options mean what they mean for `trainer-bridge export` (without --split: the whole
    selection, "all"). The figures are Mobile-R1 Table 2's (accepted trajectories, their annotated steps), or
    with --every-row every trajectory and step row. Without --out the tables are printed; with --out DIR,
    DIR/totals.csv holds Table 2 per split and DIR/<split>/ (and DIR/all/) the per-app, trajectory-length and
    action-type tables as CSV and their charts as PNG.
    """
    try:
        chosen, plan = selection(given), split_plan(given)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    with opened_workspace(given, writes=False) as workspace:
        hidden = None
        if chosen.min_judge_score is not None:
            try:
                hidden = hidden_judging(workspace.database, person_asking(workspace.database, given["person"]))
            except LookupError as error:
                raise click.UsageError(str(error)) from None
        counting = Counting.ROWS if given["every_row"] else Counting.PAPER
        shapes = selection_shapes(workspace.database, chosen, plan if given["split_text"] else None, hidden, counting)
    totals, per_app = TITLES[counting]
    with pd.option_context("display.unicode.east_asian_width", True, "display.width", 200, "display.max_rows", None):
        click.echo(
            f"{totals}: the selection" + (" per split" if len(shapes) > 1 else "") + f", counted {counting.description}"
        )
        click.echo(totals_table(shapes).to_string(index=False))
        if given["out"] is None:
            for name, shape in shapes.items():
                click.echo(f"\n{per_app}: per app, {name}")
                click.echo(shape.per_app.to_string(index=False) if not shape.is_empty() else "(no trajectories)")
            return
    folders = write_files(shapes, given["out"])
    click.echo(f"\nWrote to {given['out']}: {TOTALS_FILE} (Table 2 per split)")
    for folder, paths in folders.items():
        click.echo(f"  {folder}/: {', '.join(path.name for path in paths)}")


def selection_shapes(
    db: Database,
    chosen: TrajectorySelection,
    plan: SplitPlan | None,
    hidden: HiddenJudging | None = None,
    counting: Counting = Counting.PAPER,
) -> dict[str, DatasetShape]:
    """The shape of each split of the selection (none without a plan), then of the whole selection, counted as
    `counting` counts; the trajectories in `hidden` are left out (said on stderr), whatever their score."""
    _judge, keys = selected_keys(db, chosen)
    if hidden:
        left_out = hidden.hidden_of(selected_ids(db, replace(chosen, min_judge_score=None)))  # not by their scores
        if left_out:
            keys = [key for key in keys if key.trajectory_id not in left_out]
            click.echo(left_out_note(hidden, len(left_out)), err=True)
    if not keys:
        raise click.ClickException(
            "No trajectories match the selection; nothing to count (see --review and the other filters)."
        )
    try:
        splits = assign_splits(keys, plan) if plan else {}
        facts = load_facts(db).counted(counting)
        if not splits:
            return {WHOLE: facts.subset([key.trajectory_id for key in keys]).shape()}
        return split_shapes(facts, splits)
    except ValueError as error:  # a held-out app not in the selection, a split named "all"
        raise click.UsageError(str(error)) from None


def left_out_note(hidden: HiddenJudging, count: int) -> str:
    return (
        f"Left out of the judge-score selection, whatever their scores: {count} "
        f"{'trajectory' if count == 1 else 'trajectories'}, since {hidden.why()}; their judge results stay hidden "
        "until every rater has finished."
    )


def write_files(shapes: dict[str, DatasetShape], out: Path) -> dict[str, list[Path]]:
    """totals.csv, then per split a folder of CSV tables and PNG charts; returns the files of each folder."""
    from annotator.reports.statistics_charts import write_pngs  # matplotlib loads only when charts are drawn

    out.mkdir(parents=True, exist_ok=True)
    totals_table(shapes).to_csv(out / TOTALS_FILE, index=False, encoding="utf-8")
    return {
        name: [*write_tables(shape.tables(), out / name), *write_pngs(shape, out / name)]
        for name, shape in shapes.items()
    }
