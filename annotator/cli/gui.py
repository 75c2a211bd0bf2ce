"""`annotator gui` (and plain `annotator`): the desktop app. The one command module that imports the GUI, when it
runs: every other command starts without Qt (import-linter names this import as the Qt ban's one exception)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

import click


@click.command("gui")
@click.pass_context
def gui(context: click.Context) -> None:
    """Open the desktop app on the workspace (--data-dir / --db)."""
    from annotator.storage.workspace import default_data_dir

    run_gui = load_gui()
    root = context.find_root().obj or {}
    sys.exit(run_gui(root.get("data_dir") or default_data_dir(), db_url=root.get("db_url")))


def load_gui() -> Callable[..., int]:
    """The desktop app's `run_gui`, loaded before any work so that a missing app is said at once."""
    gc.disable()  # the app's ~900 modules would trigger two full collections (~0.15 s) that free nothing
    try:
        from annotator.ui.app import run_gui

        return run_gui
    except ImportError as error:
        raise click.ClickException(
            f"the desktop app is not available in this installation ({error}); "
            "`annotator demo --no-gui` builds the demo workspace without it."
        ) from None
    finally:
        gc.freeze()  # what the imports made lives as long as the app: later collections need not walk it
        gc.enable()
