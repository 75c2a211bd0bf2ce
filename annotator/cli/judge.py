"""`annotator judge run|list`: score trajectories with an LLM judge on the Mobile-R1 0-4 rubric.

Listed in annotator/cli/root.py's lazy table.
"""

from __future__ import annotations

import json
import sys
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from annotator.cli.common import command_workspace, request_tries_options
from annotator.domain.judge_settings import DEFAULT_PROMPT, ImagePolicy, builtin_prompts
from annotator.domain.trajectory import ReviewStatus, TrajectoryStatus
from annotator.judge.runner import RunProgress, RunSummary
from annotator.llm.client import LLMConfig, LLMError
from annotator.services import judging as service
from annotator.storage.studies import hidden_judging, person_asking

ERRORS = (LLMError, ValueError, LookupError)


def _workspace():
    return command_workspace(ERRORS)


class _Progress:
    """A bar on a terminal, a line every 10% elsewhere; called from the run's worker threads. The total comes
    with the first answer: it counts only what the run asks, not what this judge had scored before."""

    def __init__(self) -> None:
        self.lock, self.reported = threading.Lock(), 0
        self.bar: Any = None

    def __call__(self, progress: RunProgress) -> None:
        with self.lock:
            if sys.stderr.isatty():
                if self.bar is None:
                    self.bar = click.progressbar(length=progress.total, label="Judging", file=sys.stderr)
                self.bar.update(progress.done - self.bar.pos)
                if progress.done >= progress.total:
                    self.bar.render_finish()
            elif progress.done * 10 // max(1, progress.total) > self.reported * 10 // max(1, progress.total):
                click.echo(
                    f"judged {progress.done}/{progress.total}: {progress.scored} scored, "
                    f"{progress.failed} without a usable score",
                    err=True,
                )
            self.reported = progress.done


@click.group("judge")
def judge() -> None:
    """Score whole trajectories with an LLM judge (Mobile-R1 B.3 rubric, 0-4) and list the judges."""


@judge.command("run")
@click.option("--base-url", required=True, help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8001/v1.")
@click.option("--model", required=True, help="The judge model's name at that endpoint.")
@click.option(
    "--prompt",
    default=DEFAULT_PROMPT,
    show_default=True,
    help=f"Built-in judge prompt ({', '.join(builtin_prompts())}), or the name for --prompt-file.",
)
@click.option(
    "--prompt-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A prompt variant of your own (UTF-8 text; the trajectory follows it as the user message).",
)
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, help="Env var holding the API key.")
@click.option("--concurrency", type=click.IntRange(1, 256), default=4, show_default=True, help="Requests at once.")
@click.option("--temperature", type=click.FloatRange(0, 2), default=0.0, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Sampling seed sent to the endpoint.")
@click.option(
    "--max-side",
    type=click.IntRange(28),
    default=1024,
    show_default=True,
    help="Screenshots are scaled so that their longer side is at most this many pixels.",
)
@click.option(
    "--max-images",
    type=click.IntRange(1),
    default=16,
    show_default=True,
    help="At most this many screenshots per trajectory (the first and the last ones).",
)
@click.option("--app", "apps", multiple=True, help="Only this app (repeat for more).")
@click.option("--review", multiple=True, type=click.Choice([s.value for s in ReviewStatus]), help="Review state.")
@click.option(
    "--status",
    "statuses",
    multiple=True,
    type=click.Choice([s.value for s in TrajectoryStatus]),
    help="Trajectory status (default: complete and interrupted).",
)
@click.option("--id", "ids", multiple=True, type=int, help="Only this trajectory (repeat for more).")
@click.option("--unscored", is_flag=True, help="Leave out what this judge scored before --limit applies.")
@click.option("--limit", type=click.IntRange(1), help="At most this many trajectories.")
@request_tries_options
@click.option("--json", "as_json", is_flag=True, help="Print the run's summary as one JSON object.")
def run_command(
    base_url: str,
    model: str,
    prompt: str,
    prompt_file: Path | None,
    api_key_env: str,
    concurrency: int,
    temperature: float,
    seed: int,
    max_side: int,
    max_images: int,
    apps: tuple[str, ...],
    review: tuple[str, ...],
    statuses: tuple[str, ...],
    ids: tuple[int, ...],
    unscored: bool,
    limit: int | None,
    timeout: float,
    retries: int,
    as_json: bool,
) -> None:
    """Score the chosen trajectories; those this judge already scored are skipped (a run can be resumed)."""
    images = ImagePolicy(max_side=max_side, max_images=max_images)
    try:
        settings = service.make_settings(
            model, prompt=prompt, prompt_file=prompt_file, temperature=temperature, seed=seed, images=images
        )
    except (ValueError, LookupError) as error:
        raise click.ClickException(str(error)) from None
    endpoint = LLMConfig(base_url, settings.model, api_key_env, timeout_s=timeout, max_retries=retries)
    selection = service.judge_selection(
        apps=apps, review=review, statuses=statuses, ids=ids, unscored=unscored, limit=limit
    )
    with _workspace() as workspace:
        try:
            summary = service.run_judge(
                workspace, settings, endpoint, selection, concurrency=concurrency, on_progress=_Progress()
            )
        except KeyboardInterrupt:  # the runner asked nothing more and recorded the run as stopped
            raise click.ClickException("stopped; the scores so far are kept, run the same command to go on") from None
    _report(summary, settings.prompt_name, settings.model, as_json)


def _report(summary: RunSummary, prompt: str, model: str, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(asdict(summary), ensure_ascii=False))
    else:
        click.echo(
            f"Judge {summary.config_id} ({prompt}, {model}), run {summary.run_id}: {summary.scored} scored, "
            f"{summary.failed} without a usable score, {summary.skipped} scored before (of {summary.requested}) "
            f"in {summary.seconds:.1f} s; {summary.status}."
        )
    if summary.screens_dropped:
        click.echo(
            f"The image cap left out {summary.screens_dropped} screenshots in "
            f"{summary.trajectories_with_screens_dropped} trajectories (the first and the last are kept); "
            "raise --max-images to show the judge every screen.",
            err=True,
        )
    if summary.message:
        click.echo(f"The run ended early: {summary.message}", err=True)
    unscored = summary.requested - summary.skipped - summary.scored
    if unscored or summary.status != "complete":
        # the work was not done: a script or a scheduler must see it in the exit status, not only in the text
        click.echo(
            f"Not done: {unscored} of {summary.requested} chosen trajectories have no usable score from this "
            "judge; run the same command again to ask about them once more (the scored ones are not asked again).",
            err=True,
        )
        sys.exit(1)


@judge.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
@click.option(
    "--as",
    "person",
    metavar="NAME",
    help="Who asks (default: $ANNOTATOR_PERSON, else your login name when the workspace knows it): a "
    "study's raters get means without its trajectories while it is being rated.",
)
def list_command(as_json: bool, person: str | None) -> None:
    """The judge configurations of this workspace and what each has scored."""
    with _workspace() as workspace:
        try:
            asking = person_asking(workspace.database, person)
        except LookupError as error:
            raise click.UsageError(str(error)) from None
        judges = service.list_judges(workspace.database, asking, blind=True)
        hidden = hidden_judging(workspace.database, asking) if any(row.hidden for row in judges) else None
    if as_json:
        rows = [asdict(row) | {"created_at": row.created_at.isoformat()} for row in judges]
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    if not judges:
        click.echo("No judge has scored anything yet: `annotator judge run --base-url URL --model M`.")
        return
    click.echo("    id  prompt        model                 temp  seed  scored  unusable  mean")
    for row in judges:
        mean = f"{row.mean_reward:.2f}" if row.mean_reward is not None else "-"
        click.echo(
            f"{row.id:>6}  {row.prompt_name:<12}  {row.model:<20}  {row.temperature:>4g}  {row.seed!s:>4}  "
            f"{row.scored:>6}  {row.unusable:>8}  {mean:>4}"
        )
    if hidden is not None:
        for row in judges:
            if row.hidden:
                click.echo(
                    f"Judge {row.id}: {row.hidden} answers are left out of its counts and mean, since "
                    f"{hidden.why()}; they show once every rater has finished."
                )
