"""`annotator import aitz | gui-odyssey | androidcontrol PATH`: public GUI-agent datasets as trajectories to review.

Added to the `import` group (annotator/cli/bundle.py), beside `import bundle`, with ``import_group.add_command``.
Each episode is imported whole or not at all; the summary says how many were imported, how many were
there already, and which failed and why. The exit status is 1 when any episode failed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from annotator.cli.common import opened_workspace

PATH = click.Path(exists=True, path_type=Path)
IMAGES_HELP = (
    "Folder of the screenshots, when they are not where the dataset puts them (found next to the JSON, in the "
    "folders above it, or in a `screenshots` folder beside them)."
)
APP_HELP = "Record every episode under this app name instead of the one the dataset gives."
AS_HELP = "Who imports: the author of the imported labels and of their submission for review."
images_option = click.option(
    "--images", type=click.Path(exists=True, file_okay=False, path_type=Path), help=IMAGES_HELP
)


class ProgressLine:
    """Episodes done (of how many, when known) on stderr: one updated line on a terminal, else every 5 s."""

    def __init__(self, label: str) -> None:
        self.label, self.tty, self.shown_at, self.pending = label, sys.stderr.isatty(), 0.0, ""

    def __call__(self, done: int, total: int | None) -> None:
        self.pending = f"{self.label}: {done}/{total} episodes" if total else f"{self.label}: {done} episodes"
        if self.tty:
            click.echo("\r" + self.pending, err=True, nl=False)
        elif time.monotonic() - self.shown_at >= 5:
            click.echo(self.pending, err=True)
            self.shown_at, self.pending = time.monotonic(), ""

    def close(self) -> None:
        if self.tty and self.pending:
            click.echo("", err=True)
        elif self.pending:
            click.echo(self.pending, err=True)


def _import(source: str, path: Path, images: Path | None, app: str | None, person: str | None) -> None:
    # The readers (protobuf among them) load only when an import runs.
    from annotator.services.importing import DATASETS, import_dataset

    label = DATASETS[source].label
    progress = ProgressLine(label)
    with opened_workspace(click.get_current_context()) as workspace:
        try:
            summary = import_dataset(workspace, source, path, images=images, app=app, person=person, progress=progress)
        except OSError as error:  # a folder that cannot be listed, say
            raise click.ClickException(str(error)) from None
        finally:
            progress.close()
    if not (summary.imported or summary.skipped or summary.failed):
        raise click.ClickException(f"no {label} episodes found at {path}")
    click.echo(
        f"{label}: {summary.imported} episodes imported ({summary.steps} steps) for review, "
        f"{summary.skipped} already imported, {summary.failed} failed."
    )
    for failure in summary.failures:
        click.echo(f"  failed: {failure}")
    if summary.failed:
        sys.exit(1)


def _common(command: Callable[..., Any]) -> Callable[..., Any]:
    command = click.option("--as", "person", metavar="NAME", help=AS_HELP)(command)
    return click.option("--app", metavar="NAME", help=APP_HELP)(command)


@click.command("aitz")
@click.argument("path", type=PATH)
@images_option
@_common
def import_aitz(path: Path, images: Path | None, app: str | None, person: str | None) -> None:
    """Import Android-in-the-Zoo (AITZ) episodes: PATH is an episode's JSON file or a folder of them.

    Dual-point gestures become clicks (touch and lift within 0.04 of the screen) or swipes, typed text
    `type`, back / home / enter `system_button`, complete / impossible `terminate` success / failure, in
    pixels of each screenshot. coat_action_think is the think, coat_action_desc the action text."""
    _import("aitz", path, images, app, person)


@click.command("gui-odyssey")
@click.argument("path", type=PATH)
@images_option
@_common
def import_gui_odyssey(path: Path, images: Path | None, app: str | None, person: str | None) -> None:
    """Import GUI-Odyssey episodes: PATH is an annotation JSON file, the annotations folder or the data folder.

    CLICK / LONG_PRESS / SCROLL (0-1000 points, turned into pixels of each screenshot), TEXT, COMPLETE /
    INCOMPLETE and the home / back / recent-apps keys map onto the mobile_use actions; intention is the
    think, low_level_instruction the action text, sam2_bbox the target box."""
    _import("gui-odyssey", path, images, app, person)


@click.command("androidcontrol")
@click.argument("path", type=PATH)
@_common
def import_androidcontrol(path: Path, app: str | None, person: str | None) -> None:
    """Import AndroidControl episodes: PATH is a GZIP TFRecord file or a folder of them (read without TensorFlow).

    click / long_press / scroll / open_app / input_text / navigate_home / navigate_back / wait map onto the
    mobile_use actions; step instructions are the action texts; the last screen gets terminate(success)."""
    _import("androidcontrol", path, None, app, person)


dataset_commands = (import_aitz, import_gui_odyssey, import_androidcontrol)
