"""`annotator devices` and `annotator collect`: phones, and recording trajectories on them."""

from __future__ import annotations

import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import click

from annotator.cli.common import opened_workspace
from annotator.collect.decide import Decider
from annotator.collect.session import RunResult, Settings, StepEvent, Task
from annotator.collect.teleop import HELP, TeleopDecider, parse_command
from annotator.device.adb import adb_client, connect_network, devices_option, list_devices
from annotator.device.errors import DeviceError
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, MOBILE_R1_VARIANTS
from annotator.domain.trajectory import TrajectoryStatus
from annotator.services import collecting
from annotator.storage import collection

if TYPE_CHECKING:
    from annotator.storage.workspace import Workspace


@click.group("devices", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
@click.option("--connect", "address", metavar="HOST:PORT", help="First `adb connect` to a phone over the network.")
@click.option(
    "--port", type=int, envvar="ANDROID_ADB_SERVER_PORT", help="adb server port (env ANDROID_ADB_SERVER_PORT)."
)
@click.pass_context
def devices(context: click.Context, as_json: bool, address: str | None, port: int | None) -> None:
    """List connected phones: model, Android version, screen size, density, rotation."""
    if context.invoked_subcommand is not None:
        return
    try:
        client = adb_client(port=port)
        if address:
            click.echo(connect_network(client, address), err=True)
        infos = list_devices(client)
    except DeviceError as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        click.echo(json.dumps([asdict(info) for info in infos], ensure_ascii=False))
        return
    if not infos:
        click.echo(
            "No phones. Plug one in (USB debugging on), `--connect HOST:PORT`, or `annotator virtual-phone serve`."
        )
    for info in infos:
        size = f"{info.width}x{info.height}" if info.width else "?"
        model, version = info.model or "?", info.android_version or "?"
        details = f"{size:<10} {info.density or '?'} dpi  rotation {info.rotation}"
        click.echo(f"{info.serial:<24} {info.state:<12} {model:<20} Android {version:<6} {details}")


@devices.command("apps")
@click.argument("serial")
@click.argument("entries", nargs=-1, metavar="[NAME=PACKAGE]...")
@click.pass_context
def device_apps(context: click.Context, serial: str, entries: tuple[str, ...]) -> None:
    """Show or edit the phone's app name -> package table (what `open NAME` launches)."""
    with opened_workspace(context.find_root()) as workspace:
        table = collection.device_app_packages(workspace.database, serial)
        for entry in entries:
            name, sign, package = entry.partition("=")
            if not sign or not name.strip() or not package.strip():
                raise click.UsageError(f"{entry!r}: expected NAME=PACKAGE, e.g. 淘宝=com.taobao.taobao")
            table[name.strip()] = package.strip()
        if entries:
            collection.save_device(workspace.database, serial, {}, app_packages=table)
    for name, package in sorted(table.items()):
        click.echo(f"{name}\t{package}")


def print_step(event: StepEvent) -> None:
    timings = event.timings_ms
    parts = [
        f"{name} {timings[name]:.0f} ms" for name in ("observe_total", "decide", "act", "record") if name in timings
    ]
    note = f"  ! {event.note}" if event.note else ""
    click.echo(f"  step {event.index:>2}  {event.action:<40} ({', '.join(parts)}){note}")


def print_run(task: Task, number: int, result: RunResult) -> None:
    outcome = f", {result.outcome}" if result.outcome else ""
    click.echo(
        f"run {number} of “{task.text}”: trajectory {result.trajectory_id}, {result.steps} steps, "
        f"{result.status}{outcome} ({result.stop_reason})"
    )


# A closed terminal (SIGHUP) and `kill` (SIGTERM) stop a run as Ctrl+C does; SIGKILL cannot be caught, and the
# run's recorded owner tells the next command that its process is gone.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def stop_on_ctrl_c(stop: threading.Event) -> Iterator[None]:
    """The first Ctrl+C (or SIGTERM, SIGHUP) ends the run after the current step (kept, resumable); the second
    aborts, leaving the run interrupted."""

    def handle(_signal: int, _frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        click.echo("\nstopping after this step (Ctrl+C again to abort)", err=True)

    previous = {number: signal.signal(number, handle) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def read_commands(decider: TeleopDecider) -> None:
    """Feed the person's typed commands to the run; the end of input stops it once they are done."""
    click.echo(HELP, err=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            decider.submit(parse_command(line))
        except ValueError as error:
            click.echo(f"  ? {error}", err=True)
    decider.submit(None)


@click.command("collect")
@click.option("--device", "serial", help="Phone serial (default: the only connected phone).")
@click.option(
    "--devices",
    "devices_text",
    metavar="all|SERIAL,...",
    help="The agent on several phones at once, one worker each: `all` usable ones, or serials.",
)
@click.option("--app", help="App name, as in the instruction list (e.g. 优选商城).")
@click.option("--instruction", "text", help="A new instruction's text.")
@click.option("--instruction-id", type=int, help="An instruction from `annotator instructions list`.")
@click.option("--all-pending", is_flag=True, help="Every active instruction of the app with fewer than --runs runs.")
@click.option("--agent-url", help="OpenAI-compatible base URL; without it you teleoperate (commands on stdin).")
@click.option("--agent-model", help="Model name at the endpoint.")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, help="Env var holding the API key.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=1),
    default=60,
    show_default=True,
    help="Seconds per try of the agent's request; a run whose agent does not answer ends interrupted.",
)
@click.option(
    "--retries",
    type=click.IntRange(0, 10),
    default=3,
    show_default=True,
    help="The agent's request tried again after 429 (waiting what retry-after asks), 5xx and timeouts.",
)
@click.option("--runs", type=click.IntRange(1, 100), default=1, show_default=True, help="Runs per instruction.")
@click.option("--max-steps", type=click.IntRange(1, 200), default=25, show_default=True)
@click.option(
    "--history-images",
    type=click.IntRange(1, 25),
    default=2,
    show_default=True,
    help="Screenshots sent, the current one included (Mobile-R1 Eq. 4's W counts the earlier ones: W + 1).",
)
@click.option(
    "--prompt-variant",
    type=click.Choice(MOBILE_R1_VARIANTS),
    default=str(DEFAULT_PROMPT_VARIANT),
    show_default=True,
    help="The agent's system prompt: qwen2.5-vl declares mobile_use's parameters; mobile-r1-paper is B.4 as printed.",
)
@click.option(
    "--decomposed-grounding",
    is_flag=True,
    help="Refine the agent's points on 4 overlapping sub-images of the screen (UI-AGILE 3.4).",
)
@click.option("--person", help="Who teleoperates (recorded with the trajectory).")
@click.option("--resume", "resume_id", type=int, help="Go on with an interrupted trajectory.")
@click.option(
    "--resume-anyway",
    is_flag=True,
    help="--resume even when the phone shows another screen than the "
    "run stopped on (it goes on from the screen shown).",
)
@click.option("--close", "close_id", type=int, help="Close an interrupted trajectory (no resume).")
@click.option("--port", type=int, envvar="ANDROID_ADB_SERVER_PORT", help="adb server port.")
@click.pass_context
def collect(context: click.Context, **options: Any) -> None:
    """Record trajectories: a VLM agent (--agent-url) or you (teleoperation) drive the phone, step by step.

    Exits with status 1 when the work was not all done: a run ended interrupted (phone gone, the model's endpoint
    failing, stopped) or tasks were left; the last line says what."""
    with opened_workspace(context) as workspace:
        try:
            if options["close_id"] is not None:
                stopped = collecting.close_run(workspace, int(options["close_id"]))
                click.echo(f"closed trajectory {options['close_id']} ({stopped})")
                return
            done = _collect(workspace, options)
        except collecting.ScreenChanged as error:
            hint = "bring the phone back to that screen and run it again, or add --resume-anyway to go on from here"
            raise click.ClickException(f"{error}; {hint}") from None
        except (collecting.CollectError, DeviceError) as error:
            raise click.ClickException(str(error)) from None
    if not done:
        context.exit(1)


def _collect(workspace: Workspace, options: dict[str, Any]) -> bool:
    """Collect as the options say; whether all the work was done."""
    if options["agent_url"] and not options["agent_model"]:
        raise collecting.CollectError("--agent-url needs --agent-model")
    settings = Settings(
        max_steps=options["max_steps"],
        history_images=options["history_images"],
        prompt_variant=options["prompt_variant"],
        decomposed_grounding=options["decomposed_grounding"],
    )
    if options["decomposed_grounding"] and not options["agent_url"]:
        raise collecting.CollectError("--decomposed-grounding refines an agent's points: give --agent-url")
    if options["devices_text"] is not None:
        return _collect_on_devices(workspace, options, settings)
    device = collecting.choose_device(options["serial"], options["port"])
    stop = threading.Event()
    endpoint = None
    decider: Decider
    if options["agent_url"]:
        endpoint = _endpoint(options)
        decider = collecting.agent_decider(endpoint, settings)
    else:
        decider = TeleopDecider(on_refused=lambda message: click.echo(f"  ? {message}", err=True))
        threading.Thread(target=read_commands, args=(decider,), daemon=True).start()
    click.echo(f"collecting on {device.serial}")
    try:
        with stop_on_ctrl_c(stop):
            return _run(workspace, device, decider, options, settings, endpoint, stop)
    finally:
        if hasattr(decider, "close"):
            decider.close()


def _run(workspace, device, decider, options: dict, settings: Settings, endpoint, stop: threading.Event) -> bool:
    if options["resume_id"] is not None:
        stopped = collecting.open_run(workspace, options["resume_id"])
        click.echo(f"resuming trajectory {options['resume_id']} ({stopped})")
        result = collecting.resume_run(
            workspace,
            device,
            decider,
            options["resume_id"],
            settings=settings,
            on_step=print_step,
            stop=stop,
            anyway=options["resume_anyway"],
        )
        click.echo(f"trajectory {result.trajectory_id}: {result.steps} steps, {result.status} ({result.stop_reason})")
        return _report([result], 1)
    tasks = _tasks(workspace, options)
    click.echo(f"{len(tasks)} instruction(s) x {options['runs']} run(s), up to {settings.max_steps} steps each")
    skipped: list[int] = []

    def skip(task: Task, number: int, why: str) -> None:
        skipped.append(number)
        click.echo(f"run {number} of “{task.text}”: skipped ({why})")

    results = collecting.run_tasks(
        workspace,
        device,
        decider,
        tasks,
        runs=options["runs"],
        settings=settings,
        person=options["person"],
        endpoint=endpoint,
        on_step=print_step,
        on_run=print_run,
        on_skip=skip,
        stop=stop,
    )
    return _report(results, len(tasks) * options["runs"] - len(skipped))


def _endpoint(options: dict[str, Any]) -> collecting.AgentEndpoint:
    return collecting.AgentEndpoint(
        options["agent_url"],
        options["agent_model"],
        options["api_key_env"],
        timeout_s=options["timeout"],
        retries=options["retries"],
    )


def _tasks(workspace: Workspace, options: dict[str, Any]) -> list[Task]:
    if not options["app"]:
        raise collecting.CollectError("--app is required (the app the instruction is for)")
    return collecting.tasks_for(
        workspace,
        options["app"],
        text=options["text"],
        instruction_id=options["instruction_id"],
        all_pending=options["all_pending"],
        runs=options["runs"],
    )


def _report(results: list[RunResult], wanted: int) -> bool:
    """Say what was not done, if anything (as the last line, on stderr); whether all was done."""
    interrupted = [result.trajectory_id for result in results if result.status == TrajectoryStatus.INTERRUPTED]
    left = wanted - len(results)
    if not interrupted and not left:
        return True
    parts = []
    if interrupted:
        parts.append(f"interrupted: {', '.join(map(str, interrupted))} (--resume ID goes on, --close ID closes)")
    if left:
        parts.append(f"{left} run(s) not started")
    click.echo(f"NOT DONE: {'; '.join(parts)}", err=True)
    return False


def _collect_on_devices(workspace: Workspace, options: dict[str, Any], settings: Settings) -> bool:
    from annotator.cli.collect_devices import collect_on_devices
    from annotator.services.parallel_collecting import choose_phones

    if options["serial"] is not None or options["resume_id"] is not None:
        raise collecting.CollectError("--devices runs new tasks on several phones; --device and --resume take one")
    if not options["agent_url"]:
        raise collecting.CollectError("teleoperation drives one phone: give --agent-url to collect on several phones")
    try:
        serials = devices_option(options["devices_text"])
    except ValueError as error:
        raise collecting.CollectError(str(error)) from None
    endpoint = _endpoint(options)
    devices = choose_phones(serials, options["port"])
    tasks = _tasks(workspace, options)
    stop = threading.Event()
    with stop_on_ctrl_c(stop):
        return collect_on_devices(workspace, devices, endpoint, tasks, options["runs"], settings, stop)
