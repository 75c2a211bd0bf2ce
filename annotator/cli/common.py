"""What the `annotator` subcommands share: opening the workspace with clear errors, progress on a terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from annotator.storage.workspace import Workspace


@contextmanager
def opened_workspace(context: click.Context, *, migrate: bool = True, writes: bool = True) -> Iterator[Workspace]:
    """The workspace the root options name; its known failures (a file that is not a database, a read-only folder,
    a full disk) end the command with one line. `writes=False`: the command only reads, so a read-only folder
    opens for reading."""
    # Imported here: this module serves every command, and some (agreement, virtual-phone) open no workspace.
    from annotator.storage.blobs import BlobError
    from annotator.storage.database import MigrationError, SchemaTooNewError
    from annotator.storage.failures import WorkspaceError, plain_reason
    from annotator.storage.workspace import Workspace

    user_errors = (BlobError, SchemaTooNewError, MigrationError, FileExistsError, LookupError, WorkspaceError)

    try:
        workspace = Workspace.open(context.obj["data_dir"], context.obj["db_url"], migrate=migrate, writes=writes)
    except (SchemaTooNewError, MigrationError, WorkspaceError) as error:
        raise click.ClickException(str(error)) from None
    if workspace.created and migrate:  # a mistyped --data-dir must not pass for an empty workspace
        click.echo(f"Created a new workspace in {workspace.data_dir} (it had none).", err=True)
    for note in workspace.database.schema.notes:
        click.echo(f"Upgrade: {note}", err=True)
    try:
        yield workspace
    except user_errors as error:
        raise click.ClickException(str(error)) from None
    except Exception as error:
        reason = plain_reason(error, workspace.data_dir)
        if reason is None:
            raise
        raise click.ClickException(reason) from None
    finally:
        workspace.close()


def progress_printer(label: str):
    """A progress callback that draws a bar on stderr only when someone is watching."""
    if not sys.stderr.isatty():
        return None
    bar: dict[str, Any] = {}

    def report(done: int, total: int) -> None:
        if "bar" not in bar:
            bar["bar"] = click.progressbar(length=total, label=label, file=sys.stderr)
            bar["bar"].__enter__()
        bar["bar"].update(done - bar["bar"].pos)
        if done >= total:
            bar["bar"].__exit__(None, None, None)

    return report


def emit(text: str, out: Path | None) -> None:
    """Print `text`, or write it to `out` (UTF-8, ending in a newline) and say where."""
    if out is None:
        click.echo(text)
        return
    out.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    click.echo(f"Wrote {out}", err=True)


@contextmanager
def command_workspace(errors: tuple[type[Exception], ...], *, writes: bool = True) -> Iterator[Workspace]:
    """The workspace the root group's options name, for a subcommand; `errors` become one-line messages."""
    with opened_workspace(click.get_current_context(), writes=writes) as workspace:
        try:
            yield workspace
        except errors as error:
            raise click.ClickException(str(error)) from None


def request_tries_options(command: Any) -> Any:
    """--timeout and --retries of a command that asks an OpenAI-compatible endpoint (the judge, drafts)."""
    command = click.option(
        "--retries",
        type=click.IntRange(0, 10),
        default=3,
        show_default=True,
        help="Tries again after 429 (waiting what retry-after asks), 5xx and timeouts.",
    )(command)
    return click.option(
        "--timeout", type=click.FloatRange(min=1), default=120, show_default=True, help="Seconds per try."
    )(command)
