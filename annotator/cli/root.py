"""The `annotator` command: the root group and where each subcommand lives.

Subcommands load when they run (annotator.cli.lazy): `annotator --help` and `--version` import no
command's module, and a command imports only what it uses (tests/test_startup_imports.py keeps it so).
"""

from __future__ import annotations

import signal
from pathlib import Path

import click

from annotator import __version__
from annotator.cli.lazy import Lazy, LazyGroup

# The variables annotator.storage.workspace reads, named here so that `--help` does not load the database
# layer to spell them (tests/cli/test_lazy_commands.py checks that they agree).
DATA_DIR_ENV, DB_URL_ENV = "ANNOTATOR_DATA_DIR", "ANNOTATOR_DB_URL"

COMMANDS = {
    "agreement": Lazy(
        "annotator.cli.agreement:agreement",
        "Agreement of a judge with human raters: exact / within-one (Wilson 95%), MAD, bias, Spearman, Kendall "
        "tau-b, quadratic-weighted kappa (bootstrap 95%), Krippendorff's alpha and Fleiss' kappa of the humans.",
    ),
    "assign": Lazy(
        "annotator.cli.team:assign",
        "Give trajectories, an app's instruction set or a study to a person (admins only).",
    ),
    "collect": Lazy(
        "annotator.cli.collect:collect",
        "Record trajectories: a VLM agent (--agent-url) or you (teleoperation) drive the phone, step by step.",
    ),
    "db": Lazy("annotator.cli.db:db", "Database information and upgrades."),
    "gui": Lazy("annotator.cli.gui:gui", "Open the desktop app on the workspace (--data-dir / --db)."),
    "draft": Lazy(
        "annotator.cli.draft:draft",
        "Ask a model for drafts of the steps nobody has labelled yet (pre-annotation, InfiGUI-R1 3.1).",
    ),
    "demo": Lazy("annotator.cli.demo:demo", "Build a demo workspace with real data and open the app on it."),
    "devices": Lazy(
        "annotator.cli.collect:devices",
        "List connected phones: model, Android version, screen size, density, rotation.",
    ),
    "export": Lazy("annotator.cli.bundle:export_group", "Write data out."),
    "import": Lazy("annotator.cli.bundle:import_group", "Bring data in."),
    "instructions": Lazy(
        "annotator.cli.instructions:instructions",
        "The tasks to collect: import lists, generate drafts with a model, review them.",
    ),
    "judge": Lazy(
        "annotator.cli.judge:judge",
        "Score whole trajectories with an LLM judge (Mobile-R1 B.3 rubric, 0-4) and list the judges.",
    ),
    "people": Lazy(
        "annotator.cli.team:people", "The people of this workspace and their roles (annotator, reviewer, admin)."
    ),
    "queue": Lazy(
        "annotator.cli.team:queue",
        "What a person has to do: trajectories to label and to review, studies to rate, instruction sets.",
    ),
    "scripted-endpoint": Lazy(
        "annotator.cli.virtual:scripted_endpoint",
        "The built-in scripted agent behind an OpenAI-compatible API (model `scripted`).",
    ),
    "stats": Lazy(
        "annotator.cli.db:stats_command",
        "Counts of apps, instructions, trajectories and steps, per action and per app.",
    ),
    "study": Lazy(
        "annotator.cli.study:study",
        "Blind human-scoring studies that check a judge against people (Mobile-R1 Appendix I).",
    ),
    "virtual-phone": Lazy(
        "annotator.cli.virtual:virtual_phone",
        "The built-in virtual phone: a Chinese shopping, video and settings phone on a loopback adb server.",
    ),
}


@click.group(
    cls=LazyGroup, lazy=COMMANDS, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar=DATA_DIR_ENV,
    default=None,
    help=f"Folder for the database and blobs (env {DATA_DIR_ENV}; default: the user data folder).",
)
@click.option("--db", "db_url", envvar=DB_URL_ENV, default=None, help=f"Database URL (env {DB_URL_ENV}).")
@click.version_option(__version__, prog_name="annotator")
@click.pass_context
def cli(context: click.Context, data_dir: Path | None, db_url: str | None) -> None:
    """Turn Android phone sessions into GUI-agent training data (Mobile-R1 style).

    Without a command, opens the desktop app on the workspace (`annotator gui`)."""
    # data_dir None is the user data folder; Workspace.open works it out when a command opens the workspace
    context.obj = {"data_dir": data_dir, "db_url": db_url}
    if context.invoked_subcommand is None:  # plain `annotator`: the desktop app on the user's workspace
        from annotator.cli.gui import gui

        context.invoke(gui)


def main() -> None:
    # Ctrl+C stops a command cleanly, also one started with SIGINT ignored (a script's `command &`): the demo's
    # training loop and the tests stop commands with SIGINT, as a person would.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    cli(prog_name="annotator")
