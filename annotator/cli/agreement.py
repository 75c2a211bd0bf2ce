"""`annotator agreement FILE.csv`: the judge-vs-human agreement report for scores made anywhere.

The CSV has the columns `item`, `judge` and one column per human rater (an empty cell is a missing rating).
No workspace is opened. Listed in annotator/cli/root.py's lazy table.
"""

from __future__ import annotations

from pathlib import Path

import click

from annotator.cli.common import emit
from annotator.judge import REPORT_FORMATS as FORMATS
from annotator.judge.agreement_consensus import TIE_RULES


@click.command("agreement")
@click.argument("csv_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (same as --format json).")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option(
    "--tie-rule",
    type=click.Choice(TIE_RULES),
    default="median",
    show_default=True,
    help="The human label when raters have no majority: the median rating, a seeded random choice among the "
    "tied labels, or the lowest of them (the report shows how the numbers move under the others).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds the bootstrap and random tie-breaking.")
@click.option(
    "--bootstrap",
    "n_boot",
    type=click.IntRange(0),
    default=2000,
    show_default=True,
    help="Bootstrap resamples for the rank and kappa intervals (0: none).",
)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the report here.")
def agreement(
    csv_file: Path, as_json: bool, output_format: str, tie_rule: str, seed: int, n_boot: int, out: Path | None
) -> None:
    """Agreement of a judge with human raters: exact / within-one (Wilson 95%), MAD, bias, Spearman, Kendall
    tau-b, quadratic-weighted kappa (bootstrap 95%), Krippendorff's alpha and Fleiss' kappa of the humans."""
    # scipy, scikit-learn and statsmodels load here, not with every `annotator` command
    from annotator.judge.agreement import agreement_report
    from annotator.judge.ratings_csv import read_ratings_csv
    from annotator.reports.agreement import render

    try:
        items = read_ratings_csv(csv_file)
        report = agreement_report(items, tie_rule=tie_rule, seed=seed, n_boot=n_boot)  # type: ignore[arg-type]
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    chosen = "json" if as_json else output_format
    emit(render(report, chosen, f"Judge agreement: {csv_file.name}"), out)
