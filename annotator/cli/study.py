"""`annotator study create|list|status|adjudicate|report`: blind human studies of a judge.

Raters score in the desktop app (Studies view); these commands set studies up, follow them and report.
Listed in annotator/cli/root.py's lazy table.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from annotator.cli.common import command_workspace, emit
from annotator.judge import REPORT_FORMATS as FORMATS
from annotator.judge.agreement_consensus import TIE_RULES, TieRule
from annotator.services import studies as service
from annotator.storage.studies import PERSON_ENV, UnknownRaters, person_asking

ERRORS = (ValueError, LookupError, PermissionError)


def _workspace():
    return command_workspace(ERRORS)


def _status_lines(info: service.StudyInfo) -> list[str]:
    levels = ", ".join(f"{level}: {count}" for level, count in info.levels.items())
    lines = [
        f"Study {info.name!r} of judge {info.judge_id} ({info.judge}), seed {info.seed}"
        + (", stratified by level and app" if info.by_app else ", stratified by level"),
        f"  {info.size} trajectories (asked for {info.asked}); per judge level: {levels}",
        "  a rater sees where they and the judge differ "
        + ("as soon as they finish" if info.show_differences_early else "once every rater has finished"),
    ]
    for rater in info.raters:
        mark = "done" if rater.finished else "rating"
        lines.append(f"  {rater.name}: {rater.rated}/{rater.total} {mark}")
    lines.append(f"  without a majority, to adjudicate: {info.flagged}; adjudicated: {info.adjudicated}")
    return lines


@click.group("study")
def study() -> None:
    """Blind human-scoring studies that check a judge against people (Mobile-R1 Appendix I)."""


@study.command("create")
@click.argument("name")
@click.option("--judge", "judge_id", type=int, required=True, help="The judge's id (`annotator judge list`).")
@click.option("--size", type=click.IntRange(1), default=30, show_default=True, help="Trajectories to sample.")
@click.option(
    "--rater",
    "raters",
    multiple=True,
    required=True,
    help="A rater's name, someone on the workspace's list (`annotator people list`); repeat: Mobile-R1 used 3.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds the sample and each rater's order.")
@click.option("--by-app", is_flag=True, help="Spread each level's picks over the apps.")
@click.option(
    "--rubric-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The rubric raters read (default: the judge's prompt without its reply format).",
)
@click.option("--by", "created_by", help="Who creates the study (recorded).")
@click.option(
    "--show-differences-early",
    is_flag=True,
    help="Show a rater where they and the judge differ as soon as they finish, not only once every rater "
    "has (recorded in the study).",
)
def create_command(
    name: str,
    judge_id: int,
    size: int,
    raters: tuple[str, ...],
    seed: int,
    by_app: bool,
    rubric_file: Path | None,
    created_by: str | None,
    show_differences_early: bool,
) -> None:
    """Sample SIZE trajectories the judge scored, stratified over its 0-4 levels, for RATERs to score blind."""
    rubric = rubric_file.read_text(encoding="utf-8") if rubric_file else None
    with _workspace() as workspace:
        try:
            info = service.create_study(
                workspace.database,
                name,
                judge_id,
                size,
                list(raters),
                seed=seed,
                by_app=by_app,
                rubric=rubric,
                created_by=created_by,
                show_differences_early=show_differences_early,
            )
        except UnknownRaters as error:  # a mistyped option value, not a failure: usage error, exit code 2
            raise click.BadParameter(str(error), param_hint="'--rater'") from None
    for line in _status_lines(info):
        click.echo(line)
    if info.size < size:
        click.echo(f"Only {info.size} trajectories had a score from judge {judge_id}; all are in the study.", err=True)
    click.echo("Raters score it in the desktop app: Studies view (`annotator`).")


@study.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
def list_command(as_json: bool) -> None:
    """Every study of the workspace and how far its raters are."""
    with _workspace() as workspace:
        found = service.list_studies(workspace.database)
    if as_json:
        rows = [
            {
                "name": s.name,
                "judge": s.judge_id,
                "size": s.size,
                "finished": s.finished,
                "raters": {r.name: [r.rated, r.total] for r in s.raters},
            }
            for s in found
        ]
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    if not found:
        click.echo("No study yet: `annotator study create NAME --judge ID --rater A --rater B --rater C`.")
    for info in found:
        progress = ", ".join(f"{r.name} {r.rated}/{r.total}" for r in info.raters)
        click.echo(f"{info.name}: judge {info.judge_id}, {info.size} trajectories; {progress}")


@study.command("status")
@click.argument("name")
def status_command(name: str) -> None:
    """The sample, each rater's progress, the items waiting for adjudication."""
    with _workspace() as workspace:
        info = service.study_info(workspace.database, name)
    for line in _status_lines(info):
        click.echo(line)


@study.command("adjudicate")
@click.argument("name")
@click.argument("trajectory_id", type=int)
@click.argument("label", type=click.IntRange(0, 4))
@click.option("--note", default="", help="Why this label.")
@click.option("--as", "who", required=True, help="The adjudicator's name (not a rater still rating).")
def adjudicate_command(name: str, trajectory_id: int, label: int, note: str, who: str) -> None:
    """Set the final human label of an item (it replaces the raters' consensus)."""
    with _workspace() as workspace:
        service.adjudicate(workspace.database, name, trajectory_id, label, note, who)
    click.echo(f"Trajectory {trajectory_id} in {name!r}: adjudicated {label}.")


@study.command("report")
@click.argument("name")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the report here.")
@click.option("--tie-rule", type=click.Choice(TIE_RULES), default="median", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds the bootstrap and random tie-breaks.")
@click.option("--bootstrap", "n_boot", type=click.IntRange(0), default=2000, show_default=True)
@click.option(
    "--as",
    "viewer",
    help=f"Who asks (default: ${PERSON_ENV}, else your login name when the workspace knows it); while the "
    "study is being rated, a person the workspace knows who is not one of its raters.",
)
def report_command(
    name: str, output_format: str, out: Path | None, tie_rule: TieRule, seed: int, n_boot: int, viewer: str | None
) -> None:
    """The judge's agreement with the raters' consensus, with intervals, reliability and the confusion matrix."""
    from annotator.reports.agreement import render  # the statistics stack loads only for a report

    with _workspace() as workspace:
        report = service.study_report(
            workspace.database,
            name,
            person_asking(workspace.database, viewer),
            tie_rule=tie_rule,
            seed=seed,
            n_boot=n_boot,
        )
    emit(render(report, output_format, f"Judge agreement: study {name}"), out)
