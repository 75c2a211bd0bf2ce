"""`annotator virtual-phone ...` and `annotator scripted-endpoint ...`: the demo peers, in the foreground."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import click

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import all_instructions
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.demo.phone.solver import package_for, run_solution

ADB_PORT_ENV = "ANDROID_ADB_SERVER_PORT"


def _interrupt(_signal: int, _frame: object) -> None:
    raise KeyboardInterrupt


def stop_on_sigterm() -> None:
    """`kill` (SIGTERM) stops a foreground server as cleanly as Ctrl+C does."""
    signal.signal(signal.SIGTERM, _interrupt)


@click.group("virtual-phone")
def virtual_phone() -> None:
    """The built-in virtual phone: a Chinese shopping, video and settings phone on a loopback adb server."""


@virtual_phone.command("serve")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="0 picks a free port.")
@click.option("--count", type=click.IntRange(1, 16), default=1, show_default=True, help="How many phones.")
def serve_phones(port: int, count: int) -> None:
    """Serve virtual phones to any adb client until Ctrl+C."""
    phones = [VirtualPhone(serial=f"virtual-{number}") for number in range(1, count + 1)]
    try:
        server = VirtualAdbServer(phones, port=port)
    except OSError as error:
        raise click.ClickException(f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}") from None
    stop_on_sigterm()
    try:  # a stop may come as soon as the first line is out, before serving starts
        click.echo(f"adb server for {count} virtual phone(s) on 127.0.0.1:{server.port}")
        for phone in phones:
            size = f"{phone.width}x{phone.height}"
            click.echo(f"  {phone.serial}\t{phone.model}, Android {phone.android_version}, {size}")
        click.echo(f"Reach them with {ADB_PORT_ENV}={server.port} adb devices -l   (Ctrl+C stops)")
        server.serve_forever()  # returns on Ctrl+C
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    click.echo("stopped")


@virtual_phone.command("instructions")
def list_instructions() -> None:
    """Print the virtual phone's instruction set as JSON (for `annotator instructions import`)."""
    phone = VirtualPhone()
    items = [item.as_json(package_for(phone, item.app)) for item in all_instructions()]
    click.echo(json.dumps(items, ensure_ascii=False, indent=2))


@virtual_phone.command("screenshots")
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--instruction", "uids", multiple=True, help="Only this instruction's uid (repeatable).")
def save_screenshots(out: Path, uids: tuple[str, ...]) -> None:
    """Walk instructions' solutions and save every screen as OUT/<uid>/<step>.png, to look at the phone."""
    chosen = [item for item in all_instructions() if not uids or item.uid in uids]
    unknown = set(uids) - {item.uid for item in chosen}
    if unknown:
        raise click.ClickException(
            f"no instruction {', '.join(sorted(unknown))}; see `annotator virtual-phone instructions`"
        )
    for instruction in chosen:
        folder = out / instruction.uid
        folder.mkdir(parents=True, exist_ok=True)
        phone = VirtualPhone()
        (folder / "00-start.png").write_bytes(phone.screencap_png())
        for number, (_, action) in enumerate(run_solution(phone, instruction), start=1):
            (folder / f"{number:02d}-{action.name}.png").write_bytes(phone.screencap_png())
        click.echo(f"{folder}: {number + 1} screens")


@click.group("scripted-endpoint")
def scripted_endpoint() -> None:
    """The built-in scripted agent behind an OpenAI-compatible API (model `scripted`)."""


@scripted_endpoint.command("serve")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="0 picks a free port.")
@click.option("--seed", type=int, default=0, show_default=True, help="Varies the agent's occasional mistakes.")
@click.option("--verbose", is_flag=True, help="Log every request.")
def serve_endpoint(port: int, seed: int, verbose: bool) -> None:
    """Serve the scripted agent until Ctrl+C."""
    try:
        endpoint = ScriptedEndpoint(port=port, seed=seed, verbose=verbose)
    except OSError as error:
        raise click.ClickException(f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}") from None
    stop_on_sigterm()
    try:  # a stop may come as soon as the first line is out, before serving starts
        click.echo(f"scripted OpenAI-compatible endpoint at {endpoint.base_url} (model 'scripted', any API key)")
        click.echo("Ctrl+C stops")
        endpoint.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        endpoint.close()
    click.echo("stopped")
