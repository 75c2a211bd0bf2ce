"""The lazy command tables of `annotator` and `trainer-bridge`: what --help lists without loading a command is
what the commands themselves say, and every entry loads."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from annotator.cli import root as annotator_cli
from annotator.cli.lazy import Lazy, LazyGroup
from annotator.storage import workspace
from trainer_bridge.cli import root as bridge_cli

TABLES = [
    pytest.param(annotator_cli.cli, annotator_cli.COMMANDS, "annotator", id="annotator"),
    pytest.param(bridge_cli.cli, bridge_cli.COMMANDS, "trainer_bridge", id="trainer-bridge"),
]


@pytest.mark.parametrize(("group", "table", "_module"), TABLES)
def test_each_summary_is_the_first_sentence_of_the_commands_own_help(
    group: click.Group, table: dict[str, Lazy], _module: str
) -> None:
    context = click.Context(group)
    for name, entry in table.items():
        command = group.get_command(context, name)
        assert command is not None and command.name == name
        assert entry.summary == command.get_short_help_str(limit=1_000), name


def help_text(module: str, load_first: bool) -> str:
    """`--help` of a command in a fresh process, after loading every lazy command or before loading any."""
    load = "import click; [cli.get_command(click.Context(cli), name) for name in COMMANDS]; " if load_first else ""
    code = f"from {module}.cli.root import COMMANDS, cli, main; {load}main()"
    return subprocess.run(
        [sys.executable, "-c", code, "--help"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"},
    ).stdout


@pytest.mark.slow
@pytest.mark.parametrize(("_group", "table", "module"), TABLES)
def test_help_before_any_command_loads_is_the_help_after_all_have(
    _group: click.Group, table: dict[str, Lazy], module: str
) -> None:
    before = help_text(module, load_first=False)
    assert before == help_text(module, load_first=True)
    assert all(f"  {name}  " in before for name in table)


def test_an_entry_that_names_no_command_is_refused() -> None:
    group = LazyGroup("g", lazy={"broken": Lazy("annotator.cli.root:COMMANDS", "Not a command.")})
    with pytest.raises(TypeError, match=r"annotator\.cli\.root:COMMANDS is a dict, not a click command"):
        group.get_command(click.Context(group), "broken")


def test_the_root_options_read_the_variables_the_workspace_reads() -> None:
    assert (annotator_cli.DATA_DIR_ENV, annotator_cli.DB_URL_ENV) == (workspace.DATA_DIR_ENV, workspace.DB_URL_ENV)
