"""`trainer-bridge select`: sample a model N times per step, store each answer's reward, and say how many steps
each keep rule would keep; `trainer-bridge export --select RUN --keep RULE` then exports those steps."""

from __future__ import annotations

import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from annotator.domain.coords import MAX_PIXELS, MIN_PIXELS
from annotator.domain.model_space import DEFAULT_IMAGE_SCALE, MODEL_SPACE_NAMES
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PROMPT_VARIANTS, prompt_variant
from annotator.llm.client import LLMConfig
from annotator.storage.workspace import Workspace
from trainer_bridge.cli.eval_options import given_space
from trainer_bridge.cli.options import selection, selection_options, workspace_options
from trainer_bridge.evaluate.offline import LEVELS, EvalProgress, EvalSettings
from trainer_bridge.evaluate.policy import EndpointPolicy
from trainer_bridge.select.rates import load_selection
from trainer_bridge.select.run import DEFAULT_REWARD, DEFAULT_THRESHOLD, STEP_REWARDS, SelectionJob, run_selection
from trainer_bridge.select.summary import selection_summary, summary_lines


def _feeding(bar: Any) -> Callable[[EvalProgress], None]:
    """An on_progress that moves `bar` (a click progress bar); called from the worker threads."""
    lock = threading.Lock()

    def progress(done: EvalProgress) -> None:
        with lock:
            bar.length = max(done.total, 1)
            bar.update(done.done - bar.pos)

    return progress


@contextmanager
def ctrl_c_stops(stop: threading.Event) -> Iterator[None]:
    """The first Ctrl+C sets `stop`: the requests in flight finish and are stored, the rest wait for the same
    command again. A second one interrupts at once (the answers stored so far are kept either way)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only
        return

    def handler(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        click.echo("\nStopping after the requests in flight (Ctrl+C again to quit now)", err=True)

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _levels(text: str) -> tuple[str, ...]:
    levels = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [level for level in levels if level not in LEVELS]
    if not levels or unknown:
        raise click.UsageError(f"--levels {text!r}: a comma-separated list of {', '.join(LEVELS)}")
    return levels


def selection_job(given: dict[str, Any]) -> SelectionJob:
    """The job the options ask for; a usage error naming what is wrong."""
    try:
        settings = EvalSettings(
            given_space(given),
            prompt_variant(given["prompt_variant"]),
            given["history_images"],
            given["temperature"],
            given["samples"],
            _levels(given["levels"]),
        )
        return SelectionJob(
            given["name"] or given["model"],
            settings,
            selection(given),
            given["reward"],
            given["pass_threshold"],
            given["concurrency"],
            resume=not given["fresh"],
        )
    except ValueError as error:
        raise click.UsageError(str(error)) from None


def _endpoint(given: dict[str, Any]) -> LLMConfig:
    try:
        return LLMConfig(
            given["base_url"],
            given["model"],
            given["api_key_env"],
            timeout_s=given["timeout"],
            max_retries=given["retries"],
        )
    except ValueError as error:
        raise click.UsageError(str(error)) from None


@click.command("select")
@click.option("--base-url", required=True, help="The model's OpenAI-compatible endpoint (vLLM, a hosted model).")
@click.option("--model", required=True, help="The model's name at that endpoint.")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, help="Env var holding the key.")
@click.option("--timeout", type=click.FloatRange(min=1), default=120, show_default=True, help="Seconds per try.")
@click.option(
    "--retries",
    type=click.IntRange(0, 10),
    default=3,
    show_default=True,
    help="Tries again after 429, 5xx and timeouts.",
)
@click.option(
    "--samples",
    type=click.IntRange(1, 64),
    required=True,
    help="Answers per step (GUI-R1 samples 10; 0 < p < 1 needs at least 2).",
)
@click.option(
    "--temperature",
    type=click.FloatRange(0, 2),
    required=True,
    help="Sampling temperature; --keep prone needs 0.7 or more (InfiGUI-R1: raised).",
)
@click.option(
    "--reward",
    type=click.Choice(STEP_REWARDS),
    default=DEFAULT_REWARD,
    show_default=True,
    help="What scores each answer (action_reward: Mobile-R1's R_Act).",
)
@click.option(
    "--pass-threshold",
    type=float,
    default=DEFAULT_THRESHOLD,
    show_default=True,
    help="A sample passes when its reward is at least this.",
)
@click.option(
    "--levels",
    default="task",
    show_default=True,
    help="Instruction levels to ask: task, or task,action for --keep bottleneck (InfiGUI-R1).",
)
@click.option("--concurrency", type=click.IntRange(1, 256), default=4, show_default=True, help="Requests at once.")
@click.option("--name", help="A name for the run (default: the model's).")
@click.option("--new", "fresh", is_flag=True, help="Start a new run instead of going on with the same one.")
@click.option("--json", "as_json", is_flag=True, help="End with one JSON object: the run and its counts.")
@click.option("--coords", type=click.Choice(MODEL_SPACE_NAMES), default="qwen2.5-vl", show_default=True)
@click.option("--min-pixels", type=int, default=MIN_PIXELS, show_default=True, help="The processor's min_pixels.")
@click.option("--max-pixels", type=int, default=MAX_PIXELS, show_default=True, help="The processor's max_pixels.")
@click.option(
    "--image-scale",
    type=float,
    default=DEFAULT_IMAGE_SCALE,
    show_default=True,
    help="As the export's: 0.5 halves the screenshots (Mobile-R1 Appendix E).",
)
@click.option(
    "--history-images",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Screenshots per request, the current one included (as the export's).",
)
@click.option(
    "--prompt-variant",
    type=click.Choice(PROMPT_VARIANTS),
    default=str(DEFAULT_PROMPT_VARIANT),
    show_default=True,
    help="The system prompt, as the export's.",
)
@selection_options(reviews=("accepted",), review_help="Review states of the candidate trajectories (repeat).")
@workspace_options
def select_command(**given: Any) -> None:
    """Sample a model N times per step and store pass rates, for `export --select` (hard, band, bottleneck).

    Each answer's reward is stored; `trainer-bridge export --select RUN --keep RULE` then exports the steps a rule
    keeps: hard (UI-R1), band (GUI-R1), bottleneck and prone (InfiGUI-R1). Running the same command again goes on
    where it stopped; Ctrl+C stops after the requests in flight."""
    job, endpoint = selection_job(given), _endpoint(given)
    stop = threading.Event()
    with Workspace.open(given["data_dir"], given["db_url"]) as workspace:
        policy = EndpointPolicy(endpoint)
        try:
            bar = click.progressbar(length=1, label="samples", file=sys.stderr)  # hidden when not a terminal
            with bar, ctrl_c_stops(stop):
                result = run_selection(workspace, policy, job, _feeding(bar), stop)
        finally:
            policy.close()
        run = load_selection(workspace.database, result.evaluation_id)
    steps = result.requested // (job.settings.samples * len(job.settings.levels))
    if result.skipped:
        click.echo(
            f"Went on with selection {result.evaluation_id}: {result.skipped} answers were there already", err=True
        )
    if steps == 0:
        click.echo("No labelled steps in the selected trajectories (see --review and the filters).", err=True)
    for line in summary_lines(run, steps):
        click.echo(line)
    if given["as_json"]:
        payload = selection_summary(run, steps) | {"asked": result.answered + result.failed, "skipped": result.skipped}
        click.echo(json.dumps(payload, ensure_ascii=False))
    if result.status != "complete":
        again = "run the same command again to go on" if result.status == "stopped" else result.message
        raise click.ClickException(f"selection {result.evaluation_id} {result.status}: {again}")
