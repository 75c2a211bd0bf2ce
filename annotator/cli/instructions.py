"""`annotator instructions ...`: import, list, generate and review the tasks collectors work on.

Listed in annotator/cli/root.py's lazy table. The workspace comes from the root group's ``--data-dir`` /
``--db`` (``context.obj``) through ``opened_workspace`` (annotator/cli/common.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from annotator.cli.common import command_workspace
from annotator.domain.trajectory import InstructionStatus
from annotator.llm.client import LLMClient, LLMConfig, LLMError
from annotator.services import instructions as service
from annotator.storage.instructions import InstructionRecord

STATUS_CHOICE = click.Choice([status.value for status in InstructionStatus])
ERRORS = (service.InstructionImportError, LLMError, ValueError, LookupError)


def _workspace():
    return command_workspace(ERRORS)


def _as_json(record: InstructionRecord) -> dict[str, object]:
    return {
        "id": record.id,
        "uid": record.uid,
        "app": record.app,
        "text": record.text,
        "source": record.source,
        "status": record.status,
    }


def _table(records: list[InstructionRecord]) -> None:
    for record in records:
        click.echo(f"{record.id:>6}  {record.status:<9}  {record.source:<9}  {record.app}  {record.text}")


@click.group("instructions")
def instructions() -> None:
    """The tasks to collect: import lists, generate drafts with a model, review them."""


@instructions.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def import_command(file: Path) -> None:
    """Import FILE: CSV (columns app,text and optionally package,uid,status) or JSON (an array of objects
    with app and text, such as `annotator virtual-phone instructions` prints). All rows or none;
    instructions already stored (same uid, or same app and text) are skipped."""
    with _workspace() as workspace:
        report = service.import_instructions(workspace.database, file)
    click.echo(f"Imported {report.added} instruction(s) from {file.name} ({report.format}); {report.skipped} skipped.")


@instructions.command("list")
@click.option("--app", default=None, help="Only this app's instructions.")
@click.option("--status", type=STATUS_CHOICE, default=None, help="Only instructions with this status.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of objects (id, uid, app, text, ...).")
def list_command(app: str | None, status: str | None, as_json: bool) -> None:
    """List instructions in the order they were added."""
    with _workspace() as workspace:
        records = service.list_instructions(workspace.database, app=app, status=status)
    if as_json:
        click.echo(json.dumps([_as_json(record) for record in records], ensure_ascii=False, indent=2))
    elif records:
        _table(records)
    else:
        click.echo("No instructions match.")


@instructions.command("generate")
@click.option("--app", required=True, help="The app's name as users know it, e.g. 淘宝.")
@click.option("-n", "count", type=click.IntRange(1, 100), default=10, show_default=True, help="How many tasks.")
@click.option("--package", default=None, help="The app's Android package, stored with the app if it has none.")
@click.option("--base-url", required=True, help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1.")
@click.option("--model", required=True, help="The model's name at that endpoint.")
@click.option(
    "--api-key-env",
    default="OPENAI_API_KEY",
    show_default=True,
    help="Environment variable holding the API key (else the keyring entry for the URL, else none).",
)
@click.option("--timeout", type=click.FloatRange(min=1), default=120, show_default=True, help="Seconds per try.")
@click.option(
    "--temperature",
    type=click.FloatRange(0, 2),
    default=0.7,
    show_default=True,
    help="Sampling temperature; above 0 gives more varied tasks.",
)
def generate_command(
    app: str,
    count: int,
    package: str | None,
    base_url: str,
    model: str,
    api_key_env: str,
    timeout: float,
    temperature: float,
) -> None:
    """Generate N tasks for APP with the Mobile-R1 prompt; they wait as `generated` until approved."""
    with _workspace() as workspace:
        config = LLMConfig(
            base_url=base_url, model=model, api_key_env=api_key_env, timeout_s=timeout, temperature=temperature
        )
        with LLMClient(config) as client:
            report = service.generate(workspace.database, client, app, count, package=package)
    _table(report.added)
    click.echo(
        f"Added {len(report.added)} generated instruction(s) for {app}; {report.skipped} were already here. "
        "Review them, then `annotator instructions approve ID...` or `reject ID...`."
    )


@instructions.command("approve")
@click.argument("ids", nargs=-1, required=True, type=int)
def approve_command(ids: tuple[int, ...]) -> None:
    """Mark instructions as reviewed and fit for collection (status active)."""
    with _workspace() as workspace:
        changed = service.approve(workspace.database, ids)
    click.echo(f"Approved {len(set(ids))} instruction(s) ({changed} changed).")


@instructions.command("reject")
@click.argument("ids", nargs=-1, required=True, type=int)
def reject_command(ids: tuple[int, ...]) -> None:
    """Mark instructions as unreasonable (status rejected); they stay, so they are not generated again."""
    with _workspace() as workspace:
        changed = service.reject(workspace.database, ids)
    click.echo(f"Rejected {len(set(ids))} instruction(s) ({changed} changed).")
