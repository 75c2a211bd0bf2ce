"""`annotator collect --devices`: the agent on many phones at once, each phone's progress on lines of its own."""

from __future__ import annotations

import threading

import click

from annotator.collect.session import Settings, Task
from annotator.device.android import AndroidDevice
from annotator.services import parallel_collecting as parallel
from annotator.services.collecting import AgentEndpoint
from annotator.storage.workspace import Workspace


def print_event(event: parallel.PhoneEvent) -> None:
    """One line per event, prefixed with the phone's serial (the workers print from their own threads)."""
    prefix = f"[{event.serial}]"
    if isinstance(event, parallel.RunStarted):
        job = event.job
        click.echo(f"{prefix} run {job.number} of “{job.task.text}”: trajectory {event.trajectory_id}")
    elif isinstance(event, parallel.RunSkipped):
        click.echo(f"{prefix} run {event.job.number} of “{event.job.task.text}”: skipped ({event.why})")
    elif isinstance(event, parallel.StepRecorded):
        step = event.step
        note = f"  ! {step.note}" if step.note else ""
        click.echo(
            f"{prefix}   step {step.index:>2}  {step.action:<40} ({step.timings_ms.get('total', 0):.0f} ms){note}"
        )
    elif isinstance(event, parallel.RunEnded):
        result = event.result
        outcome = f", {result.outcome}" if result.outcome else ""
        click.echo(
            f"{prefix} trajectory {result.trajectory_id}: {result.steps} steps, {result.status}{outcome} "
            f"({result.stop_reason})"
        )
    elif isinstance(event, parallel.PhoneLost):
        again = f"; “{event.job.task.text}” goes to the other phones" if event.job else ""
        click.echo(f"{prefix} phone lost: {event.reason}{again}", err=True)


def collect_on_devices(
    workspace: Workspace,
    devices: list[AndroidDevice],
    endpoint: AgentEndpoint,
    tasks: list[Task],
    runs: int,
    settings: Settings,
    stop: threading.Event,
) -> bool:
    """Run the tasks on the phones; prints a summary per phone and one line for the whole; whether all was done."""
    click.echo(f"collecting on {len(devices)} phones: {', '.join(device.serial for device in devices)}")
    result = parallel.collect_on_phones(
        workspace, devices, endpoint, tasks, runs=runs, settings=settings, on_event=print_event, stop=stop
    )
    for summary in result.phones:
        click.echo(summary.line())
    click.echo(("done: " if result.all_done else "NOT DONE: ") + result.summary(), err=not result.all_done)
    return result.all_done
