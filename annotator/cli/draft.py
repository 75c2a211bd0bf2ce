"""`annotator draft`: ask a model for drafts of the steps nobody has labelled yet (pre-annotation).

Loaded by annotator/cli/root.py's lazy table when the command runs. The work is annotator.services.drafting's.
"""

from __future__ import annotations

import json
import sys
import threading
from dataclasses import asdict
from typing import Any

import click

from annotator.cli.common import command_workspace, request_tries_options
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, MOBILE_R1_VARIANTS, prompt_variant
from annotator.llm.client import LLMError
from annotator.services.drafting import DraftProgress, DraftSummary, draft_steps

ERRORS = (LLMError, ValueError, LookupError)


class _Progress:
    """A bar on a terminal, a line every 10% elsewhere; called from the run's worker threads."""

    def __init__(self) -> None:
        self.lock, self.reported = threading.Lock(), 0
        self.bar: Any = None

    def __call__(self, progress: DraftProgress) -> None:
        with self.lock:
            total = max(1, progress.total)
            if sys.stderr.isatty():
                if self.bar is None:
                    self.bar = click.progressbar(length=progress.total, label="Drafting", file=sys.stderr)
                self.bar.update(progress.done - self.bar.pos)
                if progress.done >= progress.total:
                    self.bar.render_finish()
            elif progress.done * 10 // total > self.reported * 10 // total:
                click.echo(
                    f"drafted {progress.done}/{progress.total}: {progress.kept} kept, {progress.flagged} "
                    f"flagged, {progress.failed} failed",
                    err=True,
                )
            self.reported = progress.done


@click.command("draft")
@click.option("--app", help="Draft the unlabelled steps of this app's trajectories.")
@click.option("--trajectory", "trajectory_ids", multiple=True, type=int, help="Only this trajectory (repeat for more).")
@click.option("--base-url", required=True, help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1.")
@click.option("--model", required=True, help="The model's name at that endpoint.")
@click.option(
    "--api-key-env",
    default="OPENAI_API_KEY",
    show_default=True,
    help="Env var holding the API key (else the keyring's key for the URL; never given on the command line).",
)
@click.option("--concurrency", type=click.IntRange(1, 256), default=4, show_default=True, help="Requests at once.")
@click.option(
    "--prompt-variant",
    "variant_name",
    type=click.Choice(MOBILE_R1_VARIANTS),
    default=DEFAULT_PROMPT_VARIANT.value,
    show_default=True,
    help="The agent's system prompt the draft request starts from.",
)
@request_tries_options
@click.option("--json", "as_json", is_flag=True, help="Print the run's summary as one JSON object.")
def draft(
    app: str | None,
    trajectory_ids: tuple[int, ...],
    base_url: str,
    model: str,
    api_key_env: str,
    concurrency: int,
    variant_name: str,
    timeout: float,
    retries: int,
    as_json: bool,
) -> None:
    """Ask a model for drafts of the steps nobody has labelled yet (pre-annotation, InfiGUI-R1 3.1).

    Each step's screenshot, instruction, history and a short description of its screen's elements (from the stored
    UI hierarchy) are sent in the project's prompt format; the reply is kept as the step's draft, offered in the
    Annotate view only when its action matches the one executed (else kept, flagged). Drafts are not labels until
    someone accepts them. A step that has a draft of this model and prompt is not asked again, so a stopped run
    goes on where it stopped.
    """
    if app is None and not trajectory_ids:
        raise click.UsageError("say which steps to draft: --app A, or --trajectory ID (repeat for more)")
    with command_workspace(ERRORS) as workspace:
        try:
            summary = draft_steps(
                workspace,
                base_url=base_url,
                model=model,
                app=app,
                trajectory_ids=trajectory_ids,
                api_key_env=api_key_env,
                concurrency=concurrency,
                timeout_s=timeout,
                max_retries=retries,
                variant=prompt_variant(variant_name),
                progress=_Progress(),
            )
        except KeyboardInterrupt:
            raise click.ClickException("stopped; the drafts so far are kept, run the same command to go on") from None
    _report(summary, as_json)


def _report(summary: DraftSummary, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(asdict(summary), ensure_ascii=False))
    else:
        click.echo(
            f"Drafts by {summary.model} ({summary.prompt_name}) of {summary.steps} unlabelled steps: {summary.kept} "
            f"kept (their action matched the executed one), {summary.flagged} flagged, {summary.skipped} drafted "
            f"before, {summary.failed} failed; {summary.asked} asked in {summary.seconds:.1f} s."
        )
        for failure in summary.failures[:10]:
            click.echo(f"  {failure}", err=True)
        if len(summary.failures) > 10:
            click.echo(f"  ... and {len(summary.failures) - 10} more", err=True)
    if summary.message:
        click.echo(f"The run ended early: {summary.message}", err=True)
    if summary.failed:
        click.echo("Run the same command again to ask about the failed steps once more.", err=True)
    if summary.status == "failed":
        sys.exit(1)
