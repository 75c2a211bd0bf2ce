"""`trainer-bridge eval`: evaluate a policy offline (held-out steps with the labelled history) or on phones
(--online); `eval list`, `eval show`, `eval report` and `eval compare` read the stored evaluations."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import click

from annotator.device.adb import devices_option
from annotator.storage import evaluations
from annotator.storage.workspace import Workspace
from trainer_bridge.cli.eval_options import (
    endpoint_config,
    eval_settings,
    make_policy,
    policy_options,
    sampling_options,
    with_manifest,
)
from trainer_bridge.cli.eval_show import compare_command, list_command, report_command, show_command
from trainer_bridge.cli.eval_text import headline_lines, write_reports
from trainer_bridge.cli.options import selection, selection_options, workspace_options
from trainer_bridge.evaluate.offline import EvalJob, EvalProgress, EvalResult, OfflineEvaluation


class _Progress:
    """A bar on a terminal, a line every 10% elsewhere; called from the worker threads."""

    def __init__(self, label: str) -> None:
        self.lock, self.reported, self.label = threading.Lock(), 0, label
        self.bar: Any = None

    def __call__(self, progress: EvalProgress) -> None:
        with self.lock:
            if sys.stderr.isatty():
                if self.bar is None:
                    self.bar = click.progressbar(length=progress.total, label=self.label, file=sys.stderr)
                self.bar.update(progress.done - self.bar.pos)
                if progress.done >= progress.total:
                    self.bar.render_finish()
            elif progress.done * 10 // max(1, progress.total) > self.reported * 10 // max(1, progress.total):
                click.echo(
                    f"{self.label.lower()} {progress.done}/{progress.total}: {progress.answered} answered, "
                    f"{progress.failed} failed",
                    err=True,
                )
            self.reported = progress.done


@click.group("eval", invoke_without_command=True)
@policy_options
@sampling_options
@click.option("--concurrency", type=click.IntRange(1, 256), default=4, show_default=True, help="Requests at once.")
@click.option("--name", help="A name for the evaluation (default: the model's).")
@click.option("--new", "fresh", is_flag=True, help="Start a new evaluation instead of going on with the same one.")
@click.option(
    "--report-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the JSON and HTML reports go (default: <data folder>/reports).",
)
@click.option("--json", "as_json", is_flag=True, help="End with one JSON object: the evaluation and its summary.")
@click.option("--online", is_flag=True, help="Run the policy on phones over instructions instead (see below).")
@click.option("--device", "devices", multiple=True, help="--online: a phone's serial (repeat; default: all).")
@click.option(
    "--devices",
    "devices_text",
    metavar="all|SERIAL,...",
    help="--online: the phones, one worker each: `all` usable ones, or serials (as --device).",
)
@click.option("--adb-port", type=click.IntRange(1, 65535), help="--online: the adb server's port.")
@click.option("--instruction-id", "instruction_ids", type=int, multiple=True, help="--online: an instruction.")
@click.option("--runs", type=click.IntRange(1, 100), default=1, show_default=True, help="--online: runs each.")
@click.option(
    "--max-steps",
    type=click.IntRange(1, 100),
    default=14,
    show_default=True,
    help="--online: the step limit (Mobile-R1 stage 3: 14).",
)
@click.option(
    "--start-in",
    type=click.Choice(("app", "home")),
    default="app",
    show_default=True,
    help="--online: each rollout starts in the app (opened on its start page) or on the home screen, as "
    "trajectories that open the app themselves were collected.",
)
@click.option("--judge-model", help="--online: the judge for instructions without a success check.")
@click.option("--judge-base-url", help="--online: the judge's endpoint (default: the policy's).")
@selection_options(reviews=("accepted",), review_help="Review states of the held-out trajectories (repeat).")
@workspace_options
@click.pass_context
def eval_command(context: click.Context, **given: Any) -> None:
    """Evaluate a policy on held-out steps (offline) or on phones (--online).

    Offline, each held-out step is asked with the labelled history (Mobile-R1 5.1.5): step accuracy, task success,
    TM, EM, GR, SR, argument errors, per app and split, pass@k, with 95% intervals. Running the same command again
    goes on where it stopped. `eval list`, `show`, `report` and `compare` read the stored evaluations."""
    if context.invoked_subcommand is not None:
        return
    given = with_manifest(context, given)
    with Workspace.open(given["data_dir"], given["db_url"]) as workspace:
        if given["online"]:
            _run_online(workspace, given)
            return
        result = _run_offline(workspace, given)
        info = evaluations.get_evaluation(workspace.database, result.evaluation_id)
        paths = write_reports(workspace, info, given["report_dir"])
    for line in headline_lines(info):
        click.echo(line)
    click.echo(f"Report: {paths[1]}")
    if given["as_json"]:
        click.echo(json.dumps(_result_json(result, paths), ensure_ascii=False))
    if result.status != "complete":
        raise click.ClickException(f"evaluation {result.evaluation_id} {result.status}: {result.message}")


def _run_offline(workspace: Workspace, given: dict[str, Any]) -> EvalResult:
    settings = eval_settings(given)
    try:
        chosen = selection(given)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    policy = make_policy(given, settings)
    name = given["name"] or policy.describe()["model"]
    seen = tuple(given["seen_apps"]) or None
    job = EvalJob(name, settings, chosen, concurrency=given["concurrency"], seen_apps=seen, resume=not given["fresh"])
    try:
        result = OfflineEvaluation(workspace, policy, job).run(_Progress("Evaluating"))
    finally:
        policy.close()
    if result.requested == 0:
        click.echo("No labelled steps in the selected trajectories (see --review and the filters).", err=True)
    elif result.skipped:
        click.echo(
            f"Went on with evaluation {result.evaluation_id}: {result.skipped} answers were there already", err=True
        )
    return result


def _run_online(workspace: Workspace, given: dict[str, Any]) -> None:
    from trainer_bridge.evaluate.online_command import run_online_command

    local = _local_agent(given) if given["model_path"] is not None else None
    endpoint = local.endpoint if local is not None else endpoint_config(given)
    try:
        serials = tuple(given["devices"]) + devices_option(given["devices_text"] or "all")
        result = run_online_command(
            workspace,
            endpoint,
            device_serials=serials,
            adb_port=given["adb_port"],
            app=tuple(given["apps"]),
            instruction_ids=tuple(given["instruction_ids"]),
            runs=given["runs"],
            max_steps=given["max_steps"],
            history_images=given["history_images"],
            prompt_variant=given["prompt_variant"],
            judge_model=given["judge_model"],
            judge_base_url=given["judge_base_url"],
            name=given["name"],
            resume=not given["fresh"],
            on_progress=_rollout_line,
            local=local,
            restart_app=given["start_in"] == "app",
        )
    except (ValueError, LookupError, RuntimeError) as error:
        raise click.ClickException(str(error)) from None
    finally:
        if local is not None:
            local.close()
    info = evaluations.get_evaluation(workspace.database, result.evaluation_id)
    paths = write_reports(workspace, info, given["report_dir"])
    for line in headline_lines(info):
        click.echo(line)
    for serial in result.lost:
        click.echo(f"Phone lost: {serial}", err=True)
    click.echo(f"Report: {paths[1]}")
    if given["as_json"]:
        payload = {
            "evaluation_id": info.id,
            "kind": info.kind,
            "status": info.status,
            "resumed": result.resumed,
            "requested": result.requested,
            "skipped": result.skipped,
            "unfinished": result.unfinished,
            "summary": info.summary,
            "report": [str(p) for p in paths],
        }
        click.echo(json.dumps(payload, ensure_ascii=False))
    if result.status != "complete":
        raise click.ClickException(
            f"evaluation {result.evaluation_id} {result.status}: {result.message}; run the same command again to go on"
        )


def _local_agent(given: dict[str, Any]) -> Any:
    """The checkpoint as the agent, shown the screens as its export (--export) says; loaded now."""
    from trainer_bridge.evaluate.local_agent import LocalAgent, Shown
    from trainer_bridge.evaluate.local_policy import LocalModelError

    if given["judge_model"] and not given["judge_base_url"]:
        raise click.UsageError("--judge-model with --model-path: give the judge's --judge-base-url")
    shown = Shown(
        given["min_pixels"], given["max_pixels"], given["image_scale"], given["history_images"], given["prompt_variant"]
    )
    try:
        return LocalAgent(
            given["model_path"], shown, max_new_tokens=given["max_new_tokens"], temperature=given["temperature"]
        )
    except LocalModelError as error:
        raise click.ClickException(str(error)) from None


def _rollout_line(progress: Any) -> None:
    """One line per rollout as it ends (a rollout takes seconds to minutes: a bar would say less)."""
    last = progress.last
    outcome = "done" if last.done else "not done" if last.done is False else "unknown"
    claimed = "claimed success" if last.claimed_success else "no success claimed"
    how = f"checked by {last.checked_by}" if last.checked_by else "not checked"
    click.echo(
        f"[{progress.done}/{progress.total}] instruction {last.instruction_id} run {last.run + 1} on "
        f"{last.device_serial}: {last.steps} steps, {claimed}, {outcome} ({how})"
        + (f"; {last.error}" if last.error else ""),
        err=True,
    )


def _result_json(result: EvalResult, paths: tuple[Path, Path]) -> dict[str, Any]:
    return {
        "evaluation_id": result.evaluation_id,
        "kind": "offline",
        "status": result.status,
        "message": result.message,
        "resumed": result.resumed,
        "requested": result.requested,
        "skipped": result.skipped,
        "answered": result.answered,
        "failed": result.failed,
        "seconds": round(result.seconds, 2),
        "summary": result.summary,
        "report": [str(p) for p in paths],
    }


for _command in (list_command, show_command, report_command, compare_command):
    eval_command.add_command(_command)
