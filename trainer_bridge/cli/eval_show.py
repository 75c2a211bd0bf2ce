"""`trainer-bridge eval list | show | report | compare`: the stored evaluations, read back."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from annotator.domain.evaluation import HEADLINE, compare
from annotator.storage import evaluations
from annotator.storage.workspace import Workspace
from trainer_bridge.cli.eval_text import LABELS, headline_lines, percent, write_reports
from trainer_bridge.cli.options import workspace_options


def _evaluation(workspace: Workspace, evaluation_id: int) -> evaluations.EvaluationInfo:
    try:
        return evaluations.get_evaluation(workspace.database, evaluation_id)
    except LookupError as error:
        raise click.ClickException(str(error)) from None


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON array.")
@workspace_options
def list_command(as_json: bool, data_dir: Path | None, db_url: str | None) -> None:
    """The evaluations, newest first, with their headline figures."""
    with Workspace.open(data_dir, db_url) as workspace:
        found = evaluations.list_evaluations(workspace.database)
    if as_json:
        rows = [
            {
                "id": e.id,
                "kind": e.kind,
                "name": e.name,
                "model": e.policy.get("model"),
                "status": e.status,
                "created_at": e.created_at.isoformat(),
                "summary": e.summary,
            }
            for e in found
        ]
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    if not found:
        click.echo("No evaluations yet: trainer-bridge eval --base-url URL --model NAME")
        return
    click.echo(f"{'id':>4}  {'kind':<9}{'status':<10}{'Acc.':>7}{'task':>7}{'tail':>7}  model")
    for e in found:
        summary = e.summary or {}
        shown = (
            ("step_accuracy", "task_success", "tail_success")
            if e.kind != "online"
            else ("step_accuracy", "claimed_and_done", "tail_success")
        )
        figures = "".join(f"{percent(summary.get(n)):>7}" for n in shown)
        click.echo(f"{e.id:>4}  {e.kind:<9}{e.status:<10}{figures}  {e.policy.get('model', '?')} ({e.name})")


@click.command("show")
@click.argument("evaluation_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@workspace_options
def show_command(evaluation_id: int, as_json: bool, data_dir: Path | None, db_url: str | None) -> None:
    """One evaluation's figures, per app and split."""
    with Workspace.open(data_dir, db_url) as workspace:
        info = _evaluation(workspace, evaluation_id)
    if as_json:
        payload = asdict(info) | {"created_at": info.created_at.isoformat()}
        payload["finished_at"] = info.finished_at.isoformat() if info.finished_at else None
        click.echo(json.dumps(payload, ensure_ascii=False))
        return
    for line in headline_lines(info):
        click.echo(line)


@click.command("report")
@click.argument("evaluation_id", type=int)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: <data folder>/reports.")
@workspace_options
def report_command(evaluation_id: int, out: Path | None, data_dir: Path | None, db_url: str | None) -> None:
    """Write the evaluation's JSON and self-contained HTML report."""
    with Workspace.open(data_dir, db_url) as workspace:
        paths = write_reports(workspace, _evaluation(workspace, evaluation_id), out)
    click.echo(f"Wrote {paths[0]} and {paths[1]}")


def _difference_lines(comparison: dict[str, Any]) -> list[str]:
    lines = [f"{'':<24}{'first':>8}{'second':>8}{'points':>9}"]
    for name in HEADLINE:
        first, second = comparison["first"].get(name), comparison["second"].get(name)
        delta = comparison["difference"].get(name)
        shown = f"{100 * delta:+8.1f}" if delta is not None else "       –"
        lines.append(f"{LABELS[name]:<24}{percent(first):>8}{percent(second):>8}{shown:>9}")
    return lines


@click.command("compare")
@click.argument("first_id", type=int)
@click.argument("second_id", type=int)
@click.option("--level", default="task", show_default=True, type=click.Choice(("task", "action")))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Also write compare JSON and HTML.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@workspace_options
def compare_command(
    first_id: int,
    second_id: int,
    level: str,
    out: Path | None,
    as_json: bool,
    data_dir: Path | None,
    db_url: str | None,
) -> None:
    """Two evaluations side by side on the steps both answered, and the steps one got right and the other wrong."""
    from annotator.reports.evaluation import compare_html, compare_json

    with Workspace.open(data_dir, db_url) as workspace:
        first, second = _evaluation(workspace, first_id), _evaluation(workspace, second_id)
        db = workspace.database
        scores = [evaluations.step_scores(db, evaluation_id, level) for evaluation_id in (first_id, second_id)]
        comparison = compare(*scores)
    payload = compare_json(first, second, comparison, level=level)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        stem = out / f"compare-{first_id}-{second_id}"
        stem.with_suffix(".json").write_text(json.dumps(payload, ensure_ascii=False, indent=2), encoding="utf-8")
        stem.with_suffix(".html").write_text(compare_html(first, second, comparison, level=level), encoding="utf-8")
    if as_json:
        click.echo(json.dumps(payload, ensure_ascii=False))
        return
    click.echo(
        f"{comparison['shared_steps']} steps answered by both (evaluation {first_id}: "
        f"{comparison['only_first']} more, {second_id}: {comparison['only_second']} more)"
    )
    for line in _difference_lines(comparison):
        click.echo(line)
    for title, steps in (
        ("Right only in the second", comparison["fixed"]),
        ("Right only in the first", comparison["broken"]),
    ):
        click.echo(f"{title}: {len(steps)}")
        for step in steps[:20]:
            click.echo(f"  trajectory {step.trajectory_id} step {step.position + 1} ({step.app})")
    if out is not None:
        click.echo(f"Wrote {out}/compare-{first_id}-{second_id}.json and .html")
